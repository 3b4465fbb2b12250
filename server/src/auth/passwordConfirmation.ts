import { eq } from 'drizzle-orm';
import { ERR } from '@eln/shared';
import type { Tx } from '../db/client.js';
import { users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import type { Services } from '../services.js';
import type { AuthUser } from './authUser.js';
import { verifyPassword } from './passwords.js';

/**
 * The password asked again before an act that carries the person's name (a signature, a template
 * approval). Guessing it is limited like sign-in, per account and per kind of act (`throttleKey`); each
 * wrong password is recorded by `recordFailure`, in the transaction that counts it.
 */
export async function confirmPassword(
  services: Services,
  user: AuthUser,
  password: string,
  throttleKey: string,
  recordFailure: (tx: Tx) => Promise<void>,
): Promise<void> {
  const { db, throttle } = services;
  await throttle.assertNotLocked(db, [throttleKey]);
  const [account] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.userNo, user.userNo));
  if (await verifyPassword(account?.passwordHash ?? null, password, 'signIn')) {
    await throttle.clear(db, throttleKey);
    return;
  }
  const failures = await db.transaction(async (tx) => {
    const count = await throttle.recordFailure(tx, throttleKey, services.config.throttle.accountLockAfter);
    await recordFailure(tx);
    return count;
  });
  if (failures === 0) throw throttle.lockedError();
  throw new AppError(ERR.badCredentials);
}
