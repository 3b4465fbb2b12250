import { describe, expect, it } from 'vitest';
import { docToSavedBlocks } from '../blocks/convert.js';
import type { PmNode, SavedBlock } from '../blocks/model.js';
import { BLOCK_NODE_TYPES, BLOCK_NODES, type BlockNodeName } from '../editor/blockNodes.js';
import SHARED_EN from '../i18n/en.js';
import SHARED_JA from '../i18n/ja.js';
import SHARED_KO from '../i18n/ko.js';
import { diffBlockLists, summarizeChanges } from './blocks.js';
import { blockListDiff, type BlockChange, type BlockDetail, type CellChange } from './model.js';
import { summaryLine } from './summary.js';
import { diffText, textTokens } from './text.js';

const text = (value: string, marks?: PmNode['marks']): PmNode => ({ type: 'text', text: value, ...(marks ? { marks } : {}) });
const para = (value: string): PmNode => ({ type: 'paragraph', content: value ? [text(value)] : [] });
const p = (uid: string, value: string): PmNode => ({ type: 'paragraph', attrs: { blockUid: uid }, content: [text(value)] });
const list = (type: 'bulletList' | 'orderedList', uid: string, items: PmNode[][]): PmNode => ({
  type,
  attrs: { blockUid: uid },
  content: items.map((content) => ({ type: 'listItem', content: [{ type: 'paragraph', content }] })),
});
const cell = (value: string, attrs: Record<string, unknown> = {}): PmNode => ({
  type: 'tableCell',
  attrs: { colspan: 1, rowspan: 1, ...attrs },
  content: [para(value)],
});
const header = (value: string): PmNode => ({ ...cell(value), type: 'tableHeader' });
const table = (uid: string, rows: PmNode[][]): PmNode => ({
  type: 'table',
  attrs: { blockUid: uid },
  content: rows.map((cells) => ({ type: 'tableRow', content: cells })),
});
const grid = (uid: string, texts: string[][]) =>
  table(
    uid,
    texts.map((row) => row.map((value) => cell(value))),
  );
const atom = (type: string, uid: string, attrs: Record<string, unknown>): PmNode => ({ type, attrs: { blockUid: uid, ...attrs } });
const SEAL = 'S'.repeat(43);
const dropbox = (code: string | null, name: string | null) => ({ dropboxNo: 3, title: 'Solvents', code, name, seal: SEAL });
const schemaBlock = (uid: string, revision: number, entries: Array<[string, string]>): PmNode =>
  atom('schemaBlock', uid, {
    schemasTypeNo: 1,
    schemaNo: 7,
    typeTitle: 'Reagent',
    title: 'Sodium chloride',
    revision,
    seal: SEAL,
    entries: entries.map(([field, value]) => ({ field, value })),
  });

const blocks = (...nodes: PmNode[]): SavedBlock[] => docToSavedBlocks({ type: 'doc', content: nodes }, 'LABNOTE');
/** The one change of a comparison of one block with its next state. */
const changeOf = (before: PmNode, after: PmNode): BlockChange => {
  const { changes } = diffBlockLists(blocks(before), blocks(after));
  expect(changes).toHaveLength(1);
  return changes[0]!;
};
const detailOf = <K extends BlockDetail['kind']>(before: PmNode, after: PmNode, kind: K): Extract<BlockDetail, { kind: K }> => {
  const change = changeOf(before, after);
  expect(change.kind).toBe('changed');
  expect(change.detail?.kind).toBe(kind);
  return change.detail as Extract<BlockDetail, { kind: K }>;
};

/**
 * A fixture for every block node of the editor: a block before and after an edit of the kind that node
 * has, and what the comparison must say of it. Keyed by BLOCK_NODES, so a new block node without a
 * fixture fails to compile, and the test below fails too.
 */
const FIXTURES: Record<BlockNodeName, { before: PmNode; after: PmNode; check: (change: BlockChange) => void }> = {
  paragraph: {
    before: p('u', 'The solution turned pale yellow.'),
    after: p('u', 'The solution turned deep yellow after 5 min.'),
    check: (change) =>
      expect(change.detail).toEqual({
        kind: 'text',
        parts: [
          { kind: 'same', text: 'The solution turned ' },
          { kind: 'removed', text: 'pale' },
          { kind: 'added', text: 'deep' },
          { kind: 'same', text: ' yellow' },
          { kind: 'added', text: ' after 5 min' },
          { kind: 'same', text: '.' },
        ],
        blockClass: null,
        formatting: false,
      }),
  },
  heading: {
    before: { type: 'heading', attrs: { blockUid: 'u', level: 2 }, content: [text('Method')] },
    after: { type: 'heading', attrs: { blockUid: 'u', level: 3 }, content: [text('Methods')] },
    check: (change) =>
      expect(change.detail).toEqual({
        kind: 'text',
        parts: [
          { kind: 'removed', text: 'Method' },
          { kind: 'added', text: 'Methods' },
        ],
        blockClass: { before: 'heading-2', after: 'heading-3' },
        formatting: false,
      }),
  },
  bulletList: {
    before: list('bulletList', 'u', [[text('Weigh 5 g')], [text('Dissolve')]]),
    after: list('bulletList', 'u', [[text('Weigh 5.5 g')], [text('Dissolve')], [text('Filter')]]),
    check: (change) =>
      expect(change.detail).toMatchObject({
        kind: 'text',
        parts: [
          { kind: 'same', text: 'Weigh ' },
          { kind: 'removed', text: '5' },
          { kind: 'added', text: '5.5' },
          { kind: 'same', text: ' g\nDissolve' },
          { kind: 'added', text: '\nFilter' },
        ],
      }),
  },
  orderedList: {
    before: list('orderedList', 'u', [[text('Centrifuge')]]),
    after: list('orderedList', 'u', [[text('Centrifuge', [{ type: 'bold' }])]]),
    // The same words, only bold now.
    check: (change) =>
      expect(change.detail).toEqual({ kind: 'text', parts: [{ kind: 'same', text: 'Centrifuge' }], blockClass: null, formatting: true }),
  },
  blockquote: {
    before: { type: 'blockquote', attrs: { blockUid: 'u' }, content: [para('Keep on ice.')] },
    after: { type: 'blockquote', attrs: { blockUid: 'u' }, content: [para('Keep at 4 °C.')] },
    check: (change) =>
      expect(change.detail).toMatchObject({
        kind: 'text',
        parts: [
          { kind: 'same', text: 'Keep ' },
          { kind: 'removed', text: 'on ice' },
          { kind: 'added', text: 'at 4 °C' },
          { kind: 'same', text: '.' },
        ],
      }),
  },
  codeBlock: {
    before: { type: 'codeBlock', attrs: { blockUid: 'u', language: 'python' }, content: [text('x = 1\ny = 2')] },
    after: { type: 'codeBlock', attrs: { blockUid: 'u', language: 'python' }, content: [text('x = 1\ny = 3')] },
    check: (change) =>
      expect(change.detail).toMatchObject({
        kind: 'text',
        parts: [
          { kind: 'same', text: 'x = 1\ny = ' },
          { kind: 'removed', text: '2' },
          { kind: 'added', text: '3' },
        ],
      }),
  },
  // A rule has nothing to edit: a heading took its place under the same ID.
  horizontalRule: {
    before: { type: 'horizontalRule', attrs: { blockUid: 'u' } },
    after: { type: 'paragraph', attrs: { blockUid: 'u' }, content: [text('Results')] },
    check: (change) =>
      expect(change.detail).toEqual({
        kind: 'text',
        parts: [{ kind: 'added', text: 'Results' }],
        blockClass: { before: 'horizontalRule', after: 'paragraph' },
        formatting: false,
      }),
  },
  table: {
    before: grid('u', [
      ['Sample', 'pH'],
      ['A', '7.0'],
    ]),
    after: grid('u', [
      ['Sample', 'pH'],
      ['A', '7.4'],
    ]),
    check: (change) =>
      expect(change.detail).toMatchObject({
        kind: 'table',
        rowsAdded: [],
        rowsRemoved: [],
        cells: [
          {
            kind: 'changed',
            row: 1,
            col: 1,
            text: [
              { kind: 'removed', text: '7.0' },
              { kind: 'added', text: '7.4' },
            ],
          },
        ],
      }),
  },
  chart: {
    before: atom('chart', 'u', { chartType: 'bar', name: 'Growth', tableUid: 't', from: { row: 0, col: 0 }, to: { row: 4, col: 1 } }),
    after: atom('chart', 'u', { chartType: 'line', name: 'Growth', tableUid: 't', from: { row: 0, col: 0 }, to: { row: 6, col: 1 } }),
    check: (change) =>
      expect(change.detail).toEqual({
        kind: 'fields',
        fields: [
          { field: 'chartType', before: 'bar', after: 'line' },
          { field: 'range', before: 'R1C1:R5C2', after: 'R1C1:R7C2' },
        ],
        formatting: false,
      }),
  },
  image: {
    before: atom('image', 'u', { fileId: 'f-1', title: 'Gel' }),
    after: atom('image', 'u', { fileId: 'f-2', title: 'Gel' }),
    check: (change) =>
      expect(change.detail).toEqual({ kind: 'fields', fields: [{ field: 'fileId', before: 'f-1', after: 'f-2' }], formatting: false }),
  },
  fileAttachment: {
    before: atom('fileAttachment', 'u', { fileId: 'f-1', name: 'raw.xlsx', size: 1200, extension: 'xlsx' }),
    after: atom('fileAttachment', 'u', { fileId: 'f-3', name: 'raw.xlsx', size: 1350, extension: 'xlsx' }),
    check: (change) =>
      expect(change.detail).toMatchObject({
        kind: 'fields',
        fields: [
          { field: 'fileId', before: 'f-1', after: 'f-3' },
          { field: 'size', before: '1200', after: '1350' },
        ],
      }),
  },
  date: {
    before: atom('date', 'u', { value: '2026-03-01' }),
    after: atom('date', 'u', { value: '2026-03-02' }),
    check: (change) =>
      expect(change.detail).toEqual({
        kind: 'fields',
        fields: [{ field: 'value', before: '2026-03-01', after: '2026-03-02' }],
        formatting: false,
      }),
  },
  schemaBlock: {
    before: schemaBlock('u', 2, [
      ['Purity', '99%'],
      ['Supplier', 'Acme'],
      ['Lot', 'L-1'],
    ]),
    after: schemaBlock('u', 3, [
      ['Purity', '99.5%'],
      ['Supplier', 'Acme'],
      ['CAS', '7647-14-5'],
    ]),
    check: (change) =>
      expect(change.detail).toEqual({
        kind: 'schema',
        fields: [{ field: 'revision', before: '2', after: '3' }],
        entries: [
          { field: 'Purity', before: '99%', after: '99.5%' },
          { field: 'CAS', before: null, after: '7647-14-5' },
          { field: 'Lot', before: 'L-1', after: null },
        ],
      }),
  },
};

describe('a fixture for every block node', () => {
  it('covers every node of BLOCK_NODES, and no other', () => {
    expect(Object.keys(FIXTURES).sort()).toEqual([...BLOCK_NODE_TYPES].sort());
  });

  for (const name of BLOCK_NODE_TYPES) {
    it(`${name} (${BLOCK_NODES[name]}): an edit is found and described`, () => {
      const fixture = FIXTURES[name];
      const change = changeOf(fixture.before, fixture.after);
      expect(change).toMatchObject({ kind: 'changed', moved: false, blockUid: 'u' });
      fixture.check(change);
      // Unchanged, added and removed, for every node too.
      expect(changeOf(fixture.after, fixture.after)).toMatchObject({ kind: 'unchanged', detail: null });
      expect(diffBlockLists([], blocks(fixture.after)).changes.map((c) => c.kind)).toEqual(['added']);
      expect(diffBlockLists(blocks(fixture.before), []).changes.map((c) => c.kind)).toEqual(['removed']);
    });
  }
});

describe('text, word by word', () => {
  it('takes Latin words and numbers whole, and each CJK character alone', () => {
    expect(textTokens('pH 7.4, 1,000 mg; don’t')).toEqual(['pH', ' ', '7.4', ',', ' ', '1,000', ' ', 'mg', ';', ' ', 'don’t']);
    expect(textTokens('용액을 37°C에서')).toEqual(['용', '액', '을', ' ', '37', '°', 'C', '에', '서']);
    expect(textTokens('試薬を加えた')).toEqual(['試', '薬', 'を', '加', 'え', 'た']);
    expect(textTokens('溶液变黄')).toEqual(['溶', '液', '变', '黄']);
  });

  it('compares Korean, Japanese and Chinese character by character', () => {
    expect(diffText('용액이 노랗게 변했다', '용액이 파랗게 변했다')).toEqual([
      { kind: 'same', text: '용액이 ' },
      { kind: 'removed', text: '노' },
      { kind: 'added', text: '파' },
      { kind: 'same', text: '랗게 변했다' },
    ]);
    expect(diffText('試薬を加えた', '試薬を少し加えた')).toEqual([
      { kind: 'same', text: '試薬を' },
      { kind: 'added', text: '少し' },
      { kind: 'same', text: '加えた' },
    ]);
    expect(diffText('溶液变黄', '溶液变红')).toEqual([
      { kind: 'same', text: '溶液变' },
      { kind: 'removed', text: '黄' },
      { kind: 'added', text: '红' },
    ]);
  });

  it('compares Latin words whole: a changed letter replaces the word', () => {
    expect(diffText('stir gently', 'stir gentle')).toEqual([
      { kind: 'same', text: 'stir ' },
      { kind: 'removed', text: 'gently' },
      { kind: 'added', text: 'gentle' },
    ]);
  });

  it('reads neighbouring replaced words as one replacement, and handles empty texts', () => {
    expect(diffText('the cat sat', 'a dog sat')).toEqual([
      { kind: 'removed', text: 'the cat' },
      { kind: 'added', text: 'a dog' },
      { kind: 'same', text: ' sat' },
    ]);
    expect(diffText('', 'new')).toEqual([{ kind: 'added', text: 'new' }]);
    expect(diffText('old', '')).toEqual([{ kind: 'removed', text: 'old' }]);
    expect(diffText('', '')).toEqual([]);
  });

  it('shows long texts too different to align word by word as one removal and one addition', () => {
    // Every other word is kept: aligned, they would show 6,000 kept words between the changes. Their
    // 12,000 edits are past the bound that keeps the cost of a comparison in check (its speed: `npm run
    // bench -- history`), so the whole older text is shown removed and the newer added.
    const older = Array.from({ length: 6000 }, (_, i) => `w${i} kept`).join(' ');
    const newer = Array.from({ length: 6000 }, (_, i) => `v${i} kept`).join(' ');
    expect(diffText(older, newer)).toEqual([
      { kind: 'removed', text: older },
      { kind: 'added', text: newer },
    ]);
    // Below the bound the same kind of change is aligned: the kept words stay kept.
    const few = (prefix: string) => Array.from({ length: 20 }, (_, i) => `${prefix}${i} kept`).join(' ');
    expect(diffText(few('w'), few('v')).filter((part) => part.kind === 'same').length).toBeGreaterThan(1);
  });
});

describe('tables, cell by cell', () => {
  const cellsOf = (before: PmNode, after: PmNode) => detailOf(before, after, 'table');

  it('finds a row added and a row removed without calling every row below changed', () => {
    const detail = cellsOf(
      grid('t', [
        ['a', '1'],
        ['b', '2'],
        ['c', '3'],
      ]),
      grid('t', [
        ['a', '1'],
        ['c', '3'],
        ['d', '4'],
      ]),
    );
    expect(detail).toMatchObject({ rowsRemoved: [1], rowsAdded: [2], columnsAdded: [], columnsRemoved: [], cells: [] });
  });

  it('finds a column added and a column removed, and a cell changed beside them', () => {
    const detail = cellsOf(
      grid('t', [
        ['Sample', 'Old', 'pH'],
        ['A', 'x', '7.0'],
      ]),
      grid('t', [
        ['Sample', 'pH', 'Temp'],
        ['A', '7.2', '37'],
      ]),
    );
    expect(detail).toMatchObject({
      before: { rows: 2, columns: 3 },
      after: { rows: 2, columns: 3 },
      columnsRemoved: [1],
      columnsAdded: [2],
      rowsAdded: [],
      rowsRemoved: [],
    });
    expect(detail.cells.map((c) => [c.kind, c.beforeRow, c.beforeCol, c.row, c.col, c.before?.text, c.after?.text])).toEqual([
      ['changed', 1, 2, 1, 1, '7.0', '7.2'],
    ]);
  });

  it('reports merged cells: a merge (span changed, cells merged away) and a split', () => {
    const plain = grid('t', [
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ]);
    const merged = table('t', [
      [cell('a b', { colspan: 2 }), cell('c')],
      [cell('d'), cell('e'), cell('f')],
    ]);
    const mergeChanges = cellsOf(plain, merged).cells.map(pick);
    expect(mergeChanges).toEqual([
      ['changed', 0, 0, 'a', 'a b', true],
      ['removed', 0, 1, 'b', null, false],
    ]);
    const splitChanges = cellsOf(merged, plain).cells.map(pick);
    expect(splitChanges).toEqual([
      ['changed', 0, 0, 'a b', 'a', true],
      ['added', 0, 1, null, 'b', false],
    ]);
    // A row span: the cell below is merged away, and its row still pairs with itself.
    const tall = table('t', [
      [cell('a', { rowspan: 2 }), cell('b'), cell('c')],
      [cell('e'), cell('f')],
    ]);
    const rowMerge = cellsOf(plain, tall);
    expect(rowMerge).toMatchObject({ rowsAdded: [], rowsRemoved: [], columnsAdded: [], columnsRemoved: [] });
    expect(rowMerge.cells.map(pick)).toEqual([
      ['changed', 0, 0, 'a', 'a', true],
      ['removed', 1, 0, 'd', null, false],
    ]);
    expect(rowMerge.cells[0]).toMatchObject({ before: { rowspan: 1 }, after: { rowspan: 2 }, text: null });
  });

  it('compares dropbox cells by their chosen value, not by their seal', () => {
    const withChoice = (code: string | null, name: string | null, seal = SEAL) =>
      table('t', [[cell('Solvent')], [cell('', { dropbox: { ...dropbox(code, name), seal } })]]);
    const detail = cellsOf(withChoice(null, null), withChoice('E', 'Ethanol'));
    expect(detail.cells).toMatchObject([
      {
        kind: 'changed',
        row: 1,
        col: 0,
        dropboxChanged: true,
        spanChanged: false,
        text: null,
        before: { dropbox: { title: 'Solvents', code: null, name: null } },
        after: { dropbox: { title: 'Solvents', code: 'E', name: 'Ethanol' } },
      },
    ]);
    // Sealed again with the same choice: the content differs, the value does not.
    expect(cellsOf(withChoice('E', 'Ethanol'), withChoice('E', 'Ethanol', 'T'.repeat(43)))).toMatchObject({ cells: [], formatting: true });
  });

  it('tells header rows, and calls a width or mark change formatting', () => {
    const plain = grid('t', [['a'], ['b']]);
    const headed = table('t', [[header('a')], [cell('b')]]);
    expect(cellsOf(plain, headed)).toMatchObject({ before: { headerRows: 0 }, after: { headerRows: 1 }, cells: [], formatting: false });
    const wide = table('t', [[cell('a', { colwidth: [200] })], [cell('b')]]);
    expect(cellsOf(plain, wide)).toMatchObject({ cells: [], formatting: true });
  });

  // Its speed is the note-history bench's (npm run bench -- history); a timed test here fails under load.
  it('compares a 30 x 30 table with one changed cell, naming only that cell', () => {
    const texts = Array.from({ length: 30 }, (_, r) => Array.from({ length: 30 }, (_, c) => `${r},${c}`));
    const edited = texts.map((row) => [...row]);
    edited[14]![14] = 'edited';
    const before = blocks(grid('t', texts));
    const after = blocks(grid('t', edited));
    const detail = diffBlockLists(before, after).changes[0]!.detail as Extract<BlockDetail, { kind: 'table' }>;
    expect(detail.cells.map(pick)).toEqual([['changed', 14, 14, '14,14', 'edited', false]]);
  });
});

const pick = (c: CellChange) => [c.kind, c.row, c.col, c.before?.text ?? null, c.after?.text ?? null, c.spanChanged];

describe('block lists', () => {
  const kinds = (before: SavedBlock[], after: SavedBlock[]) =>
    diffBlockLists(before, after).changes.map((c) => `${c.kind}${c.moved && c.kind !== 'moved' ? '+moved' : ''}:${c.blockUid}`);

  it('marks added, removed, changed and unchanged blocks, each removed one where it stood', () => {
    const before = blocks(p('a', 'Objective'), p('b', 'Old step'), p('c', 'Weigh'), p('d', 'Dispose'));
    const after = blocks(p('a', 'Objective'), p('c', 'Weigh 5 g'), p('e', 'New safety step'), p('d', 'Dispose'));
    expect(kinds(before, after)).toEqual(['unchanged:a', 'removed:b', 'changed:c', 'added:e', 'unchanged:d']);
  });

  it('calls a block moved only when its order relative to the kept blocks changed', () => {
    const before = blocks(p('a', 'A'), p('b', 'B'), p('c', 'C'), p('d', 'D'));
    // Pushed down by an insertion: not moved.
    expect(kinds(before, blocks(p('new', 'N'), p('a', 'A'), p('b', 'B'), p('c', 'C'), p('d', 'D')))).toEqual([
      'added:new',
      'unchanged:a',
      'unchanged:b',
      'unchanged:c',
      'unchanged:d',
    ]);
    // D brought to the top, and C both moved and edited.
    expect(kinds(before, blocks(p('d', 'D'), p('a', 'A'), p('b', 'B'), p('c', 'C!')))).toEqual([
      'moved:d',
      'unchanged:a',
      'unchanged:b',
      'changed:c',
    ]);
    const both = diffBlockLists(before, blocks(p('c', 'C!'), p('a', 'A'), p('b', 'B'), p('d', 'D')));
    expect(both.changes.map((c) => `${c.kind}${c.moved && c.kind !== 'moved' ? '+moved' : ''}:${c.blockUid}`)).toEqual([
      'changed+moved:c',
      'unchanged:a',
      'unchanged:b',
      'unchanged:d',
    ]);
    expect(both.summary).toEqual({ added: 0, changed: 1, removed: 0, moved: 1, unchanged: 3 });
  });

  it('keeps removed blocks in their old order around moved ones', () => {
    const before = blocks(p('a', 'A'), p('b', 'B'), p('c', 'C'));
    expect(kinds(before, blocks(p('c', 'C'), p('a', 'A')))).toEqual(['moved:c', 'unchanged:a', 'removed:b']);
  });

  it('reads the lists in blockOdr order, and matches a repeated ID once', () => {
    const before = blocks(p('a', 'A'), p('b', 'B'));
    expect(kinds([...before].reverse(), before)).toEqual(['unchanged:a', 'unchanged:b']);
    const twice = [...blocks(p('a', 'A'), p('a', 'A again'))];
    expect(kinds(blocks(p('a', 'A')), twice)).toEqual(['unchanged:a', 'added:a']);
  });

  it('answers plain data the route table describes, the same after a trip through JSON', () => {
    const before = blocks(p('a', '용액'), grid('t', [['1']]), atom('date', 'd', { value: '2026-01-01' }));
    const after = blocks(grid('t', [['2']]), p('a', '용액이'), atom('image', 'i', { fileId: 'f', title: '' }));
    const diff = diffBlockLists(before, after);
    expect(JSON.parse(JSON.stringify(diff))).toEqual(diff);
    expect(blockListDiff.parse(diff)).toEqual(diff);
    expect(diff.summary).toEqual({ added: 1, changed: 2, removed: 1, moved: 1, unchanged: 0 });
    expect(summarizeChanges(before, after)).toEqual(diff.summary);
  });
});

describe('the one-line summary', () => {
  const summary = { added: 2, changed: 1, removed: 0, moved: 1, unchanged: 5 };
  it('names the counts that are not zero, in every language', () => {
    expect(summaryLine(summary, SHARED_EN.history.changes)).toBe('2 added, 1 changed, 1 moved');
    expect(summaryLine(summary, SHARED_KO.history.changes)).toBe('추가 2, 변경 1, 이동 1');
    expect(summaryLine(summary, SHARED_JA.history.changes)).toBe('追加 2、変更 1、移動 1');
    expect(summaryLine({ added: 0, changed: 0, removed: 0, moved: 0, unchanged: 3 }, SHARED_EN.history.changes)).toBe('No changes');
  });
});
