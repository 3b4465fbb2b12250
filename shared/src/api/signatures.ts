import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { emailField, passwordInput, recordNo, requiredText, text } from '../validation.js';

/** What a signature means: the reviewer's review or a participant's authorship. */
export const SIGNATURE_TYPES = ['reviewer', 'participant'] as const;
export type SignatureType = (typeof SIGNATURE_TYPES)[number];

/** R pending, T signed, F declined. */
export const SIGNATURE_STATUS = { pending: 'R', signed: 'T', declined: 'F' } as const;
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
  /** ISO time of signing (or declining), with the signer's zone for display. */
  signedAt: z.string().nullable(),
  timeZone: z.string().nullable(),
  signedVersion: z.number().nullable(),
  /** False when the signed version's stored content no longer matches the hash taken at signing. */
  intact: z.boolean().nullable(),
});
export type SignatureEntry = z.infer<typeof signatureEntry>;

export interface SignatureSummary {
  list: SignatureEntry[];
  /** Every signer has answered, and none of them as reviewer. */
  noReviewerWarning: boolean;
  /** The caller's own signature state, if asked: T, F or R. */
  mine: SignatureStatus | null;
}

/** The warning of the spec: all signers have signed but no reviewer has. */
export function needsReviewerWarning(list: readonly Pick<SignatureEntry, 'type' | 'status'>[]): boolean {
  return list.length > 0 && list.every((s) => s.status === 'T') && !list.some((s) => s.type === 'reviewer');
}
