import { NODE, type PmNode } from '../blocks/model.js';

/**
 * A table's grid read from its ProseMirror JSON, as prosemirror-tables' TableMap lays it out: rows top
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

export interface TableGrid {
  height: number;
  width: number;
  cells: GridCell[];
  /** A span that is not a positive integer, that overlaps another cell or that runs past the last row. */
  spanProblem: boolean;
}

const isCell = (node: PmNode) => node.type === NODE.tableCell || node.type === NODE.tableHeader;

/** A span attribute: absent means 1; anything but a positive integer is a problem (read as 1). */
function spanOf(value: unknown): { span: number; ok: boolean } {
  if (value === undefined || value === null) return { span: 1, ok: true };
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return { span: value, ok: true };
  return { span: 1, ok: false };
}

export function tableGrid(table: PmNode): TableGrid {
  const rows = table.content ?? [];
  const taken: boolean[][] = rows.map(() => []);
  const cells: GridCell[] = [];
  let spanProblem = false;
  let width = 0;
  rows.forEach((row, r) => {
    let col = 0;
    for (const node of (row.content ?? []).filter(isCell)) {
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
      cells.push({ node, row: r, col, colspan: colspan.span, rowspan: rowspan.span });
      col += colspan.span;
      width = Math.max(width, col);
    }
  });
  return { height: rows.length, width, cells, spanProblem };
}

export const isMergedCell = (cell: GridCell) => cell.colspan > 1 || cell.rowspan > 1;

/** The merged cells' spans in document order: unchanged by deleting rows or columns that touch none. */
export function mergedSignature(grid: TableGrid): string {
  return grid.cells
    .filter(isMergedCell)
    .map((cell) => `${cell.colspan}x${cell.rowspan}`)
    .join(',');
}
