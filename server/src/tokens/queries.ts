import { and, asc, count, desc, eq, gt, ilike, isNull, or } from 'drizzle-orm';
import type { AdminTokenRecord, api, CallRequest, TokenListAnswer, TokenSettings } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { accessTokenForbiddenLevels, accessTokens, users } from '../db/schema.js';
import { canCreateToken, CREATE_REFUSALS } from './policy.js';
import { toTokenRecord } from './presenters.js';

/** The levels an administrator forbade tokens for, in order. */
export async function forbiddenLevels(q: Queryable): Promise<number[]> {
  const rows = await q
    .select({ level: accessTokenForbiddenLevels.level })
    .from(accessTokenForbiddenLevels)
    .orderBy(asc(accessTokenForbiddenLevels.level));
  return rows.map((row) => row.level);
}

export async function tokenSettingsOf(q: Queryable): Promise<TokenSettings> {
  return { forbiddenLevels: await forbiddenLevels(q) };
}

/** Tokens that still work or would (not revoked, not expired): what the per-person limit counts. */
const live = () => and(isNull(accessTokens.revokedAt), gt(accessTokens.expiresAt, new Date()));

/** Whether a person may create a token now, with what the policy needs to say so. */
export async function createVerdictOf(q: Queryable, user: Pick<AuthUser, 'userNo' | 'level'>) {
  const [levels, [held]] = await Promise.all([
    forbiddenLevels(q),
    q
      .select({ n: count() })
      .from(accessTokens)
      .where(and(eq(accessTokens.userNo, user.userNo), live())),
  ]);
  return canCreateToken({ levelForbidden: levels.includes(user.level), activeTokens: Number(held?.n ?? 0) });
}

/** The caller's own tokens, newest first (revoked and expired ones too: they say when they ended). */
export async function ownTokens(q: Queryable, user: AuthUser): Promise<TokenListAnswer> {
  const [rows, levels, verdict] = await Promise.all([
    q.select().from(accessTokens).where(eq(accessTokens.userNo, user.userNo)).orderBy(desc(accessTokens.createdAt)),
    forbiddenLevels(q),
    createVerdictOf(q, user),
  ]);
  const levelForbidden = levels.includes(user.level);
  return {
    list: rows.map((row) => toTokenRecord(row, levelForbidden)),
    totalCount: rows.length,
    abilities: { create: verdict === 'allowed' },
    createRefusal: verdict === 'allowed' ? null : CREATE_REFUSALS[verdict],
  };
}

/** Every person's tokens for administrators, newest first, found by owner or token name. */
export async function allTokens(
  q: Queryable,
  request: CallRequest<typeof api.tokens.adminList>,
): Promise<{ list: AdminTokenRecord[]; totalCount: number }> {
  const pattern = request.value ? `%${escapeLike(request.value)}%` : null;
  const where = and(
    pattern ? or(ilike(users.userId, pattern), ilike(users.name, pattern), ilike(accessTokens.name, pattern)) : undefined,
    request.activeOnly ? live() : undefined,
  );
  const [rows, [total], levels] = await Promise.all([
    q
      .select({ token: accessTokens, user: { userId: users.userId, name: users.name, level: users.level } })
      .from(accessTokens)
      .innerJoin(users, eq(users.userNo, accessTokens.userNo))
      .where(where)
      .orderBy(desc(accessTokens.createdAt), desc(accessTokens.tokenId))
      .limit(request.pageSize)
      .offset((request.page - 1) * request.pageSize),
    q.select({ n: count() }).from(accessTokens).innerJoin(users, eq(users.userNo, accessTokens.userNo)).where(where),
    forbiddenLevels(q),
  ]);
  return {
    list: rows.map(({ token, user }) => ({
      ...toTokenRecord(token, levels.includes(user.level)),
      userId: user.userId,
      userName: user.name,
      userLevel: user.level,
    })),
    totalCount: Number(total?.n ?? 0),
  };
}
