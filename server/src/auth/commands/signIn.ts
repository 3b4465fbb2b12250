import { AUDIT_SYSTEM_REASONS, ERR, type api, type CallRequest, type SignInAnswer } from '@eln/shared';
import { appendAudit } from '../../audit/audit.js';
import { AppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { admitSignIn } from '../admit.js';
import type { Visitor } from '../authUser.js';
import { verifyPassword } from '../passwords.js';
import { findUserById } from '../queries.js';
import { throttleKeys } from '../throttle.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Signs in with ID and password. Failures are counted per account and per address, slowed down and then
 * refused for a while (each failure audited, a lock once when it starts); the answer never says whether
 * the account exists.
 */
export async function signIn(services: Services, visitor: Visitor, input: CallRequest<typeof api.auth.signIn>): Promise<SignInAnswer> {
  const { db, throttle } = services;
  const { clientAddress } = visitor;
  const accountKey = throttleKeys.account(input.userId);
  const addressKey = throttleKeys.address(clientAddress);
  const lockedFor = await throttle.lockedForSeconds(db, [accountKey, addressKey]);
  if (lockedFor > 0) {
    // The lock was audited when it started; attempts during it are only counted.
    await throttle.recordRefusal(db, [accountKey, addressKey]);
    throw throttle.lockedError(lockedFor);
  }

  const user = await findUserById(db, input.userId);
  if (!(await verifyPassword(user?.passwordHash ?? null, input.password, 'signIn'))) {
    const failures = await db.transaction(async (tx) => {
      const accountFailures = await throttle.recordAccountFailure(tx, input.userId);
      const addressFailures = await throttle.recordAddressFailure(tx, addressKey);
      await appendAudit(tx, { actor: null, action: 'user.signInFailed', target: { type: 'user', id: input.userId }, clientAddress });
      // 0 failures means this one started a lock (of the account, the address or both): audited once.
      if (accountFailures === 0 || addressFailures === 0) {
        await appendAudit(tx, {
          actor: null,
          action: 'user.signInRefused',
          target: { type: 'user', id: input.userId },
          reason: AUDIT_SYSTEM_REASONS.locked,
          clientAddress,
        });
      }
      return accountFailures;
    });
    if (failures === 0) throw throttle.lockedError();
    await sleep(throttle.delayFor(failures));
    throw new AppError(ERR.badCredentials);
  }
  // From here on the caller has proven the password, so saying why they cannot enter reveals nothing.
  if (!user) throw new AppError(ERR.badCredentials);
  const admitted = await admitSignIn(services, visitor, {
    user,
    refreshIn: input.refreshIn,
    async withSession(tx) {
      const refusedWhileLocked = await throttle.clear(tx, accountKey);
      // The first sign-in after a lock tells how many attempts the lock refused.
      return refusedWhileLocked > 0 ? { refusedWhileLocked } : undefined;
    },
  });
  return admitted.answer;
}
