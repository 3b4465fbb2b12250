import type { Node as PmNode } from '@tiptap/pm/model';
import type { EditorState } from '@tiptap/pm/state';
import { CellSelection, deleteColumn, deleteRow, isInTable, selectedRect, type TableRect } from '@tiptap/pm/tables';
import { LIMITS, tableShape, tableTransitionViolation, type PmNode as PmJson, type TableShape } from '@eln/shared';
import type { CellRef } from '@eln/shared/editor';

/**
 * The spec's table rules, decided on the editor state: 1 to 30 rows and columns, never removing the last
 * row or column, merged cells block deleting the rows or columns they touch, merging needs two or more
 * cells, no table inside a table, and a chart needs a range of two or more cells. Deletions are judged
 * by the shared rule the server applies to every live update (`tableTransitionViolation`), on a dry run.
 */

export interface TableInfo {
  state: EditorState;
  rect: TableRect;
  rows: number;
  columns: number;
  /** How many cells the selection covers (1 for a cursor in a cell). */
  selectedCells: number;
  /** The top-level table's blockUid, when the table stands at the top of the note. */
  tableUid: string | null;
}

export function tableInfo(state: EditorState): TableInfo | null {
  if (!isInTable(state)) return null;
  let rect: TableRect;
  try {
    rect = selectedRect(state);
  } catch {
    return null;
  }
  const selectedCells = state.selection instanceof CellSelection ? countCells(state.selection) : 1;
  const tablePos = rect.tableStart - 1;
  const $table = state.doc.resolve(tablePos);
  const uid: unknown = $table.depth === 0 ? rect.table.attrs.blockUid : null;
  return {
    state,
    rect,
    rows: rect.map.height,
    columns: rect.map.width,
    selectedCells,
    tableUid: typeof uid === 'string' && uid ? uid : null,
  };
}

function countCells(selection: CellSelection): number {
  let n = 0;
  selection.forEachCell(() => {
    n += 1;
  });
  return n;
}

export type TableRefusal = 'lastRow' | 'lastColumn' | 'mergedCells' | 'tooBig';

/** The table's shape after deleting the selected rows or columns (none left when all are selected). */
function shapeAfterDeletion(info: TableInfo, axis: 'row' | 'column'): TableShape {
  const { rect } = info;
  const all = axis === 'row' ? rect.bottom - rect.top >= info.rows : rect.right - rect.left >= info.columns;
  // prosemirror-tables refuses to delete every row or column; the rule sees an empty table then.
  if (all)
    return tableShape(axis === 'row' ? { type: 'table', content: [] } : { type: 'table', content: [{ type: 'tableRow', content: [] }] });
  let after: PmNode | null = null;
  (axis === 'row' ? deleteRow : deleteColumn)(info.state, (tr) => {
    after = tr.doc.nodeAt(rect.tableStart - 1);
  });
  return tableShape(((after as PmNode | null) ?? rect.table).toJSON() as PmJson);
}

function deletionRefusal(info: TableInfo, axis: 'row' | 'column'): TableRefusal | null {
  return tableTransitionViolation(tableShape(info.rect.table.toJSON() as PmJson), shapeAfterDeletion(info, axis));
}

/** Why the selected rows cannot be deleted, or null when they can. */
export function rowDeletionRefusal(info: TableInfo): TableRefusal | null {
  return deletionRefusal(info, 'row');
}

/** Why the selected columns cannot be deleted, or null when they can. */
export function columnDeletionRefusal(info: TableInfo): TableRefusal | null {
  return deletionRefusal(info, 'column');
}

export const canAddRow = (info: TableInfo) => info.rows < LIMITS.tableMaxSide;
export const canAddColumn = (info: TableInfo) => info.columns < LIMITS.tableMaxSide;

/** Whether a table of this size is allowed. */
export function validTableSize(rows: number, columns: number): boolean {
  const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= LIMITS.tableMaxSide;
  return ok(rows) && ok(columns);
}

/** The selected range as grid coordinates (top-left and bottom-right slots), for a chart. */
export function selectedRange(info: TableInfo): { from: CellRef; to: CellRef } {
  const { rect } = info;
  return { from: { row: rect.top, col: rect.left }, to: { row: rect.bottom - 1, col: rect.right - 1 } };
}

/** Whether the selected cell is a header cell (no code list there). */
export function selectedCellIsHeader(state: EditorState): boolean {
  const info = tableInfo(state);
  if (!info) return false;
  const { rect } = info;
  const pos = rect.map.map[rect.top * rect.map.width + rect.left];
  const cell = pos === undefined ? null : rect.table.nodeAt(pos);
  return cell?.type.name === 'tableHeader';
}
