import type { TokenRecord, TokenScope } from '@eln/shared';
import type { accessTokens } from '../db/schema.js';

type TokenRow = typeof accessTokens.$inferSelect;

/** A token as the API answers it: never its hash, only the first characters of its secret. */
export function toTokenRecord(row: TokenRow, levelForbidden: boolean, now = Date.now()): TokenRecord {
  const state = row.revokedAt ? 'revoked' : row.expiresAt.getTime() <= now ? 'expired' : levelForbidden ? 'forbidden' : 'active';
  return {
    tokenId: row.tokenId,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes as TokenScope[],
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    state,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedFrom: row.lastUsedFrom,
  };
}
