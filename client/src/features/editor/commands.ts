import type { Editor, JSONContent } from '@tiptap/core';
import { NodeSelection, TextSelection, type Transaction } from '@tiptap/pm/state';
import { CellSelection, isInTable } from '@tiptap/pm/tables';
import { createTable } from '@tiptap/extension-table';
import { cellDropboxOf, LIMITS, type CellDropbox, type SchemaBlockAttrs } from '@eln/shared';
import type { ChartFields } from './ChartDialog';
import type { CellRef } from '@eln/shared/editor';
import { zonedDay } from '../../lib/timeZone';
import {
  canAddColumn,
  canAddRow,
  columnDeletionRefusal,
  rowDeletionRefusal,
  selectedCellIsHeader,
  selectedRange,
  tableInfo,
  validTableSize,
} from './tableRules';

/** Why an editing action was refused: a key of the `refusal` strings. */
export type Refusal =
  | 'tableInTable'
  | 'tableSize'
  | 'maxRows'
  | 'maxColumns'
  | 'lastRow'
  | 'lastColumn'
  | 'mergedCells'
  | 'mergeNeedsCells'
  | 'chartNeedsRange'
  | 'chartNeedsTopTable'
  | 'dateOnBlock'
  | 'dropboxHeader';

/**
 * Where a new block goes: right after the top-level block holding the selection, or in place of it when
 * that block is an empty paragraph. Returns the range to replace.
 */
function insertionRange(editor: Editor): { from: number; to: number } {
  const { state } = editor;
  const { selection } = state;
  if (selection instanceof NodeSelection && selection.$from.depth === 0) return { from: selection.to, to: selection.to };
  const $from = selection.$from;
  if ($from.depth === 0) return { from: selection.from, to: selection.from };
  const top = $from.node(1);
  const start = $from.before(1);
  const end = $from.after(1);
  if (top.type.name === 'paragraph' && top.content.size === 0) return { from: start, to: end };
  return { from: end, to: end };
}

/**
 * Puts the caret in the paragraph right after inserted blocks that end at `end`, adding an empty one when
 * none follows. Left on the new block (a node selection), the next key typed would replace it.
 */
function caretAfter(tr: Transaction, end: number): void {
  const next = tr.doc.resolve(end).nodeAfter;
  if (next?.type.name !== 'paragraph') tr.insert(end, tr.doc.type.schema.nodes.paragraph!.create());
  tr.setSelection(TextSelection.create(tr.doc, end + 1));
}

/** Inserts blocks at the top level after the current one (or in place of an empty paragraph); the caret goes after them. */
export function insertBlocks(editor: Editor, blocks: JSONContent[]): number {
  const { from, to } = insertionRange(editor);
  editor
    .chain()
    .focus()
    .insertContentAt({ from, to }, blocks, { updateSelection: false })
    .command(({ tr }) => {
      caretAfter(tr, tr.mapping.map(to, 1));
      return true;
    })
    .run();
  return from;
}

/**
 * Inserts a table of the given size. A header row gets a label in each cell ("Column 1" …, from
 * `columnLabel`), so no header is announced empty; the first label is selected, so typing replaces it.
 */
export function insertTable(editor: Editor, rows: number, columns: number, columnLabel: ((n: number) => string) | null): Refusal | null {
  if (isInTable(editor.state)) return 'tableInTable';
  if (!validTableSize(rows, columns)) return 'tableSize';
  const table = createTable(editor.schema, rows, columns, columnLabel !== null).toJSON() as JSONContent;
  const headerRow = columnLabel ? table.content?.[0] : undefined;
  headerRow?.content?.forEach((cell, index) => {
    cell.content = [{ type: 'paragraph', content: [{ type: 'text', text: columnLabel!(index + 1) }] }];
  });
  const at = insertBlocks(editor, [table]);
  // Into the first cell: table > row > cell > paragraph.
  const firstLabel = columnLabel ? columnLabel(1).length : 0;
  editor
    .chain()
    .focus()
    .setTextSelection({ from: at + 4, to: at + 4 + firstLabel })
    .run();
  return null;
}

export function insertDate(editor: Editor): Refusal | null {
  if (editor.state.selection instanceof NodeSelection) return 'dateOnBlock';
  insertBlocks(editor, [{ type: 'date', attrs: { value: todayIso() } }]);
  return null;
}

export function insertImage(editor: Editor, attrs: { fileId: string; title: string }): void {
  insertBlocks(editor, [{ type: 'image', attrs: { fileId: attrs.fileId, title: attrs.title.slice(0, LIMITS.imageTitle) } }]);
}

export function insertFile(editor: Editor, attrs: { fileId: string; name: string; size: number; extension: string }): void {
  insertBlocks(editor, [{ type: 'fileAttachment', attrs }]);
}

/** Inserts a schema block (a copy of a schema's entries) at the top level; the caret goes after it. */
export function insertSchemaBlock(editor: Editor, block: SchemaBlockAttrs): void {
  insertBlocks(editor, [{ type: 'schemaBlock', attrs: { ...block } }]);
}

/** The table range a chart would be made from, or why none can be. */
export function chartSource(editor: Editor): { tableUid: string; from: CellRef; to: CellRef } | Refusal {
  const info = tableInfo(editor.state);
  if (!info || !(editor.state.selection instanceof CellSelection) || info.selectedCells < 2) return 'chartNeedsRange';
  if (!info.tableUid) return 'chartNeedsTopTable';
  return { tableUid: info.tableUid, ...selectedRange(info) };
}

/** Inserts a chart right after its source table. */
export function insertChart(editor: Editor, source: { tableUid: string; from: CellRef; to: CellRef }, fields: ChartFields): void {
  let after = -1;
  editor.state.doc.forEach((node, offset) => {
    if (node.type.name === 'table' && node.attrs.blockUid === source.tableUid) after = offset + node.nodeSize;
  });
  if (after < 0) return;
  const chart: JSONContent = { type: 'chart', attrs: { ...fields, tableUid: source.tableUid, from: source.from, to: source.to } };
  editor
    .chain()
    .insertContentAt(after, [chart], { updateSelection: false })
    .command(({ tr }) => {
      caretAfter(tr, tr.mapping.map(after, 1));
      return true;
    })
    .focus()
    .run();
}

// --- Table actions, each refused with a reason when the rules say no -------------------------------------

export function addRow(editor: Editor): Refusal | null {
  const info = tableInfo(editor.state);
  if (!info) return null;
  if (!canAddRow(info)) return 'maxRows';
  editor.chain().focus().addRowAfter().run();
  return null;
}

export function addColumn(editor: Editor): Refusal | null {
  const info = tableInfo(editor.state);
  if (!info) return null;
  if (!canAddColumn(info)) return 'maxColumns';
  editor.chain().focus().addColumnAfter().run();
  return null;
}

export function deleteRow(editor: Editor): Refusal | null {
  const info = tableInfo(editor.state);
  if (!info) return null;
  const refusal = rowDeletionRefusal(info);
  if (refusal === 'lastRow' || refusal === 'mergedCells') return refusal;
  editor.chain().focus().deleteRow().run();
  return null;
}

export function deleteColumn(editor: Editor): Refusal | null {
  const info = tableInfo(editor.state);
  if (!info) return null;
  const refusal = columnDeletionRefusal(info);
  if (refusal === 'lastColumn' || refusal === 'mergedCells') return refusal;
  editor.chain().focus().deleteColumn().run();
  return null;
}

export function mergeCells(editor: Editor): Refusal | null {
  const info = tableInfo(editor.state);
  if (!info || info.selectedCells < 2 || !editor.can().mergeCells()) return 'mergeNeedsCells';
  editor.chain().focus().mergeCells().run();
  return null;
}

export function splitCell(editor: Editor): void {
  editor.chain().focus().splitCell().run();
}

export function setCellDropbox(editor: Editor, value: CellDropbox | null): Refusal | null {
  if (value && selectedCellIsHeader(editor.state)) return 'dropboxHeader';
  editor.chain().focus().setCellAttribute('dropbox', value).run();
  return null;
}

/** The selected cell's dropbox, if any. */
export function selectedCellDropbox(editor: Editor): CellDropbox | null {
  const { $from } = editor.state.selection;
  for (let depth = $from.depth; depth > 0; depth -= 1) {
    const node = $from.node(depth);
    if (node.type.name === 'tableCell' || node.type.name === 'tableHeader') return cellDropboxOf(node.attrs.dropbox);
  }
  return null;
}

/** Today's date in the viewer's time zone (lib/timeZone), as YYYY-MM-DD. */
export function todayIso(now: Date = new Date()): string {
  return zonedDay(now).iso;
}
