import { z } from 'zod';
import { ERR } from '../errors.js';
import { LIMITS } from '../limits.js';
import { emailField, passwordInput, recordNo, requiredText, text } from '../validation.js';
import { defineCall, noAnswer } from './call.js';
import { timestampInfo } from './timestamps.js';

/** What a signature means: the reviewer's review or a participant's authorship. */
export const SIGNATURE_TYPES = ['reviewer', 'participant'] as const;
export type SignatureType = (typeof SIGNATURE_TYPES)[number];

/**
 * R pending, T signed, F declined; C cancelled at close: still pending when its project was closed, so
 * it can no longer be given (its time is the close's).
 */
export const SIGNATURE_STATUS = { pending: 'R', signed: 'T', declined: 'F', cancelled: 'C' } as const;
export type SignatureStatus = (typeof SIGNATURE_STATUS)[keyof typeof SIGNATURE_STATUS];

const signers = z
  .array(z.strictObject({ userId: emailField, type: z.enum(SIGNATURE_TYPES) }))
  .min(1)
  .max(100);

export const signatureCreateRequest = z.strictObject({ labNoteNo: recordNo, signers });
export const signatureUpdateRequest = z.strictObject({ labNoteNo: recordNo, signers });

export const signatureStatusRequest = z.strictObject({
  labNoteNo: recordNo,
  status: z.enum(['T', 'F']),
  password: passwordInput,
  name: requiredText(LIMITS.signatureName),
  description: text().trim().max(500).optional().default(''),
  /** The signer's IANA time zone, shown with the signing time. */
  timeZone: text().max(64).optional(),
  /** The version the signer saw; refused if the note has moved on. */
  version: z.number().int().min(1).max(LIMITS.maxRecordNo).optional(),
});

export const signatureRemoveRequest = z.strictObject({
  labNoteNo: recordNo,
  signatureId: recordNo,
  reason: requiredText(500),
});

export const signatureEntry = z.strictObject({
  signatureId: z.number(),
  userId: z.string(),
  name: z.string(),
  type: z.enum(SIGNATURE_TYPES),
  status: z.enum(SIGNATURE_STATUS),
  /** The printed name the signer typed. */
  signatureName: z.string().nullable(),
  description: z.string().nullable(),
  /** ISO time of signing (or declining, or of the close that cancelled it), with the signer's zone for display. */
  signedAt: z.string().nullable(),
  timeZone: z.string().nullable(),
  signedVersion: z.number().nullable(),
  /** False when the signed version's stored content no longer matches the hash taken at signing. */
  intact: z.boolean().nullable(),
  /** The RFC 3161 time-stamp of the signature (null: none was asked, no authority being set up). */
  timestamp: timestampInfo.nullable(),
});
export type SignatureEntry = z.infer<typeof signatureEntry>;

/** The warning of the spec: all signers have signed but no reviewer has. */
export function needsReviewerWarning(list: readonly Pick<SignatureEntry, 'type' | 'status'>[]): boolean {
  return list.length > 0 && list.every((s) => s.status === 'T') && !list.some((s) => s.type === 'reviewer');
}

/** What every signature call may refuse first: the note is missing (or hidden), or deleted. */
const NOTE_READ_ERRORS = [ERR.noteMissing, ERR.noteDeleted] as const;
/** Requests and their changes: not the writer's or leader's (1003), project or note closed (2026), signed (2019), a signer not taking part (2019), a writer as reviewer (2025). */
const REQUEST_ERRORS = [...NOTE_READ_ERRORS, ERR.forbidden, ERR.projectClosed, ERR.signerModify, ERR.reviewerWrote] as const;

/** The signature calls (server/src/signatures). */
export const signatureCalls = {
  request: defineCall({
    path: '/v1/project/signature/create',
    auth: 'user',
    kind: 'command',
    summary: "Asks members of the note's project to sign it, each as reviewer or participant (the note's writer or the project leader).",
    request: signatureCreateRequest,
    answer: noAnswer,
    errors: [...REQUEST_ERRORS],
  }),
  updateSigners: defineCall({
    path: '/v1/project/signature/update',
    auth: 'user',
    kind: 'command',
    summary: 'Replaces the pending signers of a note (withdrawn, added, meaning changed); answered signatures stay.',
    request: signatureUpdateRequest,
    answer: noAnswer,
    errors: [...REQUEST_ERRORS],
  }),
  respond: defineCall({
    path: '/v1/project/signature/status',
    sessionOnly: true,
    auth: 'user',
    kind: 'command',
    summary:
      "Signs (T) the note's current saved version, binding its fingerprint, or declines (F) the caller's pending request; asks the password.",
    request: signatureStatusRequest,
    answer: noAnswer,
    errors: [
      ...NOTE_READ_ERRORS,
      ERR.projectClosed,
      ERR.noPendingSignature,
      ERR.badCredentials,
      ERR.tooManyAttempts,
      ERR.unsavedChanges,
      ERR.conflict,
      ERR.versionTampered,
      ERR.reviewerWrote,
      ERR.signatureFailed,
    ],
    failure: ERR.signatureFailed,
  }),
  remove: defineCall({
    path: '/v1/project/signature/remove',
    sessionOnly: true,
    auth: 'user',
    kind: 'command',
    summary: 'Removes a signature, answered or pending, with a reason the audit trail keeps (the project leader only).',
    request: signatureRemoveRequest,
    answer: noAnswer,
    errors: [...NOTE_READ_ERRORS, ERR.forbidden, ERR.projectClosed, ERR.signerModify],
  }),
} as const;
