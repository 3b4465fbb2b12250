import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { passwordResets, users } from '../db/schema.js';

export type UserRow = typeof users.$inferSelect;

export async function findUserById(q: Queryable, userId: string): Promise<UserRow | undefined> {
  const [user] = await q.select().from(users).where(eq(users.userId, userId.toLowerCase()));
  return user;
}

export async function findUserByNo(q: Queryable, userNo: number): Promise<UserRow | undefined> {
  const [user] = await q.select().from(users).where(eq(users.userNo, userNo));
  return user;
}

/** The active account with this name and phone (find ID), if any. */
export async function findActiveUserByNameAndPhone(q: Queryable, name: string, phone: string): Promise<{ userId: string } | undefined> {
  const [user] = await q
    .select({ userId: users.userId })
    .from(users)
    .where(and(eq(users.name, name), eq(users.phone, phone), eq(users.active, true)));
  return user;
}

/** The reset link with this token hash while it is unused and unexpired. */
export const liveReset = (tokenHash: string) =>
  and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date()));

/** The unused, unexpired reset with this token hash, if any. */
export async function findLiveReset(q: Queryable, tokenHash: string): Promise<typeof passwordResets.$inferSelect | undefined> {
  const [reset] = await q.select().from(passwordResets).where(liveReset(tokenHash));
  return reset;
}
