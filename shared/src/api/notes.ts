import { signatureEntry } from './signatures.js';
import { z } from 'zod';
import { ERR } from '../errors.js';
import { LIMITS } from '../limits.js';
import { recordNo, requiredText, text } from '../validation.js';
import { BLOCK_STATUSES, NOTE_TYPES } from '../blocks/model.js';
import { BLOCK_TYPES } from '../editor/blockNodes.js';
import { defineCall, noAnswer } from './call.js';
import { emptyRequest } from './identity.js';

export const NOTE_STATUS = { writing: 'W', requested: 'R', signed: 'T', finished: 'F' } as const;
export type NoteStatus = (typeof NOTE_STATUS)[keyof typeof NOTE_STATUS];

/** Live document names: `labnote.<no>` for notes, `template.<no>` for templates. */
export const noteDocumentName = (noteNo: number) => `labnote.${noteNo}`;
export const templateDocumentName = (templateNo: number) => `template.${templateNo}`;

/** Largest block list a client may send with a save (a 30x30 table and much text fit easily). */
export const NOTE_BODY_LIMIT = 8 * 1024 * 1024;

export const noteCreateRequest = z.strictObject({
  projectNo: recordNo,
  title: requiredText(LIMITS.noteTitle),
  templateNo: recordNo.optional(),
});

export const labNoteNoRequest = z.strictObject({ labNoteNo: recordNo });

/** The project whose notes everyone's holds are released from (`/clear/all`). */
export const projectHoldsRequest = z.strictObject({ projectNo: recordNo });

/** A cell's dropbox as the block model carries it (`CellDropbox`; the older title-only form has no number and no seal). */
const cellDropbox = z.object({
  dropboxNo: recordNo.nullable(),
  title: text().max(LIMITS.dropboxName),
  code: text().max(LIMITS.dropboxCode).nullable(),
  name: text().max(LIMITS.dropboxRowName).nullable(),
  seal: text().max(43),
});
const blockTableCell = z.object({ text: text(), colspan: z.number(), rowspan: z.number(), dropbox: cellDropbox.nullable() });
export const blockSchema = z.object({
  type: z.enum(BLOCK_TYPES),
  blockUid: text().max(100),
  noteType: z.enum(NOTE_TYPES),
  blockClass: text().max(100),
  blockTable: z.object({ header: z.array(z.array(blockTableCell)), body: z.array(z.array(blockTableCell)) }).nullable(),
  content: text(),
  blockOdr: z.number().int(),
  blockStatus: z.enum(BLOCK_STATUSES),
});

/** The client's block list is only a check: the server derives the list from its own copy of the document. */
export const noteTempRequest = z.strictObject({ labNoteNo: recordNo, blockList: z.array(blockSchema).max(5000) });
export const noteSaveRequest = z.strictObject({
  labNoteNo: recordNo,
  version: z.number().int().min(0).max(LIMITS.maxRecordNo),
  blockList: z.array(blockSchema).max(5000),
});

/**
 * A block a script or instrument appends at the end of a note's live document: a table from CSV text
 * (comma, semicolon or tab separated, read with papaparse; the first row as headers unless `headerRow`
 * is false), a paragraph of text, or a file uploaded to the note (an image shows as an image).
 */
export const noteBlockAppendRequest = z.union([
  z.strictObject({
    labNoteNo: recordNo,
    table: text().max(LIMITS.appendedCsvChars).describe('CSV text; at most 30 rows and 30 columns'),
    headerRow: z.boolean().default(true).describe('the first row as header cells'),
  }),
  z.strictObject({ labNoteNo: recordNo, paragraph: requiredText(LIMITS.appendedParagraphChars) }),
  z.strictObject({ labNoteNo: recordNo, file: z.uuid().describe('a file uploaded to this note (/v1/common/file/add)') }),
]);
export const noteBlockAppendAnswer = z.strictObject({
  /** The appended block's id in the note. */
  blockUid: z.string(),
  type: z.enum(['table', 'paragraph', 'image', 'file']),
  /** The table's rows and columns (0 for other blocks). */
  rows: z.number(),
  columns: z.number(),
});
export type NoteBlockAppendAnswer = z.infer<typeof noteBlockAppendAnswer>;

export const noteModifier = z.strictObject({ userId: z.string(), name: z.string() });
export type NoteModifier = z.infer<typeof noteModifier>;

/**
 * What the caller may do with a note now, as the server's note policy decides it (`server/src/notes/
 * policy.ts`). The client shows and hides actions by these alone; the server refuses the rest anyway.
 */
export const noteAbilities = z.strictObject({
  /** Edit the live document, save drafts and versions, attach files. */
  write: z.boolean(),
  delete: z.boolean(),
  /** Request signatures or change the pending signers. */
  requestSignatures: z.boolean(),
  /** Sign or decline the caller's own pending request. */
  sign: z.boolean(),
  removeSignatures: z.boolean(),
  /** Take a saved version out as PDF (with its signatures and history). */
  exportPdf: z.boolean(),
});
export type NoteAbilities = z.infer<typeof noteAbilities>;

/** Where a note came from, shown in its header: "from template X v1.2". */
export const noteTemplateOrigin = z.strictObject({
  templateNo: z.number(),
  title: z.string(),
  version: z.string(),
  blocksHash: z.string(),
});
export type NoteTemplateOrigin = z.infer<typeof noteTemplateOrigin>;

export const noteSummary = z.strictObject({
  no: z.number(),
  /** The project the note belongs to. */
  projectNo: z.number(),
  title: z.string(),
  labNoteNumber: z.string(),
  version: z.number(),
  status: z.enum(NOTE_STATUS),
  writer: z.string(),
  name: z.string(),
  /**
   * A note imported from a .eln archive: its authors' names there (people of that archive, not accounts
   * here; empty when it named none), while `writer` and `name` are the account that imported it. Null for
   * a note written here.
   */
  importedAuthors: z.array(z.string()).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Who holds the note open for writing now. */
  modifiers: z.array(noteModifier),
  signatureList: z.array(signatureEntry),
  /** Users (IDs) who may not sign this note as reviewer, because they wrote in it (the server's verdict). */
  reviewersExcluded: z.array(z.string()),
  /** The template version the note was made from, or null for a blank note. */
  template: noteTemplateOrigin.nullable(),
  abilities: noteAbilities,
});
export type NoteSummary = z.infer<typeof noteSummary>;

/*
 * Blocks as the server answers them: exactly the block model's fields (`SavedBlock`, `Block`), each
 * derived by the server, so no request rule (`blockSchema`) applies to them.
 */
const cellDropboxAnswer = z.strictObject({
  dropboxNo: z.number().nullable(),
  title: z.string(),
  code: z.string().nullable(),
  name: z.string().nullable(),
  seal: z.string(),
});
const tableCellAnswer = z.strictObject({
  text: z.string(),
  colspan: z.number(),
  rowspan: z.number(),
  dropbox: cellDropboxAnswer.nullable(),
});
export const savedBlockAnswer = z.strictObject({
  type: z.enum(BLOCK_TYPES),
  blockUid: z.string(),
  noteType: z.enum(NOTE_TYPES),
  blockClass: z.string(),
  blockTable: z.strictObject({ header: z.array(z.array(tableCellAnswer)), body: z.array(z.array(tableCellAnswer)) }).nullable(),
  content: z.string(),
  blockOdr: z.number(),
});
export const blockAnswer = savedBlockAnswer.extend({ blockStatus: z.enum(BLOCK_STATUSES) });

export const noteCreateAnswer = z.strictObject({ labNoteNo: z.number(), labNoteNumber: z.string() });

export const blockListAnswer = z.strictObject({
  note: noteSummary,
  blockList: z.array(blockAnswer),
  /** Whether the live document differs from the last saved version. */
  changed: z.boolean(),
});
export type BlockListAnswer = z.infer<typeof blockListAnswer>;

export const viewerAnswer = z.strictObject({
  note: noteSummary,
  version: z.number(),
  blockList: z.array(savedBlockAnswer),
  savedAt: z.string().nullable(),
  savedBy: z.string().nullable(),
});
export type ViewerAnswer = z.infer<typeof viewerAnswer>;

/**
 * A temp save's answer: each block's status against the last saved version (an approved template's,
 * for templates), in order, rather than the blocks themselves, which the caller already has.
 */
export const tempSaveAnswer = z.strictObject({
  blockStatuses: z.array(blockAnswer.pick({ blockUid: true, blockStatus: true })),
  changed: z.boolean(),
  savedAt: z.string(),
});
export type TempAnswer = z.infer<typeof tempSaveAnswer>;

export const saveAnswer = z.strictObject({ version: z.number(), blocksHash: z.string() });
export type SaveAnswer = z.infer<typeof saveAnswer>;

/** What every call on one note may refuse first: no such note (or one in a project the caller cannot see), or a deleted one. */
const NOTE_READ_ERRORS = [ERR.noteMissing, ERR.noteDeleted] as const;
/** The content checks of drafts and versions (server/src/notes/contentCheck.ts). */
const CONTENT_ERRORS = [ERR.noteContent, ERR.unsupportedCharacters] as const;

/** The lab note calls (server/src/notes). */
export const noteCalls = {
  create: defineCall({
    path: '/v1/project/note/create',
    auth: 'user',
    kind: 'command',
    summary:
      "Creates a note in a project the caller takes part in, blank or from a template's approved version, with the year's next lab note number.",
    request: noteCreateRequest,
    answer: noteCreateAnswer,
    errors: [ERR.notFound, ERR.forbidden, ERR.projectClosed, ERR.noteDuplicate, ERR.templateNotApproved],
  }),
  delete: defineCall({
    path: '/v1/project/note/delete',
    auth: 'user',
    kind: 'command',
    summary: 'Deletes a note not yet signed (its writer, the project leader or an administrator); open editors of it close.',
    request: labNoteNoRequest,
    answer: noAnswer,
    errors: [...NOTE_READ_ERRORS, ERR.forbidden],
  }),
  blockList: defineCall({
    path: '/v1/project/block/list',
    auth: 'user',
    kind: 'query',
    summary: "A note and its live document's blocks, each with its status against the last saved version.",
    request: labNoteNoRequest,
    answer: blockListAnswer,
    errors: [...NOTE_READ_ERRORS],
  }),
  viewer: defineCall({
    path: '/v1/project/viewer',
    auth: 'user',
    kind: 'query',
    summary: "A note and its last saved version's blocks, with who saved it when.",
    request: labNoteNoRequest,
    answer: viewerAnswer,
    errors: [...NOTE_READ_ERRORS, ERR.viewer],
  }),
  saveDraft: defineCall({
    path: '/v1/project/note/temp',
    auth: 'user',
    kind: 'command',
    summary: "Stores the live document's blocks as the note's draft (the client's list is only compared); answers each block's status.",
    request: noteTempRequest,
    answer: tempSaveAnswer,
    errors: [...NOTE_READ_ERRORS, ERR.forbidden, ...CONTENT_ERRORS, ERR.noteTemp],
    bodyLimit: NOTE_BODY_LIMIT,
  }),
  saveVersion: defineCall({
    path: '/v1/project/note/save',
    auth: 'user',
    kind: 'command',
    summary: "Saves the live document as the note's next version, with its fingerprint; the caller names the version it saw.",
    request: noteSaveRequest,
    answer: saveAnswer,
    errors: [...NOTE_READ_ERRORS, ERR.forbidden, ERR.conflict, ...CONTENT_ERRORS, ERR.saveFailed],
    failure: ERR.saveFailed,
    bodyLimit: NOTE_BODY_LIMIT,
  }),
  appendBlock: defineCall({
    path: '/v1/project/note/block/append',
    auth: 'user',
    kind: 'command',
    summary:
      "Appends a table (from CSV text), a paragraph or an uploaded file at the end of a note's live document, as an editor would; every open editor sees it at once.",
    request: noteBlockAppendRequest,
    answer: noteBlockAppendAnswer,
    errors: [
      ...NOTE_READ_ERRORS,
      ERR.forbidden,
      ERR.conflict,
      ERR.notFound,
      ...CONTENT_ERRORS,
      ERR.appendCsvUnreadable,
      ERR.appendTableTooLarge,
      ERR.appendDocumentTooLarge,
    ],
  }),
  releaseHold: defineCall({
    path: '/v1/project/clear',
    auth: 'user',
    kind: 'command',
    summary: "Ends the caller's own hold on a note: their editors of it stop writing.",
    request: labNoteNoRequest,
    answer: noAnswer,
    errors: [...NOTE_READ_ERRORS, ERR.noteEditorsClear],
  }),
  releaseOwnHolds: defineCall({
    path: '/v1/project/editor/clear',
    auth: 'user',
    kind: 'command',
    summary: "Ends every hold of the caller's on any note.",
    request: emptyRequest,
    answer: noAnswer,
    errors: [ERR.noteEditorsClear],
  }),
  releaseProjectHolds: defineCall({
    path: '/v1/project/clear/all',
    auth: 'user',
    kind: 'command',
    summary: "Ends everyone's holds on a project's notes (its leader or an administrator), audited.",
    request: projectHoldsRequest,
    answer: noAnswer,
    errors: [ERR.notFound, ERR.forbidden, ERR.noteEditorsClear],
  }),
} as const;
