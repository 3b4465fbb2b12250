import { z } from 'zod';
import { ERR } from '../errors.js';
import { TIMESTAMP_LIMITS } from '../limits.js';
import { optionalText, recordNo, requiredText, text } from '../validation.js';
import { defineCall, noAnswer } from './call.js';
import { emptyRequest } from './identity.js';

/*
 * Trusted time (RFC 3161): what each signature and export answers of its time-stamp, the re-verification
 * anyone who may read the record can ask for, and the authorities administrators set up.
 */

/** The records a time-stamp is asked for. */
export const TIMESTAMP_SUBJECTS = ['signature', 'signatureRemoval', 'version', 'export', 'auditAnchor'] as const;
export type TimestampSubject = (typeof TIMESTAMP_SUBJECTS)[number];
export const TIMESTAMP_HASH_NAMES = ['SHA-256', 'SHA-512'] as const;

/** A record's time-stamp: pending until an authority answers, failed when every retry failed. */
export const timestampInfo = z.strictObject({
  status: z.enum(['stamped', 'pending', 'failed']),
  genTime: z.string().optional(),
  authority: z.string().optional(),
  /** The token (a CMS SignedData over a TSTInfo), base64 DER: `openssl ts -verify -token_in`. */
  token: z.string().optional(),
});
export type TimestampInfo = z.infer<typeof timestampInfo>;

export const timestampVerifyRequest = z.strictObject({ kind: z.enum(TIMESTAMP_SUBJECTS), id: text().min(1).max(64) });
export const timestampVerifyAnswer = z.strictObject({
  status: z.enum(['stamped', 'pending', 'failed']),
  /** Whether the stored token still proves the stored record (null while there is no token). */
  valid: z.boolean().nullable(),
  /** Why it does not (a TokenFault of the server), or the last failure of a pending or failed stamp. */
  fault: z.string().nullable(),
  genTime: z.string().nullable(),
  authority: z.string().nullable(),
  policy: z.string().nullable(),
  serial: z.string().nullable(),
  hash: z.string().nullable(),
  /** The authority's signing certificate. */
  signer: z.string().nullable(),
  /** The exact bytes stamped (canonical JSON), as `openssl ts -verify -data` is given them. */
  subject: z.string(),
  /** The token, base64 DER, and the chain (PEM) it was accepted with: what an offline check needs. */
  token: z.string().nullable(),
  chainPem: z.string().nullable(),
});

const pemChain = text()
  .max(TIMESTAMP_LIMITS.chainChars)
  .refine((pem) => /-----BEGIN CERTIFICATE-----/.test(pem), { error: 'invalidFormat' });
const httpUrl = text()
  .trim()
  .max(TIMESTAMP_LIMITS.url)
  .refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), { error: 'invalidFormat' });
const oid = text()
  .trim()
  .regex(/^\d+(\.\d+)+$/, { error: 'invalidFormat' })
  .max(128);

const authorityFields = {
  name: requiredText(TIMESTAMP_LIMITS.authorityName),
  url: httpUrl,
  username: optionalText(TIMESTAMP_LIMITS.authorityName),
  /** Absent on update: the stored one stays. */
  password: text().max(TIMESTAMP_LIMITS.authorityName).optional(),
  policy: oid.optional().or(z.literal('')),
  hash: z.enum(TIMESTAMP_HASH_NAMES),
  chainPem: pemChain,
  enabled: z.boolean(),
};
export const timestampAuthorityCreateRequest = z.strictObject(authorityFields);
export const timestampAuthorityUpdateRequest = z.strictObject({ authorityNo: recordNo, ...authorityFields });
export const timestampAuthorityNoRequest = z.strictObject({ authorityNo: recordNo });
export const timestampAuthorityMoveRequest = z.strictObject({ authorityNo: recordNo, direction: z.enum(['up', 'down']) });
export const timestampAuthorityProbeRequest = z.strictObject({
  url: httpUrl,
  username: optionalText(TIMESTAMP_LIMITS.authorityName),
  password: text().max(TIMESTAMP_LIMITS.authorityName).optional(),
  policy: oid.optional().or(z.literal('')),
  hash: z.enum(TIMESTAMP_HASH_NAMES),
});

const certificateEntry = z.strictObject({ subject: z.string(), issuer: z.string(), notAfter: z.string(), pem: z.string() });
export const timestampAuthorityEntry = z.strictObject({
  authorityNo: z.number(),
  name: z.string(),
  url: z.string(),
  username: z.string(),
  hasPassword: z.boolean(),
  policy: z.string(),
  hash: z.enum(TIMESTAMP_HASH_NAMES),
  chainPem: z.string(),
  certificates: z.array(certificateEntry),
  chainExpiresAt: z.string(),
  /** Within 30 days of the chain's first expiry (or past it). */
  expiresSoon: z.boolean(),
  position: z.number(),
  enabled: z.boolean(),
});
export type TimestampAuthorityEntry = z.infer<typeof timestampAuthorityEntry>;
export const timestampAuthorityList = z.strictObject({
  list: z.array(timestampAuthorityEntry),
  queue: z.strictObject({ pending: z.number(), failed: z.number(), stamped: z.number() }),
});
export const timestampProbeAnswer = z.strictObject({
  /** The certificates the authority's token carried, signer first: what "trust these" would keep. */
  certificates: z.array(certificateEntry),
  genTime: z.string(),
  policy: z.string(),
});

const ADMIN_ERRORS = [ERR.notFound, ERR.timestampChainInvalid] as const;

/** Trusted time-stamps (server/src/timestamps). */
export const timestampCalls = {
  verify: defineCall({
    path: '/v1/timestamp/verify',
    auth: 'user',
    kind: 'query',
    summary: "Re-verifies a record's stored RFC 3161 token against the record's stored bytes and the authority's chain.",
    request: timestampVerifyRequest,
    answer: timestampVerifyAnswer,
    errors: [ERR.notFound, ERR.forbidden],
  }),
  authorities: defineCall({
    path: '/v1/admin/timestamp/list',
    auth: 'admin',
    kind: 'query',
    summary: 'The time-stamping authorities in the order they are tried, their chains and expiry, and the queue of stamps.',
    request: emptyRequest,
    answer: timestampAuthorityList,
    errors: [],
  }),
  create: defineCall({
    path: '/v1/admin/timestamp/create',
    auth: 'admin',
    kind: 'command',
    summary: 'Adds a time-stamping authority, tried after the others.',
    request: timestampAuthorityCreateRequest,
    answer: z.strictObject({ authorityNo: z.number() }),
    errors: [...ADMIN_ERRORS],
  }),
  update: defineCall({
    path: '/v1/admin/timestamp/update',
    auth: 'admin',
    kind: 'command',
    summary: 'Changes a time-stamping authority (its password stays unless a new one is given).',
    request: timestampAuthorityUpdateRequest,
    answer: noAnswer,
    errors: [...ADMIN_ERRORS],
  }),
  move: defineCall({
    path: '/v1/admin/timestamp/move',
    auth: 'admin',
    kind: 'command',
    summary: 'Moves an authority one place earlier or later in the order they are tried.',
    request: timestampAuthorityMoveRequest,
    answer: noAnswer,
    errors: [ERR.notFound],
  }),
  delete: defineCall({
    path: '/v1/admin/timestamp/delete',
    auth: 'admin',
    kind: 'command',
    summary: 'Removes an authority; the tokens it gave stay verifiable with the chain kept beside them.',
    request: timestampAuthorityNoRequest,
    answer: noAnswer,
    errors: [ERR.notFound],
  }),
  probe: defineCall({
    path: '/v1/admin/timestamp/probe',
    auth: 'admin',
    kind: 'query',
    summary: 'Asks an authority for a token over a test text and answers the certificates it carried, for an administrator to trust.',
    request: timestampAuthorityProbeRequest,
    answer: timestampProbeAnswer,
    errors: [ERR.timestampAuthorityFailed],
  }),
  retry: defineCall({
    path: '/v1/admin/timestamp/retry',
    auth: 'admin',
    kind: 'command',
    summary: 'Puts every failed stamp back in the queue.',
    request: emptyRequest,
    answer: z.strictObject({ requeued: z.number() }),
    errors: [],
  }),
} as const;
