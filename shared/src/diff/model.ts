import { z } from 'zod';
import { savedBlockAnswer } from '../api/notes.js';
import { BLOCK_TYPES } from '../editor/blockNodes.js';

/*
 * What a comparison of two block lists answers: plain data, so that the server computes it and the
 * screens, the PDF and the template comparison render it. Written as schemas because the note history's
 * calls answer it (shared/src/api/noteHistory.ts); the types are inferred from them.
 */

/** A run of text that both sides have, or that only the newer (`added`) or the older (`removed`) has. */
export const TEXT_PART_KINDS = ['same', 'added', 'removed'] as const;
export const textPart = z.strictObject({ kind: z.enum(TEXT_PART_KINDS), text: z.string() });
export type TextPart = z.infer<typeof textPart>;

/** One attribute of a block (a chart's name, a file's content, a date's value) before and after. */
export const fieldChange = z.strictObject({ field: z.string(), before: z.string(), after: z.string() });
export type FieldChange = z.infer<typeof fieldChange>;

/** A cell as the comparison shows it: its text, its span, and its dropbox's choice (the seal left out). */
export const cellValue = z.strictObject({
  text: z.string(),
  colspan: z.number(),
  rowspan: z.number(),
  dropbox: z.strictObject({ title: z.string(), code: z.string().nullable(), name: z.string().nullable() }).nullable(),
});
export type CellValue = z.infer<typeof cellValue>;

/**
 * A cell that differs between two rows and columns the comparison paired: `changed` (text, span or
 * dropbox choice), `added` (a slot that became a cell of its own: a merged cell split) or `removed` (a
 * cell merged into another). Rows and columns are 0-based places in each table's grid, header rows first.
 */
export const CELL_CHANGE_KINDS = ['changed', 'added', 'removed'] as const;
export const cellChange = z.strictObject({
  kind: z.enum(CELL_CHANGE_KINDS),
  beforeRow: z.number(),
  beforeCol: z.number(),
  row: z.number(),
  col: z.number(),
  before: cellValue.nullable(),
  after: cellValue.nullable(),
  /** The word-level difference of the cell's text, when its text changed. */
  text: z.array(textPart).nullable(),
  spanChanged: z.boolean(),
  dropboxChanged: z.boolean(),
});
export type CellChange = z.infer<typeof cellChange>;

const tableSize = z.strictObject({ rows: z.number(), columns: z.number(), headerRows: z.number() });

/** Which node a text block is (`paragraph`, `heading-2`, `bulletList`...) when that changed. */
const classChange = z.strictObject({ before: z.string(), after: z.string() }).nullable();

export const blockDetail = z.union([
  z.strictObject({
    kind: z.literal('text'),
    parts: z.array(textPart),
    blockClass: classChange,
    /** The text is the same and so is the kind of block: only marks or attributes (bold, colour, a list's start) changed. */
    formatting: z.boolean(),
  }),
  z.strictObject({
    kind: z.literal('table'),
    before: tableSize,
    after: tableSize,
    /** Rows of the newer table that the older one has no counterpart for, and rows of the older one gone. */
    rowsAdded: z.array(z.number()),
    rowsRemoved: z.array(z.number()),
    columnsAdded: z.array(z.number()),
    columnsRemoved: z.array(z.number()),
    cells: z.array(cellChange),
    /** No row, column or cell differs: only the cells' formatting or the columns' widths changed. */
    formatting: z.boolean(),
  }),
  /** Charts (type, names, labels, range), images and files (content by file ID, title or name), dates (value). */
  z.strictObject({ kind: z.literal('fields'), fields: z.array(fieldChange), formatting: z.boolean() }),
  z.strictObject({
    kind: z.literal('schema'),
    /** The schema, its type, their titles and the revision copied. */
    fields: z.array(fieldChange),
    /** Entries by field name: added (before null), removed (after null) or with another value. */
    entries: z.array(z.strictObject({ field: z.string(), before: z.string().nullable(), after: z.string().nullable() })),
  }),
  /** The block became another type of block (it kept its ID): shown as the one replaced by the other. */
  z.strictObject({ kind: z.literal('replaced') }),
]);
export type BlockDetail = z.infer<typeof blockDetail>;

/**
 * `moved`: the block's place relative to the blocks both lists keep changed (a block pushed down by an
 * insertion has not moved). A block both edited and moved is `changed`, with `moved` true.
 */
export const BLOCK_CHANGE_KINDS = ['added', 'removed', 'changed', 'moved', 'unchanged'] as const;
export type BlockChangeKind = (typeof BLOCK_CHANGE_KINDS)[number];

export const blockChange = z.strictObject({
  kind: z.enum(BLOCK_CHANGE_KINDS),
  moved: z.boolean(),
  blockUid: z.string(),
  type: z.enum(BLOCK_TYPES),
  before: savedBlockAnswer.nullable(),
  after: savedBlockAnswer.nullable(),
  /** What changed inside a `changed` block; null for the other kinds. */
  detail: blockDetail.nullable(),
});
export type BlockChange = z.infer<typeof blockChange>;

/** How many blocks were added, changed, removed and moved (a block edited and moved counts in both), and how many are as they were. */
export const changeSummary = z.strictObject({
  added: z.number(),
  changed: z.number(),
  removed: z.number(),
  moved: z.number(),
  unchanged: z.number(),
});
export type ChangeSummary = z.infer<typeof changeSummary>;

/** The newer list's blocks in its order, each removed block where it stood in the older list. */
export const blockListDiff = z.strictObject({ changes: z.array(blockChange), summary: changeSummary });
export type BlockListDiff = z.infer<typeof blockListDiff>;
