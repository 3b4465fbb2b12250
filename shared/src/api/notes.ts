import { signatureEntry } from './signatures.js';
import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { recordNo, requiredText, text } from '../validation.js';
import { BLOCK_STATUSES, NOTE_TYPES, type Block, type SavedBlock } from '../blocks/model.js';
import { BLOCK_TYPES } from '../editor/blockNodes.js';

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

export interface BlockListAnswer {
  note: NoteSummary;
  blockList: Block[];
  /** Whether the live document differs from the last saved version. */
  changed: boolean;
}

export interface ViewerAnswer {
  note: NoteSummary;
  version: number;
  blockList: SavedBlock[];
  savedAt: string | null;
  savedBy: string | null;
}

/**
 * A temp save's answer: each block's status against the last saved version (an approved template's,
 * for templates), in order, rather than the blocks themselves, which the caller already has.
 */
export interface TempAnswer {
  blockStatuses: Array<Pick<Block, 'blockUid' | 'blockStatus'>>;
  changed: boolean;
  savedAt: string;
}

export interface SaveAnswer {
  version: number;
  blocksHash: string;
}
