import { ERR, maskEmail, type api, type CallRequest, type FindIdAnswer } from '@eln/shared';
import { AppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import type { Visitor } from '../authUser.js';
import { findActiveUserByNameAndPhone } from '../queries.js';
import { throttleKeys } from '../throttle.js';

/** Find ID: the ID of the active account with this name and phone, mostly hidden; misses count against the address. */
export async function findUserId(
  { db, throttle }: Services,
  { clientAddress }: Pick<Visitor, 'clientAddress'>,
  input: CallRequest<typeof api.auth.findId>,
): Promise<FindIdAnswer> {
  const key = throttleKeys.recovery(clientAddress);
  await throttle.assertNotLocked(db, [key]);
  const user = await findActiveUserByNameAndPhone(db, input.name, input.phone);
  if (!user) {
    await throttle.recordAddressFailure(db, key);
    throw new AppError(ERR.noMatchingAccount);
  }
  return { maskedUserId: maskEmail(user.userId) };
}
