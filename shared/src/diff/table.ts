import type { BlockTable, TableCell } from '../blocks/model.js';
import { alignSequences, type Aligned } from './align.js';
import type { BlockDetail, CellChange, CellValue } from './model.js';
import { diffText } from './text.js';

type TableDetail = Extract<BlockDetail, { kind: 'table' }>;

/** A slot of a table's grid: the cell that covers it, and whether the slot is that cell's top-left one. */
interface Slot {
  cell: TableCell;
  origin: boolean;
  /** The cell's comparison key (its text, span and dropbox choice). */
  key: string;
}

interface Grid {
  rows: Array<Array<Slot | undefined>>;
  columns: number;
  headerRows: number;
}

const cellKey = (cell: TableCell) =>
  [cell.text, cell.colspan, cell.rowspan, cell.dropbox?.title ?? '', cell.dropbox?.code ?? '', cell.dropbox?.name ?? ''].join('\u0001');

/** A cell where the editor lays it out: its row (header rows first) and the grid column its top-left slot is in. */
export interface PlacedCell {
  cell: TableCell;
  row: number;
  col: number;
}

/**
 * The table's cells row by row as the editor lays them out: each cell in the first slot of its row that
 * no cell above spans into, spanning its slots. Screens draw a compared table with it, so that a cell
 * change's row and column name the cell they drew.
 */
export function tableLayout(table: BlockTable): { rows: PlacedCell[][]; columns: number; headerRows: number } {
  const source = [...table.header, ...table.body];
  const taken: boolean[][] = source.map(() => []);
  let columns = 0;
  const rows = source.map((cells, r) => {
    let col = 0;
    return cells.map((cell) => {
      while (taken[r]![col]) col += 1;
      for (let dr = 0; dr < cell.rowspan && r + dr < source.length; dr += 1)
        for (let dc = 0; dc < cell.colspan; dc += 1) taken[r + dr]![col + dc] = true;
      const placed = { cell, row: r, col };
      col += cell.colspan;
      columns = Math.max(columns, col);
      return placed;
    });
  });
  return { rows, columns, headerRows: table.header.length };
}

/** The table's grid: every slot with the cell that covers it. */
function gridOf(table: BlockTable): Grid {
  const layout = tableLayout(table);
  const rows: Array<Array<Slot | undefined>> = layout.rows.map(() => []);
  for (const { cell, row, col } of layout.rows.flat()) {
    const key = cellKey(cell);
    for (let dr = 0; dr < cell.rowspan && row + dr < rows.length; dr += 1)
      for (let dc = 0; dc < cell.colspan; dc += 1) rows[row + dr]![col + dc] ??= { cell, origin: dr === 0 && dc === 0, key };
  }
  return { rows, columns: layout.columns, headerRows: layout.headerRows };
}

/** A slot's key for aligning rows and columns: a covered slot says so, so a merge changes its row and column. */
const slotKey = (slot: Slot | undefined) => (slot === undefined ? '\u0002' : slot.origin ? slot.key : `\u0003${slot.key}`);
const rowKey = (grid: Grid, r: number) => Array.from({ length: grid.columns }, (_, c) => slotKey(grid.rows[r]![c])).join('\u0000');
const columnSlots = (grid: Grid, c: number) => grid.rows.map((row) => slotKey(row[c]));
const columnKey = (grid: Grid, c: number) => columnSlots(grid, c).join('\u0000');

const valueOf = (cell: TableCell): CellValue => ({
  text: cell.text,
  colspan: cell.colspan,
  rowspan: cell.rowspan,
  dropbox: cell.dropbox ? { title: cell.dropbox.title, code: cell.dropbox.code, name: cell.dropbox.name } : null,
});

const sameDropbox = (a: TableCell, b: TableCell) =>
  (a.dropbox?.title ?? null) === (b.dropbox?.title ?? null) &&
  (a.dropbox?.code ?? null) === (b.dropbox?.code ?? null) &&
  (a.dropbox?.name ?? null) === (b.dropbox?.name ?? null);

/** The difference of two slots the comparison paired, or null when they show the same. */
function slotChange(
  before: Slot | undefined,
  after: Slot | undefined,
  place: Omit<CellChange, 'kind' | 'before' | 'after' | 'text' | 'spanChanged' | 'dropboxChanged'>,
): CellChange | null {
  const own = (slot: Slot | undefined) => (slot?.origin ? slot.cell : null);
  const older = own(before);
  const newer = own(after);
  if (!older && !newer) return null;
  if (older && newer) {
    if (older === newer || cellKey(older) === cellKey(newer)) return null;
    const textChanged = older.text !== newer.text;
    return {
      kind: 'changed',
      ...place,
      before: valueOf(older),
      after: valueOf(newer),
      text: textChanged ? diffText(older.text, newer.text) : null,
      spanChanged: older.colspan !== newer.colspan || older.rowspan !== newer.rowspan,
      dropboxChanged: !sameDropbox(older, newer),
    };
  }
  return {
    kind: newer ? 'added' : 'removed',
    ...place,
    before: older ? valueOf(older) : null,
    after: newer ? valueOf(newer) : null,
    text: null,
    spanChanged: false,
    dropboxChanged: false,
  };
}

const paired = (aligned: Aligned[]) => aligned.filter((x): x is { before: number; after: number } => x.before !== null && x.after !== null);

/**
 * Two versions of a table compared cell by cell: columns and then rows paired by their content (so an
 * inserted or deleted row or column is one, not a shift of everything after it), and every pair of
 * paired slots compared, merged cells included (a span that changed, a cell merged away or split off).
 */
export function diffTables(before: BlockTable, after: BlockTable): TableDetail {
  const older = gridOf(before);
  const newer = gridOf(after);
  // Columns first, alike by the cells they share wherever they stand (rows may have come and gone);
  // then rows, alike by the slots they share in the paired columns.
  const sameSlot = (rb: number, cb: number, ra: number, ca: number) => slotKey(older.rows[rb]?.[cb]) === slotKey(newer.rows[ra]?.[ca]);
  const columns = alignSequences(
    Array.from({ length: older.columns }, (_, c) => columnKey(older, c)),
    Array.from({ length: newer.columns }, (_, c) => columnKey(newer, c)),
    (cb, ca) => sharedCount(columnSlots(older, cb), columnSlots(newer, ca)),
  );
  const columnPairs = paired(columns);
  const rows = alignSequences(
    older.rows.map((_, r) => rowKey(older, r)),
    newer.rows.map((_, r) => rowKey(newer, r)),
    (rb, ra) => countWhere(columnPairs.length, (i) => sameSlot(rb, columnPairs[i]!.before, ra, columnPairs[i]!.after)),
  );
  const cells: CellChange[] = [];
  for (const row of paired(rows))
    for (const column of columnPairs) {
      const change = slotChange(older.rows[row.before]![column.before], newer.rows[row.after]![column.after], {
        beforeRow: row.before,
        beforeCol: column.before,
        row: row.after,
        col: column.after,
      });
      if (change) cells.push(change);
    }
  const rowsAdded = rows.flatMap((x) => (x.before === null && x.after !== null ? [x.after] : []));
  const rowsRemoved = rows.flatMap((x) => (x.after === null && x.before !== null ? [x.before] : []));
  const columnsAdded = columns.flatMap((x) => (x.before === null && x.after !== null ? [x.after] : []));
  const columnsRemoved = columns.flatMap((x) => (x.after === null && x.before !== null ? [x.before] : []));
  const sizeOf = (grid: Grid) => ({ rows: grid.rows.length, columns: grid.columns, headerRows: grid.headerRows });
  const structural = rowsAdded.length + rowsRemoved.length + columnsAdded.length + columnsRemoved.length + cells.length;
  return {
    kind: 'table',
    before: sizeOf(older),
    after: sizeOf(newer),
    rowsAdded,
    rowsRemoved,
    columnsAdded,
    columnsRemoved,
    cells,
    formatting: structural === 0 && older.headerRows === newer.headerRows,
  };
}

/** How many of `a`'s items `b` has too, each of `b`'s counted once. */
function sharedCount(a: readonly string[], b: readonly string[]): number {
  const left = new Map<string, number>();
  for (const key of b) left.set(key, (left.get(key) ?? 0) + 1);
  let count = 0;
  for (const key of a) {
    const n = left.get(key) ?? 0;
    if (n > 0) {
      count += 1;
      left.set(key, n - 1);
    }
  }
  return count;
}

function countWhere(length: number, test: (index: number) => boolean): number {
  let count = 0;
  for (let i = 0; i < length; i += 1) if (test(i)) count += 1;
  return count;
}
