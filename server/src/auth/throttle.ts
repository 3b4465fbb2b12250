import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { ERR } from '@eln/shared';
import type { ThrottlePolicy } from '../config.js';
import { AppError } from '../http/errors.js';
import type { Queryable } from '../db/client.js';
import { signInThrottle } from '../db/schema.js';

/**
 * Guessing protection for sign-in and account recovery. Failures are counted per account (keyed by the
 * ID that was typed, whether or not such an account exists, so answers reveal nothing) and per client
 * address; past a threshold answers slow down, past a higher one the key is locked for a while.
 * Counts live in the database so that every server process sees the same ones.
 */
export const throttleKeys = {
  account: (userId: string) => `account:${userId.toLowerCase()}`,
  address: (clientAddress: string) => `address:${clientAddress}`,
  recovery: (clientAddress: string) => `recovery:${clientAddress}`,
};

export class Throttle {
  constructor(private readonly policy: ThrottlePolicy) {}

  /** Seconds until the longest lock among the keys ends, or 0 when none is locked. */
  async lockedForSeconds(q: Queryable, keys: string[]): Promise<number> {
    const rows = await q.select().from(signInThrottle).where(inArray(signInThrottle.key, keys));
    const until = Math.max(0, ...rows.map((row) => row.lockedUntil?.getTime() ?? 0));
    return until > Date.now() ? Math.ceil((until - Date.now()) / 1000) : 0;
  }

  /** Refuses with 1004 (and the seconds to wait) while any of the keys is locked. */
  async assertNotLocked(q: Queryable, keys: string[]): Promise<void> {
    const lockedFor = await this.lockedForSeconds(q, keys);
    if (lockedFor > 0) throw this.lockedError(lockedFor);
  }

  lockedError(seconds: number = this.lockSeconds): AppError {
    return new AppError(ERR.tooManyAttempts, { params: { seconds }, data: { retryAfter: seconds } });
  }

  /** Counts one failure against the key; answers the failures in the current window (0 once it locks). */
  async recordFailure(q: Queryable, key: string, lockAfter: number): Promise<number> {
    const windowExpired = sql`${signInThrottle.windowStartedAt} < now() - make_interval(secs => ${this.policy.windowMs / 1000})`;
    const [row] = await q
      .insert(signInThrottle)
      .values({ key, failures: 1, windowStartedAt: new Date() })
      .onConflictDoUpdate({
        target: signInThrottle.key,
        set: {
          failures: sql`CASE WHEN ${windowExpired} THEN 1 ELSE ${signInThrottle.failures} + 1 END`,
          windowStartedAt: sql`CASE WHEN ${windowExpired} THEN now() ELSE ${signInThrottle.windowStartedAt} END`,
        },
      })
      .returning();
    const failures = row?.failures ?? 1;
    if (failures < lockAfter) return failures;
    // Locking starts a fresh count, so that the next window after the lock is judged on its own.
    await q
      .update(signInThrottle)
      .set({ lockedUntil: new Date(Date.now() + this.policy.lockMs), failures: 0, windowStartedAt: new Date(), refusedWhileLocked: 0 })
      .where(eq(signInThrottle.key, key));
    return 0;
  }

  /**
   * Counts an attempt refused because some of the keys are locked, on each locked key. Refusals are
   * counted rather than audited one by one, so that a locked-out guesser cannot grow the audit trail.
   */
  async recordRefusal(q: Queryable, keys: string[]): Promise<void> {
    await q
      .update(signInThrottle)
      .set({ refusedWhileLocked: sql`${signInThrottle.refusedWhileLocked} + 1` })
      .where(and(inArray(signInThrottle.key, keys), gt(signInThrottle.lockedUntil, new Date())));
  }

  recordAccountFailure(q: Queryable, userId: string): Promise<number> {
    return this.recordFailure(q, throttleKeys.account(userId), this.policy.accountLockAfter);
  }

  recordAddressFailure(q: Queryable, key: string): Promise<number> {
    return this.recordFailure(q, key, this.policy.addressLockAfter);
  }

  /** Forgets the key's failures; answers how many attempts its last lock refused (0 without one). */
  async clear(q: Queryable, key: string): Promise<number> {
    const [row] = await q.delete(signInThrottle).where(eq(signInThrottle.key, key)).returning();
    return row?.refusedWhileLocked ?? 0;
  }

  /** How long to hold a failed answer back, growing with the failures of the window. */
  delayFor(failures: number): number {
    const over = failures - this.policy.slowAfter;
    return over > 0 ? Math.min(this.policy.maxDelayMs, over * this.policy.delayStepMs) : 0;
  }

  get lockSeconds(): number {
    return Math.ceil(this.policy.lockMs / 1000);
  }
}
