import { NODE, type PmNode } from '../blocks/model.js';

/**
 * A table's layout read from its ProseMirror JSON, as prosemirror-tables' TableMap lays it out: rows top
 * to bottom, each cell in the first free slot of its row, spanning `colspan` × `rowspan` slots. Kept
 * here (not TableMap) so that the rules stay pure JSON functions the server runs without an editor.
 */
export interface GridCell {
  node: PmNode;
  row: number;
  col: number;
  colspan: number;
  rowspan: number;
}

/**
 * What the content rules read of a table's layout. Nothing per cell: the server keeps the shape of a
 * table until the table changes, and a keystroke in a cell changes it, so a shape holding a 30 x 30
 * table's 900 cells was rebuilt and kept per keystroke (copied by every young collection it lived through).
 */
export interface TableShape {
  height: number;
  width: number;
  /** A span that is not a positive integer, that overlaps another cell or that runs past the last row. */
  spanProblem: boolean;
  /** The merged cells' spans in document order (`2x1,1x3`): unchanged by deleting rows or columns that touch none. */
  mergedSpans: string;
}

/** The shape with every cell where it lies (for reading the table's text by slot). */
export interface TableGrid extends TableShape {
  cells: GridCell[];
}

const isCell = (node: PmNode) => node.type === NODE.tableCell || node.type === NODE.tableHeader;

/** A span attribute: absent means 1; anything but a positive integer is a problem (read as 1). */
function spanOf(value: unknown): { span: number; ok: boolean } {
  if (value === undefined || value === null) return { span: 1, ok: true };
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return { span: value, ok: true };
  return { span: 1, ok: false };
}

/** Lays the table out, handing each cell with its place to `place` when given. */
function layOut(table: PmNode, place?: (cell: GridCell) => void): TableShape {
  const rows = table.content ?? [];
  const taken: boolean[][] = rows.map(() => []);
  const merged: string[] = [];
  let spanProblem = false;
  let width = 0;
  rows.forEach((row, r) => {
    let col = 0;
    for (const node of row.content ?? []) {
      if (!isCell(node)) continue;
      while (taken[r]?.[col]) col += 1;
      const colspan = spanOf(node.attrs?.colspan);
      const rowspan = spanOf(node.attrs?.rowspan);
      if (!colspan.ok || !rowspan.ok || r + rowspan.span > rows.length) spanProblem = true;
      for (let dr = 0; dr < rowspan.span && r + dr < rows.length; dr += 1) {
        const line = taken[r + dr] as boolean[];
        for (let dc = 0; dc < colspan.span; dc += 1) {
          if (line[col + dc]) spanProblem = true;
          line[col + dc] = true;
        }
      }
      if (colspan.span > 1 || rowspan.span > 1) merged.push(`${colspan.span}x${rowspan.span}`);
      place?.({ node, row: r, col, colspan: colspan.span, rowspan: rowspan.span });
      col += colspan.span;
      width = Math.max(width, col);
    }
  });
  return { height: rows.length, width, spanProblem, mergedSpans: merged.join(',') };
}

/** What the content rules read of the table. */
export function tableShape(table: PmNode): TableShape {
  return layOut(table);
}

/** The table's shape and its cells where they lie. */
export function tableGrid(table: PmNode): TableGrid {
  const cells: GridCell[] = [];
  return { ...layOut(table, (cell) => cells.push(cell)), cells };
}
