import { textOf } from '../blocks/convert.js';
import { NODE, type PmNode } from '../blocks/model.js';
import type { CellRef, ChartDirection } from './nodes.js';
import { tableGrid } from './tableGrid.js';

/**
 * Pure, shared by the browser's chart and the server's HTML rendering (which prints a chart as its data
 * table), so that both read the same numbers from the same cells.
 *
 * A chart reads its numbers from a rectangle of a table. The table is laid out as a grid first (merged
 * cells occupy every slot they cover; the text sits in their top-left slot), then the rectangle is read:
 *
 * - vertical: one series per column. When the rectangle has two or more columns, its first column holds
 *   the category labels and every other column is a series; a single column is one series labelled 1..n.
 * - horizontal: the same, turned: one series per row, the first row holds the labels.
 *
 * A series is named after the chart's data name (numbered when there are several). Cells that are not
 * numbers are gaps.
 */

export interface ChartSeries {
  name: string;
  values: Array<number | null>;
}

export interface ChartData {
  labels: string[];
  series: ChartSeries[];
}

/** The text of every slot of the table's grid (rows x columns); slots covered by a merged cell are ''. */
export function textGrid(table: PmNode): string[][] {
  const grid = tableGrid(table);
  const out = Array.from({ length: grid.height }, () => Array.from({ length: grid.width }, () => ''));
  for (const cell of grid.cells) {
    const row = out[cell.row];
    if (row) row[cell.col] = (cell.node.content ?? []).map(textOf).join(' ').trim();
  }
  return out;
}

/** A number from a cell's text ("1,234.5", " 3 ", "-2e3"), or null. */
export function cellNumber(text: string): number | null {
  const cleaned = text.replace(/[,\s]/g, '');
  if (!cleaned || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?%?$/i.test(cleaned)) return null;
  const value = Number.parseFloat(cleaned);
  return Number.isFinite(value) ? value : null;
}

/** The rectangle between two cells, in either order, clipped to the grid; null when nothing is left. */
export function clipRange(
  grid: string[][],
  from: CellRef,
  to: CellRef,
): { top: number; left: number; bottom: number; right: number } | null {
  const height = grid.length;
  const width = grid[0]?.length ?? 0;
  const top = Math.min(from.row, to.row);
  const left = Math.min(from.col, to.col);
  const bottom = Math.min(Math.max(from.row, to.row), height - 1);
  const right = Math.min(Math.max(from.col, to.col), width - 1);
  if (top > bottom || left > right) return null;
  return { top, left, bottom, right };
}

/** A series with the text of each of its cells as written ("0.10", "1,058.5", "n/a"), for printing. */
export interface ChartSeriesCells extends ChartSeries {
  texts: string[];
}

/** The chart's labels and series, each value with its cell's text, or null when the range is no longer inside the table. */
export function chartCells(
  table: PmNode,
  from: CellRef,
  to: CellRef,
  direction: ChartDirection,
  dataName: string,
): { labels: string[]; series: ChartSeriesCells[] } | null {
  const grid = textGrid(table);
  const range = clipRange(grid, from, to);
  if (!range) return null;
  // Lines run along the series: columns when vertical, rows when horizontal.
  const lines: string[][] = [];
  if (direction === 'vertical') {
    for (let c = range.left; c <= range.right; c += 1) {
      const line: string[] = [];
      for (let r = range.top; r <= range.bottom; r += 1) line.push(grid[r]?.[c] ?? '');
      lines.push(line);
    }
  } else {
    for (let r = range.top; r <= range.bottom; r += 1) lines.push((grid[r] ?? []).slice(range.left, range.right + 1));
  }
  const [first, ...rest] = lines;
  if (!first) return null;
  const labelled = rest.length > 0;
  const labels = labelled ? first.map((text, i) => text || String(i + 1)) : first.map((_, i) => String(i + 1));
  const seriesLines = labelled ? rest : [first];
  const series = seriesLines.map((line, i) => ({
    name: seriesLines.length === 1 ? dataName : `${dataName} ${i + 1}`,
    values: line.map(cellNumber),
    texts: line,
  }));
  return { labels, series };
}

/** The chart's labels and series from `table`, or null when the range is no longer inside the table. */
export function chartData(table: PmNode, from: CellRef, to: CellRef, direction: ChartDirection, dataName: string): ChartData | null {
  const cells = chartCells(table, from, to, direction, dataName);
  return cells && { labels: cells.labels, series: cells.series.map(({ name, values }) => ({ name, values })) };
}

/** Finds the top-level table whose blockUid is `uid` in a document. */
export function findTable(doc: PmNode, uid: string): PmNode | null {
  return (doc.content ?? []).find((node) => node.type === NODE.table && node.attrs?.blockUid === uid) ?? null;
}
