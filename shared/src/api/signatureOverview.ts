import { z } from 'zod';
import { ERR } from '../errors.js';
import { LIMITS, SIGNATURE_OVERVIEW_LIMITS } from '../limits.js';
import { recordNo } from '../validation.js';
import { defineCall } from './call.js';
import { NOTE_STATUS } from './notes.js';
import { SIGNATURE_TYPES } from './signatures.js';

/*
 * The signature overview of a note and of a whole project, and the reminder a requester sends a signer who
 * has not answered (server/src/signatures: overview.ts, commands/remindSigner.ts).
 */

/**
 * Where a signature request stands, as the overview says it: waiting for its signer's answer, signed,
 * declined, cancelled at the project's close, or removed (withdrawn while pending, or a signature the
 * leader removed with a reason).
 */
export const SIGNATURE_REQUEST_STATES = ['waiting', 'signed', 'declined', 'cancelled', 'removed'] as const;
export type SignatureRequestState = (typeof SIGNATURE_REQUEST_STATES)[number];

const personRef = z.strictObject({ userId: z.string(), name: z.string() });

/** One signature request in the overview: who was asked, by whom and when, and what became of it. */
export const signatureRequestOverview = z.strictObject({
  signatureId: z.number(),
  signer: personRef,
  type: z.enum(SIGNATURE_TYPES),
  state: z.enum(SIGNATURE_REQUEST_STATES),
  requestedBy: personRef,
  requestedAt: z.string(),
  /** When it was signed, declined, or cancelled (the close's time); null while waiting and for a withdrawn request. */
  answeredAt: z.string().nullable(),
  /** The signer's IANA time zone as recorded with the answer. */
  timeZone: z.string().nullable(),
  /** The printed name the signer typed. */
  signatureName: z.string().nullable(),
  /** The signer's comment, or why they declined. */
  description: z.string().nullable(),
  signedVersion: z.number().nullable(),
  /** A removal: when, by whom, and why ("request withdrawn" when the signers were changed). */
  removed: z.strictObject({ at: z.string(), by: personRef.nullable(), reason: z.string().nullable() }).nullable(),
  reminders: z.strictObject({ count: z.number().int().min(0), lastAt: z.string().nullable(), lastBy: personRef.nullable() }),
  /**
   * The caller's verdict on reminding the signer (`canRemindSigner`): null when they may not at all (not
   * theirs to remind, no longer waiting, closed); else whether now, and if not, from when.
   */
  reminder: z.strictObject({ allowed: z.boolean(), nextAt: z.string().nullable() }).nullable(),
});
export type SignatureRequestOverview = z.infer<typeof signatureRequestOverview>;

const overviewNote = z.strictObject({
  labNoteNo: z.number(),
  labNoteNumber: z.string(),
  title: z.string(),
  status: z.enum(NOTE_STATUS),
  requests: z.array(signatureRequestOverview),
});
export type SignatureOverviewNote = z.infer<typeof overviewNote>;

export const noteSignatureOverviewRequest = z.strictObject({ labNoteNo: recordNo });

export const projectSignatureOverviewRequest = z.strictObject({
  projectNo: recordNo,
  /** Only notes with a request in this state, and only those requests ("waiting only"). */
  status: z.enum(SIGNATURE_REQUEST_STATES).optional(),
  page: z.coerce.number().int().min(1).max(LIMITS.maxRecordNo).default(1),
  pageSize: z.coerce.number().int().min(1).max(SIGNATURE_OVERVIEW_LIMITS.pageSize).default(SIGNATURE_OVERVIEW_LIMITS.defaultPageSize),
});

/** How many requests of the project's readable notes are in each state (the filter's counts). */
const stateCounts = z.strictObject(
  Object.fromEntries(SIGNATURE_REQUEST_STATES.map((state) => [state, z.number().int().min(0)])) as Record<
    SignatureRequestState,
    z.ZodNumber
  >,
);

export const projectSignatureOverviewAnswer = z.strictObject({
  list: z.array(overviewNote),
  totalCount: z.number().int().min(0),
  counts: stateCounts,
});

export const signatureRemindRequest = z.strictObject({ labNoteNo: recordNo, signatureId: recordNo });
export const signatureRemindAnswer = z.strictObject({ remindedAt: z.string(), nextAt: z.string() });

/** The note calls' first refusals: the note is missing (or hidden), or deleted. */
const NOTE_READ_ERRORS = [ERR.noteMissing, ERR.noteDeleted] as const;

/** The signature overview calls and the reminder. */
export const signatureOverviewCalls = {
  noteOverview: defineCall({
    path: '/v1/project/note/signature/overview',
    auth: 'user',
    kind: 'query',
    summary:
      "A note's signature requests, answered or not: who was asked (by whom, when), who signed (meaning, time, zone), declined, was cancelled or removed, and reminders.",
    request: noteSignatureOverviewRequest,
    answer: overviewNote,
    errors: [...NOTE_READ_ERRORS, ERR.signatureOverviewLookup],
    failure: ERR.signatureOverviewLookup,
  }),
  projectOverview: defineCall({
    path: '/v1/project/signature/overview',
    auth: 'user',
    kind: 'query',
    summary:
      "The signature requests of a project's notes the caller may read, note by note (paged, newest note first), optionally in one state only.",
    request: projectSignatureOverviewRequest,
    answer: projectSignatureOverviewAnswer,
    errors: [ERR.notFound, ERR.signatureOverviewLookup],
    failure: ERR.signatureOverviewLookup,
  }),
  remind: defineCall({
    path: '/v1/project/signature/remind',
    auth: 'user',
    kind: 'command',
    summary:
      'Reminds a signer of their unanswered request (its requester or the project leader), at most once a day per request; the signer is notified.',
    request: signatureRemindRequest,
    answer: signatureRemindAnswer,
    errors: [
      ...NOTE_READ_ERRORS,
      ERR.projectClosed,
      ERR.reminderNotAllowed,
      ERR.reminderNotWaiting,
      ERR.reminderTooSoon,
      ERR.reminderFailed,
    ],
    failure: ERR.reminderFailed,
  }),
} as const;
