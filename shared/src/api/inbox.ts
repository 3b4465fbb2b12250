import { z } from 'zod';
import { ERR } from '../errors.js';
import { defineCall } from './call.js';
import { NOTE_STATUS } from './notes.js';
import { listAnswer, pageFields } from './paging.js';
import { SIGNATURE_TYPES } from './signatures.js';

/*
 * The home (`/`, issue 48; contract §10 `/v1/inbox`): what waits for the caller, their unfinished notes,
 * what they opened last and what happened in their projects. One call, one section at a time, so that the
 * screen shows each section as it arrives, with its own error.
 */

/** The sections of `/v1/inbox`. */
export const INBOX_SECTIONS = ['signatures', 'templates', 'notes', 'recent', 'activity'] as const;
export type InboxSection = (typeof INBOX_SECTIONS)[number];

/** Where the client opens each record: the screen where its reader acts on it. */
export const HOME_PATHS = {
  note: (labNoteNo: number) => `/note/${labNoteNo}`,
  project: (projectNo: number) => `/project/${projectNo}`,
  template: (templateNo: number) => `/template/note/${templateNo}`,
  schema: (schemasTypeNo: number) => `/schema/${schemasTypeNo}`,
} as const;

const { page, pageSize } = pageFields;
/** A position in the audit trail (its `seq`): the activity's cursor. */
const auditSeq = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

export const inboxRequest = z.discriminatedUnion('section', [
  z.strictObject({ section: z.literal('signatures'), page, pageSize }),
  z.strictObject({ section: z.literal('templates'), page, pageSize }),
  z.strictObject({ section: z.literal('notes'), page, pageSize }),
  /** At most LIMITS.homeRecent records, newest first: no pages. */
  z.strictObject({ section: z.literal('recent') }),
  /** The page of events before `before` (an event's `seq`; the newest when left out). */
  z.strictObject({ section: z.literal('activity'), before: auditSeq.optional(), pageSize }),
]);
export type InboxRequest = z.infer<typeof inboxRequest>;

const person = z.strictObject({ userId: z.string(), name: z.string() });
const noteRef = z.strictObject({ labNoteNo: z.number(), labNoteNumber: z.string(), title: z.string() });
const projectRef = z.strictObject({ projectNo: z.number(), title: z.string() });

/**
 * A signature waiting for the caller: `request`, their own signature asked of them (by `by`, since `at`);
 * `declined`, a note they write or co-write that a signer declined (returned to them: `by` declined at
 * `at`, saying `reason`), still open for writing.
 */
export const inboxSignature = z.strictObject({
  kind: z.enum(['request', 'declined']),
  signatureId: z.number(),
  note: noteRef,
  project: projectRef,
  meaning: z.enum(SIGNATURE_TYPES),
  by: person,
  at: z.string(),
  reason: z.string().nullable(),
  path: z.string(),
});
export type InboxSignature = z.infer<typeof inboxSignature>;

/**
 * A template waiting for the caller: `approve`, a checked-in revision they may approve or send back (the
 * two-person rule: not its author, nor one who wrote in it or checked it in), checked in by `by` at `at`;
 * `returned`, their own template sent back by `by` at `at` with `reason`, not checked in again since.
 */
export const inboxTemplate = z.strictObject({
  kind: z.enum(['approve', 'returned']),
  templateNo: z.number(),
  title: z.string(),
  revision: z.number(),
  /** Null when the record of who returned it is missing. */
  by: person.nullable(),
  at: z.string(),
  reason: z.string().nullable(),
  path: z.string(),
});
export type InboxTemplate = z.infer<typeof inboxTemplate>;

/**
 * A note the caller writes or co-writes that is not done: never saved as a version (`neverSaved`), or
 * changed since its last one (`changedSinceSave`), and how many of its signature requests are still
 * unanswered. `changedAt`: its last save, temporary save or change of status.
 */
export const inboxNote = z.strictObject({
  note: noteRef,
  project: projectRef,
  status: z.enum(NOTE_STATUS),
  version: z.number(),
  unsaved: z.enum(['neverSaved', 'changedSinceSave']).nullable(),
  pendingSignatures: z.number(),
  changedAt: z.string(),
  path: z.string(),
});
export type InboxNote = z.infer<typeof inboxNote>;

export const RECENT_KINDS = ['note', 'template', 'schema'] as const;
export type RecentKind = (typeof RECENT_KINDS)[number];

/** A record the caller opened, that they may still read: a note (with its number and project), a template or a schema type. */
export const inboxRecent = z.strictObject({
  kind: z.enum(RECENT_KINDS),
  no: z.number(),
  title: z.string(),
  /** A note's number (LN-…); null for the others. */
  number: z.string().nullable(),
  /** A note's project's title; null for the others. */
  projectTitle: z.string().nullable(),
  openedAt: z.string(),
  path: z.string(),
});
export type InboxRecent = z.infer<typeof inboxRecent>;

/** What the activity shows, from the audit trail's actions (server/src/inbox/activity.ts maps them). */
export const ACTIVITY_EVENTS = [
  'noteCreated',
  'versionSaved',
  'signatureGiven',
  'signatureRemoved',
  'projectClosed',
  'templateApproved',
] as const;
export type ActivityEvent = (typeof ACTIVITY_EVENTS)[number];

/**
 * One event in the caller's projects (or of a template they see): who did what to which record, when.
 * `version`: the note version saved or signed, the template version approved; `meaning`: a signature's;
 * `signer`: whose signature was removed; `reason`: a removal's.
 */
export const inboxActivity = z.strictObject({
  seq: z.number(),
  event: z.enum(ACTIVITY_EVENTS),
  at: z.string(),
  /** Null when the system did it. */
  actor: z.string().nullable(),
  note: noteRef.nullable(),
  project: projectRef.nullable(),
  template: z.strictObject({ templateNo: z.number(), title: z.string() }).nullable(),
  version: z.string().nullable(),
  meaning: z.enum(SIGNATURE_TYPES).nullable(),
  signer: z.string().nullable(),
  reason: z.string().nullable(),
  path: z.string(),
});
export type InboxActivity = z.infer<typeof inboxActivity>;

export const inboxAnswer = z.discriminatedUnion('section', [
  listAnswer(inboxSignature).extend({ section: z.literal('signatures') }),
  listAnswer(inboxTemplate).extend({ section: z.literal('templates') }),
  listAnswer(inboxNote).extend({ section: z.literal('notes') }),
  z.strictObject({ section: z.literal('recent'), list: z.array(inboxRecent) }),
  /** `next`: the `before` of the following page, null when this one is the last. */
  z.strictObject({ section: z.literal('activity'), list: z.array(inboxActivity), next: auditSeq.nullable() }),
]);
export type InboxAnswer = z.infer<typeof inboxAnswer>;
/** The answer of one section. */
export type InboxSectionAnswer<S extends InboxSection> = Extract<InboxAnswer, { section: S }>;

/** The home (server/src/inbox). */
export const inboxCalls = {
  section: defineCall({
    path: '/v1/inbox',
    auth: 'user',
    kind: 'query',
    summary:
      "One section of the caller's home: signatures asked of them and their notes returned, templates waiting for their approval or returned to them, their unfinished notes, what they opened last, or what happened in their projects.",
    request: inboxRequest,
    answer: inboxAnswer,
    errors: [ERR.inboxLookup],
    failure: ERR.inboxLookup,
  }),
} as const;
