import type { Node as PmNode } from '@tiptap/pm/model';
import type { EditorState } from '@tiptap/pm/state';
import { CellSelection, isInTable, selectedRect, TableMap, type TableRect } from '@tiptap/pm/tables';
import { LIMITS } from '@eln/shared';
import type { CellRef } from '@eln/shared/editor';

/**
 * The spec's table rules, decided on the editor state: 1 to 30 rows and columns, never removing the last
 * row or column, merged cells block deleting the rows or columns they touch, merging needs two or more
 * cells, no table inside a table, and a chart needs a range of two or more cells.
 */

export interface TableInfo {
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
  const uid = $table.depth === 0 ? rect.table.attrs.blockUid : null;
  return {
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

/** The cells (node and attributes) inside a rectangle of the table. */
function cellsIn(table: PmNode, map: TableMap, rect: { left: number; top: number; right: number; bottom: number }): PmNode[] {
  return map
    .cellsInRect(rect)
    .map((pos) => table.nodeAt(pos))
    .filter((node): node is PmNode => node !== null);
}

const isMerged = (cell: PmNode) => Number(cell.attrs.colspan ?? 1) > 1 || Number(cell.attrs.rowspan ?? 1) > 1;

export type TableRefusal = 'lastRow' | 'lastColumn' | 'mergedCells' | 'tooBig';

/** Why the selected rows cannot be deleted, or null when they can. */
export function rowDeletionRefusal(info: TableInfo): TableRefusal | null {
  const { rect } = info;
  if (rect.bottom - rect.top >= info.rows) return 'lastRow';
  const touched = cellsIn(rect.table, rect.map, { left: 0, right: rect.map.width, top: rect.top, bottom: rect.bottom });
  return touched.some(isMerged) ? 'mergedCells' : null;
}

/** Why the selected columns cannot be deleted, or null when they can. */
export function columnDeletionRefusal(info: TableInfo): TableRefusal | null {
  const { rect } = info;
  if (rect.right - rect.left >= info.columns) return 'lastColumn';
  const touched = cellsIn(rect.table, rect.map, { left: rect.left, right: rect.right, top: 0, bottom: rect.map.height });
  return touched.some(isMerged) ? 'mergedCells' : null;
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
