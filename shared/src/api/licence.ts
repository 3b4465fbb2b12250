import { z } from 'zod';
import { ERR } from '../errors.js';
import { text } from '../validation.js';
import { defineCall } from './call.js';
import { emptyRequest } from './identity.js';

/** The product name a licence key must name to be valid for this notebook. */
export const LICENCE_PRODUCT = 'eln';

/** Longest licence key accepted (a key is about 500 characters). */
export const LICENCE_KEY_MAX_LENGTH = 4096;

const isoInstant = z.iso.datetime({ offset: true });

/**
 * What a licence key says, signed by the vendor: `<base64url(JSON payload)>.<base64url(Ed25519 signature)>`.
 * The signature covers the payload's bytes exactly as sent.
 */
export const licencePayload = z.strictObject({
  serial: z.string().min(1).max(64),
  company: z.string().min(1).max(100),
  seats: z.number().int().min(1).max(1_000_000),
  issued: isoInstant,
  /** First moment the licence is valid; the issue time when absent. */
  starts: isoInstant.optional(),
  expires: isoInstant,
  product: z.string().min(1).max(40),
  /** Highest product version (major.minor) the licence covers. */
  maxVersion: z.string().regex(/^\d{1,4}\.\d{1,4}$/),
  /** Which vendor key signed it. */
  keyId: z.string().min(1).max(40),
});
export type LicencePayload = z.infer<typeof licencePayload>;

/**
 * A registered licence's standing, checked at every sign-in and shown in the info dialog. Anything but
 * `valid` refuses members with 1007; administrators still sign in to register a new licence.
 */
export const LICENCE_STATUSES = ['valid', 'expired', 'notYetValid', 'seatsExceeded', 'notGenuine', 'otherProduct', 'clockSetBack'] as const;
export type LicenceStatus = (typeof LICENCE_STATUSES)[number];

/** The registered licence (one at most). Dates are ISO 8601 strings. */
export const licenceInfo = z.strictObject({
  status: z.enum(LICENCE_STATUSES),
  companyName: z.string(),
  serialNumber: z.string(),
  /** The licence count: how many active users the licence allows. */
  seats: z.number(),
  issuedAt: z.string(),
  startsAt: z.string(),
  expiresAt: z.string(),
  maxVersion: z.string(),
  keyId: z.string(),
  /** When this licence was registered (a registration replaces the previous licence). */
  updatedAt: z.string(),
});
export type LicenceInfo = z.infer<typeof licenceInfo>;

/** `/v1/licence/info {}` answers the licence, or `licence: null` when none is registered. */
export const licenceInfoAnswer = z.strictObject({
  licence: licenceInfo.nullable(),
  /** Active user accounts, compared with `seats` at sign-in. */
  activeUsers: z.number(),
});
export type LicenceInfoAnswer = z.infer<typeof licenceInfoAnswer>;

/** `/v1/licence/register {licenceKey}`: replaces the registered licence; answers like info. */
export const licenceRegisterRequest = z.strictObject({
  licenceKey: text().trim().min(1, { error: 'required' }).max(LICENCE_KEY_MAX_LENGTH),
});
export type LicenceRegisterRequest = z.input<typeof licenceRegisterRequest>;

/** The licence (server/src/licence): administrators read it and register a new one. */
export const licenceCalls = {
  info: defineCall({
    path: '/v1/licence/info',
    auth: 'admin',
    kind: 'query',
    summary: 'The registered licence and its standing, with the count of active users.',
    request: emptyRequest,
    answer: licenceInfoAnswer,
    errors: [ERR.forbidden, ERR.licenceLookup],
    failure: ERR.licenceLookup,
  }),
  register: defineCall({
    path: '/v1/licence/register',
    auth: 'admin',
    kind: 'command',
    summary: 'Registers a licence key in place of the registered one, once it is genuine and its terms hold today.',
    request: licenceRegisterRequest,
    answer: licenceInfoAnswer,
    errors: [ERR.forbidden, ERR.licenceNotGenuine, ERR.licenceOtherProduct, ERR.licenceNotYetValid, ERR.licenceExpired],
  }),
} as const;
