import { ERR, TOKEN_LIMITS, type CallKind } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Refusals } from '../http/verdicts.js';
import { isAdministrator } from '../users/policy.js';

/*
 * Who may do what with personal access tokens: every rule once, as a verdict with its reason. What a token
 * may call is decided when it is used (authenticate.ts), from the call's kind and `sessionOnly`.
 */

/** `write` includes reading: a query needs `read` or `write`, a command `write`. */
export function scopesAllow(scopes: readonly string[], kind: CallKind): boolean {
  return kind === 'command' ? scopes.includes('write') : scopes.includes('read') || scopes.includes('write');
}

export type CreateVerdict = 'allowed' | 'levelForbidden' | 'tooMany';
export const CREATE_REFUSALS = {
  levelForbidden: ERR.tokenLevelForbidden,
  tooMany: ERR.tokenLimit,
} as const satisfies Refusals<CreateVerdict>;

/** A person creates a token unless an administrator forbade their level, or they already hold the most allowed. */
export function canCreateToken(state: { levelForbidden: boolean; activeTokens: number }): CreateVerdict {
  if (state.levelForbidden) return 'levelForbidden';
  if (state.activeTokens >= TOKEN_LIMITS.perUser) return 'tooMany';
  return 'allowed';
}

export type RevokeVerdict = 'allowed' | 'notFound' | 'alreadyRevoked';
export const REVOKE_REFUSALS: Refusals<RevokeVerdict> = { notFound: ERR.tokenMissing, alreadyRevoked: ERR.tokenAlreadyRevoked };

/**
 * Its owner revokes a token, and an administrator any token. Someone else's token is answered as missing
 * (5111), so that token ids tell nothing of whose they are.
 */
export function canRevokeToken(
  user: Pick<AuthUser, 'userNo' | 'level'>,
  token: { userNo: number; revokedAt: Date | null } | undefined,
): RevokeVerdict {
  if (!token || (token.userNo !== user.userNo && !isAdministrator(user))) return 'notFound';
  if (token.revokedAt) return 'alreadyRevoked';
  return 'allowed';
}
