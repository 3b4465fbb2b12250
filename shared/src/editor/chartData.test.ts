import { describe, expect, it } from 'vitest';
import type { PmNode } from '../blocks/model.js';
import { cellNumber, chartCells, chartData, textGrid } from './chartData.js';

function tableJson(rows: string[][], spans: Record<string, { colspan?: number; rowspan?: number }> = {}): PmNode {
  return {
    type: 'table',
    attrs: { blockUid: 'ttable0000000001' },
    content: rows.map((row, r) => ({
      type: 'tableRow',
      content: row.map((text, c) => ({
        type: r === 0 ? 'tableHeader' : 'tableCell',
        attrs: { colspan: spans[`${r},${c}`]?.colspan ?? 1, rowspan: spans[`${r},${c}`]?.rowspan ?? 1 },
        content: [{ type: 'paragraph', content: text ? [{ type: 'text', text }] : [] }],
      })),
    })),
  };
}

describe('chart data', () => {
  const table = tableJson([
    ['Sample', 'OD', 'pH'],
    ['A', '0.42', '7.1'],
    ['B', '1,058.5', 'n/a'],
    ['C', '0.71', '7.3'],
  ]);

  it('lays out merged cells on the grid', () => {
    const merged = tableJson(
      [
        ['h1', 'h2', 'h3'],
        ['wide', 'x'],
        ['tall', 'y', 'z'],
        ['p', 'q'],
      ],
      { '1,0': { colspan: 2 }, '2,0': { rowspan: 2 } },
    );
    expect(textGrid(merged)).toEqual([
      ['h1', 'h2', 'h3'],
      ['wide', '', 'x'],
      ['tall', 'y', 'z'],
      ['', 'p', 'q'],
    ]);
  });

  it('reads numbers leniently and leaves gaps for text', () => {
    expect(cellNumber(' 1,234.5 ')).toBe(1234.5);
    expect(cellNumber('-2e3')).toBe(-2000);
    expect(cellNumber('12%')).toBe(12);
    expect(cellNumber('n/a')).toBeNull();
    expect(cellNumber('')).toBeNull();
  });

  it('vertical: the first column labels, each other column a series', () => {
    expect(chartData(table, { row: 1, col: 0 }, { row: 3, col: 2 }, 'vertical', 'Run')).toEqual({
      labels: ['A', 'B', 'C'],
      series: [
        { name: 'Run 1', values: [0.42, 1058.5, 0.71] },
        { name: 'Run 2', values: [7.1, null, 7.3] },
      ],
    });
  });

  it('horizontal: the first row labels, each other row a series; a range given in any corner order', () => {
    expect(chartData(table, { row: 1, col: 2 }, { row: 0, col: 0 }, 'horizontal', 'OD')).toEqual({
      labels: ['Sample', 'OD', 'pH'],
      series: [{ name: 'OD', values: [null, 0.42, 7.1] }],
    });
  });

  it('a single line is one series labelled 1..n; a range outside the table gives nothing', () => {
    expect(chartData(table, { row: 1, col: 1 }, { row: 3, col: 1 }, 'vertical', 'OD')).toEqual({
      labels: ['1', '2', '3'],
      series: [{ name: 'OD', values: [0.42, 1058.5, 0.71] }],
    });
    expect(chartData(table, { row: 9, col: 9 }, { row: 12, col: 12 }, 'vertical', 'OD')).toBeNull();
  });

  it("keeps the text of each value's cell as written, for a printed data table", () => {
    expect(chartCells(table, { row: 1, col: 0 }, { row: 3, col: 2 }, 'vertical', 'Run')?.series.map((s) => s.texts)).toEqual([
      ['0.42', '1,058.5', '0.71'],
      ['7.1', 'n/a', '7.3'],
    ]);
  });
});
