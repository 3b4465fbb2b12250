import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { PmNode } from '../blocks/model.js';
import { blockStateViolations, contentViolations, newContentViolations, readsTables, subtreeMemo, topLevelTables } from './contentRules.js';
import { tableGrid, tableShape } from './tableGrid.js';
import { LIMITS } from '../limits.js';

const cell = (attrs: Record<string, unknown> = {}, type = 'tableCell'): PmNode => ({
  type,
  attrs: { colspan: 1, rowspan: 1, ...attrs },
  content: [{ type: 'paragraph' }],
});
const row = (cells: PmNode[]): PmNode => ({ type: 'tableRow', content: cells });
const grid = (rows: number, columns: number) => Array.from({ length: rows }, () => row(Array.from({ length: columns }, () => cell())));
const table = (uid: string, rows: PmNode[]): PmNode => ({ type: 'table', attrs: { blockUid: uid }, content: rows });
const doc = (...content: PmNode[]): PmNode => ({ type: 'doc', content });
const chart = (attrs: Record<string, unknown> = {}): PmNode => ({
  type: 'chart',
  attrs: {
    blockUid: 'c',
    name: 'Rate',
    label: 'Fig. 1',
    dataName: 'A',
    tableUid: 't',
    from: { row: 0, col: 0 },
    to: { row: 1, col: 1 },
    ...attrs,
  },
});
const rules = (after: PmNode, before?: PmNode) => contentViolations(after, before).map((v) => `${v.rule}:${v.blockUid}`);

describe('table size and nesting', () => {
  it('allows 1 to 30 rows and columns, refuses 0 or 31', () => {
    expect(rules(doc(table('t', grid(1, 1))))).toEqual([]);
    expect(rules(doc(table('t', grid(30, 30))))).toEqual([]);
    expect(contentViolations(doc(table('t', grid(1, 31))))).toEqual([{ rule: 'tableSize', blockUid: 't', rows: 1, columns: 31 }]);
    expect(contentViolations(doc(table('t', grid(31, 1))))).toEqual([{ rule: 'tableSize', blockUid: 't', rows: 31, columns: 1 }]);
    expect(rules(doc(table('t', [])))).toEqual(['tableSize:t']);
  });
  it('counts merged columns into the width', () => {
    expect(rules(doc(table('t', [row([cell({ colspan: 30 }), cell()])])))).toEqual(['tableSize:t']);
  });
  it('refuses a table in a table, also inside a list, naming the top-level block', () => {
    const nested = table('outer', [row([{ type: 'tableCell', content: [table('inner', grid(1, 1))] }])]);
    expect(rules(doc(nested))).toEqual(['tableInTable:outer']);
    expect(rules(doc({ type: 'bulletList', attrs: { blockUid: 'l' }, content: [{ type: 'listItem', content: [nested] }] }))).toEqual([
      'tableInTable:l',
    ]);
  });
});

describe('cell spans (merging needs two or more cells, consistently)', () => {
  it('accepts a merged cell that fits the grid', () => {
    expect(rules(doc(table('t', [row([cell({ colspan: 2, rowspan: 2 }), cell()]), row([cell()])])))).toEqual([]);
  });
  it('refuses spans that are not positive integers', () => {
    for (const bad of [0, -1, 1.5, '2', true])
      expect(rules(doc(table('t', [row([cell({ colspan: bad }), cell()])])))).toEqual(['cellSpans:t']);
  });
  it('refuses a rowspan past the last row and overlapping cells', () => {
    expect(rules(doc(table('t', [row([cell({ rowspan: 2 }), cell()])])))).toEqual(['cellSpans:t']);
    // Spans that fit, in rows of unequal width (the editor fills short rows itself).
    expect(
      rules(
        doc(table('t', [row([cell({ rowspan: 2 }), cell({ rowspan: 2 })]), row([cell({ colspan: 2 })]), row([cell(), cell(), cell()])])),
      ),
    ).toEqual([]);
    const overlapping = table('t', [row([cell(), cell({ rowspan: 2 })]), row([cell({ colspan: 2 })])]);
    expect(tableShape(overlapping).spanProblem).toBe(true);
    expect(rules(doc(overlapping))).toEqual(['cellSpans:t']);
  });
});

describe('a table laid out (tableShape, tableGrid)', () => {
  // 2x1 merged at (0,0), a 1x2 merged at (0,2); the second row's first free slots are 0 and 1.
  const laidOut = table('t', [row([cell({ colspan: 2 }), cell({ rowspan: 2 })]), row([cell(), cell()])]);
  it('reads its size, its merged spans in document order and no span problem', () => {
    expect(tableShape(laidOut)).toEqual({ height: 2, width: 3, spanProblem: false, mergedSpans: '2x1,1x2' });
    expect(tableShape(table('t', grid(3, 4)))).toEqual({ height: 3, width: 4, spanProblem: false, mergedSpans: '' });
  });
  it('keeps nothing per cell in the shape; the grid adds every cell in the slot it starts in', () => {
    expect(Object.keys(tableShape(table('t', grid(30, 30)))).sort()).toEqual(['height', 'mergedSpans', 'spanProblem', 'width']);
    const { cells, ...shape } = tableGrid(laidOut);
    expect(shape).toEqual(tableShape(laidOut));
    expect(cells.map(({ row, col, colspan, rowspan }) => [row, col, colspan, rowspan])).toEqual([
      [0, 0, 2, 1],
      [0, 2, 1, 2],
      [1, 0, 1, 1],
      [1, 1, 1, 1],
    ]);
    expect(cells[0]!.node).toBe(laidOut.content![0]!.content![0]);
  });
});

describe('deleting rows and columns (transition rules)', () => {
  const merged = table('t', [row([cell({ colspan: 2 }), cell()]), row([cell(), cell(), cell()]), row([cell(), cell(), cell()])]);
  it('refuses removing the last row or column, but not deleting the whole table', () => {
    expect(rules(doc(table('t', [])), doc(table('t', grid(1, 2))))).toContain('lastRow:t');
    expect(rules(doc(table('t', [row([])])), doc(table('t', grid(1, 2))))).toContain('lastColumn:t');
    expect(rules(doc({ type: 'paragraph', attrs: { blockUid: 'p' } }), doc(table('t', grid(1, 2))))).toEqual([]);
  });
  it('lets rows and columns no merged cell touches go', () => {
    expect(rules(doc(table('t', [merged.content![0]!, merged.content![1]!])), doc(merged))).toEqual([]);
    expect(rules(doc(table('t', grid(2, 2))), doc(table('t', grid(3, 3))))).toEqual([]);
  });
  it('refuses deleting a row or column a merged cell touches', () => {
    expect(rules(doc(table('t', [merged.content![1]!, merged.content![2]!])), doc(merged))).toEqual(['mergedCells:t']);
    // Column 1 deleted: the merged cell shrinks to one column.
    const shrunk = table('t', [row([cell(), cell()]), row([cell(), cell()]), row([cell(), cell()])]);
    expect(rules(doc(shrunk), doc(merged))).toEqual(['mergedCells:t']);
  });
  it('agrees with deleting random rows of random merged tables: refused exactly when a merged cell touched them', () => {
    // A grid of single cells with one two-column merged cell at (top, 0) spanning `rowspan` rows.
    const build = (height: number, width: number, merged: { top: number; rowspan: number } | null) =>
      Array.from({ length: height }, (_, r) => {
        if (merged && r === merged.top)
          return row([cell({ colspan: 2, rowspan: merged.rowspan }), ...Array.from({ length: width - 2 }, () => cell())]);
        const covered = merged !== null && r > merged.top && r < merged.top + merged.rowspan;
        return row(Array.from({ length: covered ? width - 2 : width }, () => cell()));
      });
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 2, max: 6 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        (height, width, seedTop, seedSpan, seedDel) => {
          const top = seedTop % (height - 1);
          const rowspan = 1 + (seedSpan % (height - top));
          const deleted = seedDel % height;
          const touched = deleted >= top && deleted < top + rowspan;
          // What prosemirror-tables' removeRow leaves: a touched merged cell shrinks by a row or goes.
          const remaining = touched
            ? rowspan > 1
              ? { top, rowspan: rowspan - 1 }
              : null
            : { top: deleted < top ? top - 1 : top, rowspan };
          const before = doc(table('t', build(height, width, { top, rowspan })));
          const after = doc(table('t', build(height - 1, width, remaining)));
          expect(rules(after, before).includes('mergedCells:t')).toBe(touched);
        },
      ),
    );
  });
});

describe('dropboxes', () => {
  const units = { dropboxNo: 3, title: 'Units', code: null, name: null, seal: 's'.repeat(43) };
  const chosen = { ...units, code: 'mg', name: 'milligram' };

  it('allows one dropbox reference per body cell, with or without a chosen row, and none in a header cell', () => {
    expect(rules(doc(table('t', [row([cell({ dropbox: units }), cell({ dropbox: chosen }), cell({ dropbox: null })])])))).toEqual([]);
    expect(rules(doc(table('t', [row([cell({ dropbox: chosen }, 'tableHeader')])])))).toEqual(['dropboxHeader:t']);
    expect(rules(doc(table('t', [row([cell({ dropbox: null }, 'tableHeader'), cell({ dropbox: '' }, 'tableHeader')])])))).toEqual([]);
  });

  it('keeps the older form, a dropbox named by title, valid in body cells only', () => {
    expect(rules(doc(table('t', [row([cell({ dropbox: 'units' })])])))).toEqual([]);
    expect(rules(doc(table('t', [row([cell({ dropbox: 'units' }, 'tableHeader')])])))).toEqual(['dropboxHeader:t']);
  });

  it('refuses anything else as a cell dropbox', () => {
    const invalid: unknown[] = [
      ['a', 'b'],
      7,
      { ...units, dropboxNo: 0 },
      { ...units, dropboxNo: '3' },
      { ...units, title: '' },
      { ...units, title: 'x'.repeat(LIMITS.dropboxName + 1) },
      { ...units, code: 'mg' },
      { ...chosen, name: null },
      { ...chosen, code: 'c'.repeat(LIMITS.dropboxCode + 1) },
      { ...chosen, name: 'n'.repeat(LIMITS.dropboxRowName + 1) },
      { ...chosen, extra: true },
      { ...chosen, seal: undefined },
      { ...chosen, seal: 'short' },
      { ...chosen, seal: 's'.repeat(42) + '=' },
      'x'.repeat(LIMITS.dropboxName + 1),
    ];
    for (const dropbox of invalid)
      expect(rules(doc(table('t', [row([cell({ dropbox })])]))), JSON.stringify(dropbox)).toEqual(['dropboxValue:t']);
  });
});

describe('schema blocks', () => {
  const attrs = {
    blockUid: 's',
    schemasTypeNo: 1,
    schemaNo: 2,
    typeTitle: 'Reagent',
    title: 'Sodium chloride',
    revision: 3,
    entries: [{ field: 'CAS', value: '7647-14-5' }],
    seal: 'S'.repeat(43),
  };
  const block = (changes: Record<string, unknown>) => doc({ type: 'schemaBlock', attrs: { ...attrs, ...changes } });

  it('accept a copy of up to the entries a schema may hold, empty too', () => {
    expect(rules(block({}))).toEqual([]);
    expect(rules(block({ entries: [] }))).toEqual([]);
    const full = Array.from({ length: LIMITS.schemaEntriesPerSchema }, (_, i) => ({
      field: `f${i}`,
      value: 'v'.repeat(LIMITS.schemaValue),
    }));
    expect(rules(block({ entries: full }))).toEqual([]);
  });

  it('refuse a block that does not say where it came from, or holds entries a schema could not', () => {
    const entry = attrs.entries[0];
    const invalid: Record<string, unknown>[] = [
      { schemaNo: null },
      { schemasTypeNo: 0 },
      { revision: 1.5 },
      { title: '' },
      { typeTitle: 'x'.repeat(LIMITS.schemaTypeName + 1) },
      { title: 'x'.repeat(LIMITS.schemaName + 1) },
      { entries: 'CAS' },
      { seal: undefined },
      { seal: 'not a seal' },
      { entries: [{ ...entry, field: 'f'.repeat(LIMITS.schemaField + 1) }] },
      { entries: [{ ...entry, value: 'v'.repeat(LIMITS.schemaValue + 1) }] },
      { entries: [{ ...entry, value: '' }] },
      { entries: [{ ...entry, status: 'Y' }] },
      { entries: Array.from({ length: LIMITS.schemaEntriesPerSchema + 1 }, (_, i) => ({ field: `f${i}`, value: 'v' })) },
    ];
    for (const changes of invalid) expect(rules(block(changes)), JSON.stringify(changes).slice(0, 80)).toEqual(['schemaBlock:s']);
  });

  it('stand at the top level only', () => {
    expect(rules(doc(table('t', [row([{ type: 'tableCell', content: [{ type: 'schemaBlock', attrs }] }])])))).toEqual(['schemaBlock:t']);
  });
});

describe('dates', () => {
  it('stand at the top level only', () => {
    const date = { type: 'date', attrs: { value: '2026-11-23' } };
    expect(rules(doc({ ...date, attrs: { ...date.attrs, blockUid: 'd' } }))).toEqual([]);
    expect(rules(doc(table('t', [row([{ type: 'tableCell', content: [date] }])])))).toEqual(['datePlacement:t']);
    expect(rules(doc({ type: 'blockquote', attrs: { blockUid: 'q' }, content: [date] }))).toEqual(['datePlacement:q']);
  });
});

describe('charts', () => {
  const source = table('t', grid(3, 3));
  it('accept a named multi-cell range inside a top-level table', () => {
    expect(rules(doc(source, chart()))).toEqual([]);
    expect(rules(doc(source, chart({ from: { row: 2, col: 0 }, to: { row: 0, col: 0 } })))).toEqual([]);
  });
  it('need a name, a label and a data name', () => {
    for (const field of ['name', 'label', 'dataName']) expect(rules(doc(source, chart({ [field]: '  ' })))).toEqual(['chartFields:c']);
  });
  it('need two or more cells of an existing table, still inside it', () => {
    expect(rules(doc(source, chart({ to: { row: 0, col: 0 } })))).toEqual(['chartRange:c']);
    expect(rules(doc(source, chart({ tableUid: 'gone' })))).toEqual(['chartRange:c']);
    expect(rules(doc(source, chart({ to: { row: 3, col: 1 } })))).toEqual(['chartRange:c']);
    expect(rules(doc(source, chart({ from: 'A1' })))).toEqual(['chartRange:c']);
    expect(rules(doc(chart()))).toEqual(['chartRange:c']);
  });
  it('make shrinking or deleting the table under a chart a new violation', () => {
    expect(newContentViolations(doc(table('t', grid(1, 3)), chart()), doc(source, chart())).map((v) => v.rule)).toEqual(['chartRange']);
    expect(newContentViolations(doc(chart()), doc(source, chart())).map((v) => v.rule)).toEqual(['chartRange']);
  });
});

describe('images', () => {
  it('limit titles to 30 characters', () => {
    expect(rules(doc({ type: 'image', attrs: { blockUid: 'i', title: 'x'.repeat(30) } }))).toEqual([]);
    expect(rules(doc({ type: 'image', attrs: { blockUid: 'i', title: 'x'.repeat(31) } }))).toEqual(['imageTitle:i']);
  });
});

describe('new violations', () => {
  const wide = doc(table('t', grid(1, 31)), { type: 'paragraph', attrs: { blockUid: 'p' } });
  it('let a document that already breaks a rule be edited without breaking it more', () => {
    const edited = doc(table('t', grid(1, 31)), { type: 'paragraph', attrs: { blockUid: 'p' }, content: [{ type: 'text', text: 'more' }] });
    expect(newContentViolations(edited, wide)).toEqual([]);
  });
  it('count a second breach of the same rule as new', () => {
    const twice = doc(table('t', grid(1, 31)), table('u', grid(1, 31)));
    expect(newContentViolations(twice, wide)).toEqual([{ rule: 'tableSize', blockUid: 'u', rows: 1, columns: 31 }]);
  });
  it('never report anything for a document compared with itself when it keeps the rules', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 30 }), (rows, columns) => {
        const valid = doc(table('t', grid(rows, columns)));
        expect(contentViolations(valid, valid)).toEqual([]);
      }),
    );
  });
});

describe('judging with a memo of unchanged subtrees (the server keeps one for its live snapshots)', () => {
  const units = { dropboxNo: 3, title: 'Units', code: null, name: null, seal: 's'.repeat(43) };
  /** A copy of `node` with its cell at (r, c) replaced, every other subtree the same object (as the server's snapshots reuse them). */
  const withCell = (node: PmNode, r: number, c: number, replacement: PmNode): PmNode => ({
    ...node,
    content: node.content!.map((tableRow, i) =>
      i === r ? { ...tableRow, content: tableRow.content!.map((old, j) => (j === c ? replacement : old)) } : tableRow,
    ),
  });
  /** Makes reading a node's children throw from now on (the node keeps its identity, so a memo still knows it). */
  const sealed = (node: PmNode): void => {
    Object.defineProperty(node, 'content', {
      get: () => {
        throw new Error(`a ${node.type} read again`);
      },
    });
  };
  const judge = (block: PmNode, memo?: ReturnType<typeof subtreeMemo>) => {
    const tables = topLevelTables([block]);
    return blockStateViolations(block, tables, tableShape, memo);
  };

  it('answers what judging without one does, as cells change one by one', () => {
    const memo = subtreeMemo();
    let block = table('t', [
      row([cell(), cell({ dropbox: units }, 'tableHeader'), cell()]),
      row([cell(), cell(), cell()]),
      row([cell(), cell(), cell()]),
    ]);
    const changes: Array<[number, number, PmNode]> = [
      [1, 0, cell({ dropbox: 7 })],
      [1, 1, { type: 'tableCell', content: [table('inner', grid(1, 1))] }],
      [0, 0, { type: 'tableCell', content: [{ type: 'paragraph', content: [{ type: 'date', attrs: { value: '2026-01-01' } }] }] }],
      [2, 0, { type: 'tableCell', content: [chart({ tableUid: 't', name: '' })] }],
      [2, 1, { type: 'tableCell', content: [chart({ tableUid: 't', to: { row: 5, col: 5 } })] }],
      [0, 1, cell()],
      [2, 2, cell({ rowspan: 2 })],
    ];
    expect(judge(block, memo)).toEqual(judge(block));
    for (const [r, c, replacement] of changes) {
      block = withCell(block, r, c, replacement);
      expect(judge(block, memo)).toEqual(judge(block));
      expect(readsTables(block, memo)).toBe(readsTables(block));
    }
    expect(judge(block).map((v) => v.rule)).toEqual([
      'tableInTable',
      'cellSpans',
      'datePlacement',
      'dropboxValue',
      'chartFields',
      'chartRange',
    ]);
  });

  it('judges a chart inside a table afresh when the table it reads changes, the chart unchanged', () => {
    const memo = subtreeMemo();
    const holder = table('h', [row([{ type: 'tableCell', content: [chart({ tableUid: 't', to: { row: 2, col: 2 } })] }])]);
    const judgeBeside = (other: PmNode) => blockStateViolations(holder, topLevelTables([other, holder]), tableShape, memo);
    expect(judgeBeside(table('t', grid(3, 3)))).toEqual([]);
    expect(judgeBeside(table('t', grid(2, 2)))).toEqual([{ rule: 'chartRange', blockUid: 'h' }]);
    expect(readsTables(holder, memo)).toBe(true);
  });

  it('walks only the changed path: unchanged cells are not read again', () => {
    const memo = subtreeMemo();
    const block = table('t', grid(30, 30));
    expect(judge(block, memo)).toEqual([]);
    expect(readsTables(block, memo)).toBe(false);
    for (const tableRow of block.content!) for (const old of tableRow.content!) sealed(old);
    const changed = withCell(block, 14, 14, cell({ dropbox: 7 }));
    expect(judge(changed, memo)).toEqual([{ rule: 'dropboxValue', blockUid: 't' }]);
    expect(readsTables(changed, memo)).toBe(false);
    // Without the memo the same judgement reads every cell.
    expect(() => judge(changed)).toThrow(/read again/);
  });
});
