import { z } from 'zod';
import { ERR } from '../errors.js';
import { ADMIN_LEVEL, LIMITS, PAGING, TOKEN_LIMITS } from '../limits.js';
import { requiredText, text } from '../validation.js';
import { defineCall } from './call.js';
import { emptyRequest } from './identity.js';
import { listAnswer } from './paging.js';

/**
 * Personal access tokens (server/src/tokens): a person's own keys for scripts and instruments, sent as
 * `Authorization: Bearer eln_pat_...`. A token acts with its person's permissions as they are at each call,
 * narrowed by its scopes; no call that needs the person's password accepts one. Tokens are managed with a
 * signed-in session only: a token neither makes nor revokes tokens.
 */

/** `read`: queries; `write`: commands too (notes, files, ...). Signing is never a scope. */
export const TOKEN_SCOPES = ['read', 'write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

const isoInstant = z.iso.datetime({ offset: true });

export const tokenCreateRequest = z.strictObject({
  name: requiredText(TOKEN_LIMITS.name),
  /** When the token stops working: required, in the future, at most TOKEN_LIMITS.maxLifetimeDays away (5102, 5103). */
  expiresAt: isoInstant,
  scopes: z
    .array(z.enum(TOKEN_SCOPES))
    .min(1, { error: 'required' })
    .max(TOKEN_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, { error: 'duplicate' }),
});
export type TokenCreateInput = z.input<typeof tokenCreateRequest>;

export const tokenRevokeRequest = z.strictObject({ tokenId: z.uuid({ error: 'invalidFormat' }) });

/** One token as its owner (or an administrator) sees it: never the secret, only its first characters. */
export const tokenRecord = z.strictObject({
  tokenId: z.string(),
  name: z.string(),
  /** The token's first characters (`eln_pat_` and a few more), to tell it among others. */
  prefix: z.string(),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  /** `active`, `expired`, `revoked`, or `forbidden` (an administrator turned tokens off for its person's level). */
  state: z.enum(['active', 'expired', 'revoked', 'forbidden']),
  lastUsedAt: z.string().nullable(),
  lastUsedFrom: z.string().nullable(),
});
export type TokenRecord = z.infer<typeof tokenRecord>;

export const tokenListAnswer = listAnswer(tokenRecord).extend({
  /** Whether the caller may create a token now (their level is allowed, and they hold fewer than the limit). */
  abilities: z.strictObject({ create: z.boolean() }),
  /** Why not, when `create` is false: 5104 (level forbidden) or 5113 (too many). */
  createRefusal: z.enum([ERR.tokenLevelForbidden, ERR.tokenLimit]).nullable(),
});
export type TokenListAnswer = z.infer<typeof tokenListAnswer>;

/** The new token: `token` is the only time its secret is ever shown. */
export const tokenCreateAnswer = z.strictObject({ token: z.string(), record: tokenRecord });
export type TokenCreateAnswer = z.infer<typeof tokenCreateAnswer>;

/** Every token of every person, for administrators. */
export const adminTokenListRequest = z.strictObject({
  /** Part of the owner's ID or name, or of the token's name. */
  value: text().trim().max(LIMITS.email).optional(),
  /** Only tokens that still work (not revoked, not expired). */
  activeOnly: z.boolean().default(false),
  page: z.number().int().min(1).max(LIMITS.maxRecordNo).default(1),
  pageSize: z.number().int().min(1).max(PAGING.maxPageSize).default(PAGING.defaultPageSize),
});

export const adminTokenRecord = tokenRecord.extend({
  userId: z.string(),
  userName: z.string(),
  userLevel: z.number(),
});
export type AdminTokenRecord = z.infer<typeof adminTokenRecord>;

const level = z.number().int().min(1).max(ADMIN_LEVEL);

/** The user levels whose people may not use personal access tokens. */
export const tokenSettings = z.strictObject({ forbiddenLevels: z.array(level) });
export type TokenSettings = z.infer<typeof tokenSettings>;

export const tokenSettingsUpdate = z.strictObject({
  forbiddenLevels: z
    .array(level)
    .max(ADMIN_LEVEL)
    .refine((levels) => new Set(levels).size === levels.length, { error: 'duplicate' }),
});

export const tokenCalls = {
  list: defineCall({
    path: '/v1/token/list',
    auth: 'user',
    kind: 'query',
    sessionOnly: true,
    summary: "The caller's own personal access tokens, newest first, with their last use; whether the caller may create one.",
    request: emptyRequest,
    answer: tokenListAnswer,
    errors: [ERR.tokenLookup],
    failure: ERR.tokenLookup,
  }),
  create: defineCall({
    path: '/v1/token/create',
    auth: 'user',
    kind: 'command',
    sessionOnly: true,
    summary: 'Creates a personal access token with a name, an expiry (at most a year) and scopes; answers its secret this once.',
    request: tokenCreateRequest,
    answer: tokenCreateAnswer,
    errors: [ERR.tokenExpiryTooFar, ERR.tokenExpiryPast, ERR.tokenLevelForbidden, ERR.tokenLimit, ERR.tokenSave],
    failure: ERR.tokenSave,
  }),
  revoke: defineCall({
    path: '/v1/token/revoke',
    auth: 'user',
    kind: 'command',
    sessionOnly: true,
    summary: "Revokes a personal access token at once: the caller's own, or any for an administrator.",
    request: tokenRevokeRequest,
    answer: tokenRecord,
    errors: [ERR.tokenMissing, ERR.tokenAlreadyRevoked, ERR.tokenSave],
    failure: ERR.tokenSave,
  }),
  adminList: defineCall({
    path: '/v1/admin/token/list',
    auth: 'admin',
    kind: 'query',
    sessionOnly: true,
    summary: 'Every personal access token: whose, its name, scopes, expiry and last use (administrators).',
    request: adminTokenListRequest,
    answer: listAnswer(adminTokenRecord),
    errors: [ERR.tokenLookup],
    failure: ERR.tokenLookup,
  }),
  settings: defineCall({
    path: '/v1/admin/token/settings',
    auth: 'admin',
    kind: 'query',
    sessionOnly: true,
    summary: 'The user levels whose people may not use personal access tokens.',
    request: emptyRequest,
    answer: tokenSettings,
    errors: [ERR.tokenLookup],
    failure: ERR.tokenLookup,
  }),
  updateSettings: defineCall({
    path: '/v1/admin/token/settings/update',
    auth: 'admin',
    kind: 'command',
    sessionOnly: true,
    summary:
      'Sets the user levels whose people may not use personal access tokens: they cannot create one, and their tokens stop working at once.',
    request: tokenSettingsUpdate,
    answer: tokenSettings,
    errors: [ERR.tokenSave],
    failure: ERR.tokenSave,
  }),
} as const;
