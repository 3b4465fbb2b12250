import { TIMING, type api, type CallRequest } from '@eln/shared';
import { appendAudit } from '../../audit/audit.js';
import { passwordResets } from '../../db/schema.js';
import type { Services } from '../../services.js';
import type { Visitor } from '../authUser.js';
import { findUserById } from '../queries.js';
import { newOpaqueToken, sha256Hex } from '../secrets.js';
import { throttleKeys } from '../throttle.js';

/**
 * Find password: mails a one-time reset link to the account with this ID, if it is active. Every request
 * counts against the address, found or not, so that it cannot be used to flood mailboxes.
 */
export async function requestPasswordReset(
  services: Services,
  { request, clientAddress }: Pick<Visitor, 'request' | 'clientAddress'>,
  input: CallRequest<typeof api.auth.findPassword>,
): Promise<null> {
  const { db, throttle } = services;
  const key = throttleKeys.recovery(clientAddress);
  await throttle.assertNotLocked(db, [key]);
  await throttle.recordAddressFailure(db, key);
  // The answer goes before the account is even looked up: known and unknown IDs take the same path,
  // so neither the answer nor its timing says whether the account exists. The link is made and
  // mailed afterwards.
  void issuePasswordReset(services, input.userId, clientAddress).catch((error: unknown) =>
    request.log.error({ err: error }, 'password reset request failed'),
  );
  return null;
}

/** Makes a reset link for an active account with this ID and mails it; nothing for any other ID. */
async function issuePasswordReset(services: Services, userId: string, clientAddress: string): Promise<void> {
  const { db } = services;
  const user = await findUserById(db, userId);
  if (!user?.active) return;
  const token = newOpaqueToken();
  await db.transaction(async (tx) => {
    await tx.insert(passwordResets).values({
      tokenHash: sha256Hex(token),
      userNo: user.userNo,
      expiresAt: new Date(Date.now() + TIMING.passwordResetSeconds * 1000),
    });
    await appendAudit(tx, { actor: null, action: 'user.passwordResetRequested', target: { type: 'user', id: user.userId }, clientAddress });
  });
  const link = `${services.config.publicUrl}/signin?reset=${token}`;
  await services.mailer.send({
    to: user.userId,
    subject: 'ELN password reset',
    text: `Someone asked to reset the password of ${user.userId}.\nOpen this link within ${TIMING.passwordResetSeconds / 60} minutes to choose a new one:\n${link}\nIf it was not you, ignore this mail.`,
  });
}
