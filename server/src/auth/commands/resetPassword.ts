import { eq } from 'drizzle-orm';
import { ERR, type api, type CallRequest } from '@eln/shared';
import { appendAudit } from '../../audit/audit.js';
import { passwordResets, users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import type { Visitor } from '../authUser.js';
import { hashPassword } from '../passwords.js';
import { findLiveReset, liveReset } from '../queries.js';
import { sha256Hex } from '../secrets.js';
import { revokeAllSessions } from '../sessions.js';
import { throttleKeys } from '../throttle.js';

/** Sets a new password with a reset link's token (used once); every session of the account ends, its open live connections at once. */
export async function resetPassword(
  services: Services,
  { clientAddress }: Pick<Visitor, 'clientAddress'>,
  input: CallRequest<typeof api.auth.resetPassword>,
): Promise<null> {
  const { db, throttle } = services;
  const key = throttleKeys.recovery(clientAddress);
  await throttle.assertNotLocked(db, [key]);
  // The token is checked before the (deliberately slow) password hash, so made-up tokens cost a
  // lookup, not an argon2 run, and count against the address like any failed recovery.
  const tokenHash = sha256Hex(input.token);
  if (!(await findLiveReset(db, tokenHash))) {
    await throttle.recordAddressFailure(db, key);
    throw new AppError(ERR.resetInvalid);
  }
  const passwordHash = await hashPassword(input.password, 'reset');
  const resetUserNo = await services.live.transaction(db, async (tx, commands) => {
    // Spent here and not before: of two uses of one link racing, only one finds it unused.
    const [reset] = await tx.update(passwordResets).set({ usedAt: new Date() }).where(liveReset(tokenHash)).returning();
    if (!reset) return null;
    const [user] = await tx
      .update(users)
      .set({ passwordHash, passwordChangedAt: new Date(), updatedAt: new Date() })
      .where(eq(users.userNo, reset.userNo))
      .returning();
    if (!user) return null;
    await revokeAllSessions(tx, user.userNo, 'password reset');
    await throttle.clear(tx, throttleKeys.account(user.userId));
    await appendAudit(tx, {
      actor: { userNo: user.userNo, userId: user.userId },
      action: 'user.passwordReset',
      target: { type: 'user', id: user.userId },
      clientAddress,
    });
    // Every session ended: so do the user's open live connections, at once.
    commands.recheckUsers([user.userNo]);
    return user.userNo;
  });
  if (resetUserNo === null) throw new AppError(ERR.resetInvalid);
  return null;
}
