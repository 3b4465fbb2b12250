import { z } from 'zod';
import { blockChange, changeSummary } from '../diff/model.js';
import { ERR } from '../errors.js';
import { LIMITS } from '../limits.js';
import { recordNo, requiredText } from '../validation.js';
import { defineCall } from './call.js';
import { labNoteNoRequest, savedBlockAnswer } from './notes.js';
import { SIGNATURE_TYPES } from './signatures.js';
import { timestampInfo } from './timestamps.js';

/** A saved version's number: versions count from 1. */
const versionNo = z.number().int().min(1).max(LIMITS.maxRecordNo);

export const noteVersionRequest = z.strictObject({ labNoteNo: recordNo, version: versionNo });

/** `to` is a saved version or `"live"`, the live document as the note screen shows it now. */
export const noteCompareRequest = z.strictObject({
  labNoteNo: recordNo,
  from: versionNo,
  to: z.union([versionNo, z.literal('live')]),
});

const person = z.strictObject({ userId: z.string(), name: z.string() });

/** A restore: the saved version that becomes the live document's content again, and why (the audit trail keeps it). */
export const noteRestoreRequest = z.strictObject({ labNoteNo: recordNo, version: versionNo, reason: requiredText(500) });

/**
 * People by blockUid: for a version, whoever's live edits wrote the block's current content; in a
 * comparison, whoever's edits between the two sides changed or added it. A block written only by the
 * server (copied from a template, restored, imported) names nobody.
 */
export const blockPeople = z.record(z.string(), z.array(person));
export type BlockPeople = z.infer<typeof blockPeople>;

/**
 * A signature bound to a saved version: who signed it, as what, when (ISO 8601 with the offset of the
 * signer's time zone), and whether the project leader has removed it since (removed signatures stay in
 * the record, with the reason).
 */
export const versionSignature = z.strictObject({
  signatureId: z.number(),
  signer: person,
  meaning: z.enum(SIGNATURE_TYPES),
  /** The printed name the signer typed. */
  signatureName: z.string().nullable(),
  signedAt: z.string(),
  timeZone: z.string().nullable(),
  removed: z.boolean(),
  removedAt: z.string().nullable(),
  removedReason: z.string().nullable(),
});
export type VersionSignature = z.infer<typeof versionSignature>;

/** One saved version of a note. */
export const noteVersionEntry = z.strictObject({
  version: z.number(),
  savedBy: person,
  /** ISO 8601 with the offset of the server's time zone (TIME_ZONE). */
  savedAt: z.string(),
  /** SHA-256 of the version's canonical block list: what signatures bind to. */
  blocksHash: z.string(),
  /** Against the version before it (everything added, for the first). */
  changes: changeSummary,
  signatures: z.array(versionSignature),
  /** The version this one restored (its content copied back), with the reason given; null for a save. */
  restoredFrom: z.number().nullable(),
  reason: z.string().nullable(),
  /**
   * The RFC 3161 time-stamp of the version (its content's SHA-256 with who saved it when), asked for the
   * version a signature covers and each version saved on a note once signed; null when none was asked.
   */
  timestamp: timestampInfo.nullable(),
});
export type NoteVersionEntry = z.infer<typeof noteVersionEntry>;

/** The template revision the note was made from (its content copied at creation). */
export const versionTemplateOrigin = z.strictObject({
  templateNo: z.number(),
  title: z.string(),
  revision: z.number(),
  /** The approved version's number as written (`1.2`). */
  version: z.string(),
  blocksHash: z.string(),
});

export const noteVersionListAnswer = z.strictObject({
  labNoteNo: z.number(),
  template: versionTemplateOrigin.nullable(),
  /** Newest first. */
  list: z.array(noteVersionEntry),
  totalCount: z.number(),
});
export type NoteVersionListAnswer = z.infer<typeof noteVersionListAnswer>;

export const noteVersionDetailAnswer = noteVersionEntry.extend({
  blockList: z.array(savedBlockAnswer),
  /** Who wrote each block of this version (from the stored live updates, which carry their author). */
  authors: blockPeople,
});
export type NoteVersionDetailAnswer = z.infer<typeof noteVersionDetailAnswer>;

/**
 * A deleted note as the audit detail shows it to administrators: what it was, when it was deleted, and
 * its last saved version (null when it was never saved), so that deleting a note never hides its record.
 */
export const deletedNoteAnswer = z.strictObject({
  labNoteNo: z.number(),
  labNoteNumber: z.string(),
  title: z.string(),
  projectNo: z.number(),
  /** ISO 8601 with the server's time zone's offset. */
  deletedAt: z.string(),
  lastVersion: noteVersionDetailAnswer.nullable(),
});
export type DeletedNoteAnswer = z.infer<typeof deletedNoteAnswer>;

/** One side of a comparison: a saved version, or the live document (`"live"`, which nobody saved). */
const comparedSide = z.strictObject({
  version: z.union([z.number(), z.literal('live')]),
  savedBy: person.nullable(),
  savedAt: z.string().nullable(),
  blocksHash: z.string().nullable(),
});

export const noteCompareAnswer = z.strictObject({
  from: comparedSide,
  to: comparedSide,
  /** `to`'s blocks in its order, each removed block of `from` where it stood (the shared diff, `diffBlockLists`). */
  changes: z.array(blockChange),
  summary: changeSummary,
  /** For each added or changed block, whose edits between the two sides made the change ("changed by Kim, Lee"). */
  changedBy: blockPeople,
});
export type NoteCompareAnswer = z.infer<typeof noteCompareAnswer>;

/** What every call on one note may refuse first: no such note (or one the caller cannot see), or a deleted one. */
const NOTE_READ_ERRORS = [ERR.noteMissing, ERR.noteDeleted] as const;

/** A note's saved versions, read and compared (server/src/notes/history.ts): whoever may read the note. */
export const noteHistoryCalls = {
  list: defineCall({
    path: '/v1/project/note/version/list',
    auth: 'user',
    kind: 'query',
    summary:
      'Every saved version of a note, newest first: who saved it when, its SHA-256, the signatures bound to it, what changed against the version before it; and the template revision the note started from.',
    request: labNoteNoRequest,
    answer: noteVersionListAnswer,
    errors: [...NOTE_READ_ERRORS],
  }),
  detail: defineCall({
    path: '/v1/project/note/version/detail',
    auth: 'user',
    kind: 'query',
    summary: 'One saved version of a note with its blocks, as the version list describes it (2040 when the note has no such version).',
    request: noteVersionRequest,
    answer: noteVersionDetailAnswer,
    errors: [...NOTE_READ_ERRORS, ERR.versionMissing],
  }),
  compare: defineCall({
    path: '/v1/project/note/version/compare',
    auth: 'user',
    kind: 'query',
    summary:
      'Compares two saved versions of a note, or one with the live document (`to: "live"`), block by block and inside changed blocks; from and to may be the same version (nothing changed) or in either order.',
    request: noteCompareRequest,
    answer: noteCompareAnswer,
    errors: [...NOTE_READ_ERRORS, ERR.versionMissing],
  }),
  restore: defineCall({
    path: '/v1/project/note/version/restore',
    auth: 'user',
    kind: 'command',
    summary:
      "Restores a saved version: its blocks become the live document's content (every open editor sees them at once) and are saved as the next version with the reason; earlier versions stay. A writer of the note only (`abilities.write`), refused on signed, finished and closed-project notes.",
    request: noteRestoreRequest,
    answer: noteVersionEntry,
    errors: [...NOTE_READ_ERRORS, ERR.versionMissing, ERR.forbidden, ERR.conflict, ERR.saveFailed],
    failure: ERR.saveFailed,
  }),
} as const;
