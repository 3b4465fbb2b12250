import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { ERR, TOKEN_PREFIX, type CallSpec } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { sha256Hex } from '../auth/secrets.js';
import { accessTokenForbiddenLevels, accessTokens, users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import type { Services } from '../services.js';
import { toAuthFlags } from '../users/flags.js';
import { scopesAllow } from './policy.js';

/** A token's secret: the prefix and 32 random bytes in base64url (43 characters). */
const TOKEN_PATTERN = new RegExp(`^${TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);

/** Whether a bearer token is meant as a personal access token (its prefix), well-formed or not. */
export const isPersonalAccessToken = (token: string): boolean => token.startsWith(TOKEN_PREFIX);

export const tokenHashOf = (token: string): string => sha256Hex(token);

/** The minute whose calls a token's row counts; a new one starts with the first call after it ends. */
const WINDOW = sql`interval '1 minute'`;

/**
 * The caller behind a personal access token, for one call: the token must be well-formed (5105), known and
 * not revoked with its person active (5106), not expired (5107), allowed for its person's level (5104),
 * accepted by the call (5109: calls that need the password) and scoped for it (5108: `read` on a
 * command); and under its calls per minute (5110). Each refusal changes nothing; an admitted call records
 * the token's last use (time, address) and counts it in the minute, in one statement that also re-checks
 * that the token is not revoked meanwhile. The caller's permissions are then those of its person, as the
 * database says at this call: a token carries no permissions of its own.
 */
export async function authenticateAccessToken(
  { db, config }: Services,
  token: string,
  call: Pick<CallSpec, 'kind' | 'sessionOnly'>,
  clientAddress: string,
): Promise<AuthUser> {
  if (!TOKEN_PATTERN.test(token)) throw new AppError(ERR.tokenMalformed);
  const [row] = await db
    .select({ token: accessTokens, user: users, forbidden: accessTokenForbiddenLevels.level })
    .from(accessTokens)
    .innerJoin(users, eq(users.userNo, accessTokens.userNo))
    .leftJoin(accessTokenForbiddenLevels, eq(accessTokenForbiddenLevels.level, users.level))
    .where(eq(accessTokens.tokenHash, tokenHashOf(token)));
  if (!row || row.token.revokedAt || !row.user.active) throw new AppError(ERR.tokenInvalid);
  if (row.token.expiresAt.getTime() <= Date.now()) throw new AppError(ERR.tokenExpired);
  if (row.forbidden !== null) throw new AppError(ERR.tokenLevelForbidden);
  if (call.sessionOnly) throw new AppError(ERR.tokenNotAccepted);
  if (!scopesAllow(row.token.scopes, call.kind)) throw new AppError(ERR.tokenReadOnly);

  const windowOver = or(isNull(accessTokens.windowStartedAt), lte(accessTokens.windowStartedAt, sql`now() - ${WINDOW}`));
  const admitted = await db
    .update(accessTokens)
    .set({
      windowStartedAt: sql`case when ${windowOver} then now() else ${accessTokens.windowStartedAt} end`,
      windowCalls: sql`case when ${windowOver} then 1 else ${accessTokens.windowCalls} + 1 end`,
      lastUsedAt: sql`now()`,
      lastUsedFrom: clientAddress,
    })
    .where(
      and(
        eq(accessTokens.tokenId, row.token.tokenId),
        isNull(accessTokens.revokedAt),
        or(windowOver, lt(accessTokens.windowCalls, config.tokenCallsPerMinute)),
      ),
    )
    .returning({ tokenId: accessTokens.tokenId });
  if (admitted.length === 0) throw await refusal(db, row.token.tokenId);

  const { user } = row;
  return {
    userNo: user.userNo,
    userId: user.userId,
    name: user.name,
    level: user.level,
    sessionId: `token:${row.token.tokenId}`,
    auth: toAuthFlags(user),
    tokenId: row.token.tokenId,
  };
}

/** Why the counting update admitted nothing: revoked meanwhile, or the minute's calls are spent (and for how long). */
async function refusal(db: Services['db'], tokenId: string): Promise<AppError> {
  const [state] = await db
    .select({
      revokedAt: accessTokens.revokedAt,
      seconds: sql<string>`greatest(1, ceil(extract(epoch from (${accessTokens.windowStartedAt} + ${WINDOW} - now()))))`,
    })
    .from(accessTokens)
    .where(eq(accessTokens.tokenId, tokenId));
  if (!state || state.revokedAt) return new AppError(ERR.tokenInvalid);
  const seconds = Number(state.seconds);
  return new AppError(ERR.tokenRateLimited, { params: { seconds }, data: { retryAfter: seconds } });
}
