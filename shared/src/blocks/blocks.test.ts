import { describe, expect, it } from 'vitest';
import { BLOCK_UID_PATTERN, newBlockUid } from './ids.js';
import { blocksToDoc, canonicalBlockList, differsFromSaved, docToBlocks, docToSavedBlocks, normalizeNode } from './convert.js';
import { contentViolations } from '../editor/contentRules.js';
import type { PmNode } from './model.js';

const SEAL = 'S'.repeat(43);

const p = (uid: string, text: string, marks?: PmNode['marks']): PmNode => ({
  type: 'paragraph',
  attrs: { blockUid: uid, textAlign: null },
  content: [{ type: 'text', text, ...(marks ? { marks } : {}) }],
});
const cell = (text: string, attrs: Record<string, unknown> = {}, type = 'tableCell'): PmNode => ({
  type,
  attrs: { colspan: 1, rowspan: 1, colwidth: null, ...attrs },
  content: [{ type: 'paragraph', content: text ? [{ type: 'text', text }] : [] }],
});
const table = (uid: string, rows: PmNode[][]): PmNode => ({
  type: 'table',
  attrs: { blockUid: uid },
  content: rows.map((cells) => ({ type: 'tableRow', content: cells })),
});
const doc = (...content: PmNode[]): PmNode => ({ type: 'doc', content });

describe('block ids', () => {
  it('are a letter, random text and a time stamp', () => {
    const uid = newBlockUid(Date.UTC(2026, 10, 22));
    expect(uid).toMatch(BLOCK_UID_PATTERN);
    expect(uid.endsWith(Date.UTC(2026, 10, 22).toString(36))).toBe(true);
    expect(newBlockUid()).not.toBe(newBlockUid());
  });
});

describe('docToBlocks', () => {
  const saved = docToSavedBlocks(
    doc(
      { type: 'heading', attrs: { blockUid: 'h1', level: 2 }, content: [{ type: 'text', text: 'Aim' }] },
      p('p1', 'Measure the rate.'),
      p('p2', 'To be removed.'),
    ),
    'LABNOTE',
  );

  it('keeps ids, order, classes and content of every kind of text block', () => {
    expect(saved.map((b) => [b.blockUid, b.type, b.blockClass, b.blockOdr])).toEqual([
      ['h1', 'text', 'heading-2', 1],
      ['p1', 'text', 'paragraph', 2],
      ['p2', 'text', 'paragraph', 3],
    ]);
    expect(JSON.parse(saved[1]!.content)).toEqual({
      type: 'paragraph',
      attrs: { blockUid: 'p1' },
      content: [{ type: 'text', text: 'Measure the rate.' }],
    });
  });

  it('marks new, edited, unchanged and deleted blocks against the saved version', () => {
    const blocks = docToBlocks(
      doc(
        p('p0', 'New first line.'),
        { type: 'heading', attrs: { blockUid: 'h1', level: 2 }, content: [{ type: 'text', text: 'Aim' }] },
        p('p1', 'Measure the rate.', [{ type: 'bold' }]),
      ),
      'LABNOTE',
      saved,
    );
    expect(blocks.map((b) => [b.blockUid, b.blockStatus, b.blockOdr])).toEqual([
      ['p0', 'ADD', 1],
      ['h1', 'NORMAL', 2],
      ['p1', 'EDIT', 3],
      ['p2', 'DELETE', 3],
    ]);
  });

  it('ignores noise: null attributes, empty marks and key order', () => {
    const noisy: PmNode = {
      type: 'paragraph',
      content: [{ text: 'Measure the rate.', type: 'text', marks: [] }],
      attrs: { textAlign: null, blockUid: 'p1' },
    };
    const blocks = docToBlocks(
      doc(saved[0] ? JSON.parse(saved[0].content) : p('x', ''), noisy, p('p2', 'To be removed.')),
      'LABNOTE',
      saved,
    );
    expect(blocks.every((b) => b.blockStatus === 'NORMAL')).toBe(true);
    expect(
      differsFromSaved(
        docToSavedBlocks(doc(saved[0] ? JSON.parse(saved[0].content) : p('x', ''), noisy, p('p2', 'To be removed.')), 'LABNOTE'),
        saved,
      ),
    ).toBe(false);
  });

  it('notices a reorder even though no block changed', () => {
    const reordered = docToSavedBlocks(
      doc(
        p('p1', 'Measure the rate.'),
        { type: 'heading', attrs: { blockUid: 'h1', level: 2 }, content: [{ type: 'text', text: 'Aim' }] },
        p('p2', 'To be removed.'),
      ),
      'LABNOTE',
    );
    expect(differsFromSaved(reordered, saved)).toBe(true);
  });

  it('turns a table into header and body cells with spans and dropboxes', () => {
    const [block] = docToSavedBlocks(
      doc(
        table('t1', [
          [cell('Sample', {}, 'tableHeader'), cell('pH', {}, 'tableHeader')],
          [cell('A', { colspan: 2, dropbox: { dropboxNo: 4, title: 'Samples', code: 'S1', name: 'Serum', seal: SEAL } })],
          [cell('B', { dropbox: 'SAMPLES' }), cell('7.2')],
        ]),
      ),
      'TEMPLATE',
    );
    expect(block).toMatchObject({ type: 'table', blockClass: 'table', noteType: 'TEMPLATE' });
    expect(block?.blockTable).toEqual({
      header: [
        [
          { text: 'Sample', colspan: 1, rowspan: 1, dropbox: null },
          { text: 'pH', colspan: 1, rowspan: 1, dropbox: null },
        ],
      ],
      body: [
        [{ text: 'A', colspan: 2, rowspan: 1, dropbox: { dropboxNo: 4, title: 'Samples', code: 'S1', name: 'Serum', seal: SEAL } }],
        [
          { text: 'B', colspan: 1, rowspan: 1, dropbox: { dropboxNo: null, title: 'SAMPLES', code: null, name: null, seal: '' } },
          { text: '7.2', colspan: 1, rowspan: 1, dropbox: null },
        ],
      ],
    });
  });

  it('knows charts, images, files and dates as their own block types', () => {
    const blocks = docToSavedBlocks(
      doc(
        { type: 'chart', attrs: { blockUid: 'c1', chartType: 'line', name: 'Rate', tableUid: 't1' } },
        { type: 'image', attrs: { blockUid: 'i1', fileId: 'f-1', title: 'Gel' } },
        { type: 'fileAttachment', attrs: { blockUid: 'f1', fileId: 'f-2', name: 'raw.xlsx' } },
        { type: 'date', attrs: { blockUid: 'd1', value: '2026-11-22' } },
      ),
      'LABNOTE',
    );
    expect(blocks.map((b) => [b.type, b.blockClass])).toEqual([
      ['chart', 'chart-line'],
      ['image', 'image'],
      ['file', 'fileAttachment'],
      ['date', 'date'],
    ]);
  });

  it('gives a block without an id a stable stand-in', () => {
    const a = docToSavedBlocks(doc({ type: 'paragraph', content: [{ type: 'text', text: 'x' }] }), 'LABNOTE');
    const b = docToSavedBlocks(doc({ type: 'paragraph', content: [{ type: 'text', text: 'x' }] }), 'LABNOTE');
    expect(a[0]?.blockUid).toBe(b[0]?.blockUid);
  });

  it('hashes the same list to the same canonical text whatever the key order', () => {
    const reversed = saved.map((b) => Object.fromEntries(Object.entries(b).reverse()) as typeof b);
    expect(canonicalBlockList(reversed)).toBe(canonicalBlockList(saved));
  });

  it('normalizes nested content', () => {
    expect(normalizeNode({ type: 'bulletList', attrs: {}, content: [{ type: 'listItem', marks: [], content: [p('z', 'item')] }] })).toEqual(
      {
        type: 'bulletList',
        content: [
          { type: 'listItem', content: [{ type: 'paragraph', attrs: { blockUid: 'z' }, content: [{ type: 'text', text: 'item' }] }] },
        ],
      },
    );
  });
});

describe('content rules', () => {
  const row = (n: number) => Array.from({ length: n }, () => cell('x'));
  it('allow tables of 1 to 30 per side and refuse larger or nested ones', () => {
    expect(
      contentViolations(
        doc(
          table(
            'ok',
            Array.from({ length: 30 }, () => row(30)),
          ),
        ),
      ),
    ).toEqual([]);
    expect(
      contentViolations(
        doc(
          table(
            'big',
            Array.from({ length: 31 }, () => row(2)),
          ),
        ),
      ),
    ).toEqual([{ rule: 'tableSize', blockUid: 'big', rows: 31, columns: 2 }]);
    expect(contentViolations(doc(table('wide', [row(31)])))[0]).toMatchObject({ rule: 'tableSize', columns: 31 });
    const nested = table('outer', [[{ type: 'tableCell', content: [table('inner', [row(1)])] }]]);
    expect(contentViolations(doc(nested))).toEqual([{ rule: 'tableInTable', blockUid: 'outer' }]);
  });
  it('limit image titles to 30 characters', () => {
    expect(contentViolations(doc({ type: 'image', attrs: { blockUid: 'i', title: 'x'.repeat(31) } }))).toEqual([
      { rule: 'imageTitle', blockUid: 'i' },
    ]);
    expect(contentViolations(doc({ type: 'image', attrs: { blockUid: 'i', title: 'x'.repeat(30) } }))).toEqual([]);
  });
});

describe('round trips: document → blocks → document, for every kind of block', () => {
  const everyKind = doc(
    { type: 'heading', attrs: { blockUid: 'rt-h', level: 1 }, content: [{ type: 'text', text: 'Kinetics' }] },
    p('rt-p', 'Bold and red', [{ type: 'bold' }, { type: 'textStyle', attrs: { color: '#d00000' } }]),
    {
      type: 'bulletList',
      attrs: { blockUid: 'rt-l' },
      content: [
        {
          type: 'listItem',
          content: [
            {
              type: 'paragraph',
              content: [{ type: 'text', text: 'item', marks: [{ type: 'underline' }, { type: 'strike' }, { type: 'italic' }] }],
            },
          ],
        },
      ],
    },
    {
      type: 'orderedList',
      attrs: { blockUid: 'rt-o', start: 1 },
      content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'first' }] }] }],
    },
    table('rt-t', [
      [cell('Sample', {}, 'tableHeader'), cell('pH', {}, 'tableHeader')],
      [cell('A', { colspan: 2, dropbox: { dropboxNo: 4, title: 'Samples', code: 'S1', name: 'Serum', seal: SEAL } })],
      [cell('B', { dropbox: 'SAMPLES' }), cell('C', { dropbox: { dropboxNo: 4, title: 'Samples', code: null, name: null, seal: SEAL } })],
    ]),
    {
      type: 'chart',
      attrs: {
        blockUid: 'rt-c',
        chartType: 'scatter',
        name: 'Rate',
        xLabel: 't',
        yLabel: 'c',
        dataName: 'run 1',
        label: 'Fig. 1',
        direction: 'vertical',
        tableUid: 'rt-t',
        from: { row: 1, col: 0 },
        to: { row: 1, col: 1 },
      },
    },
    { type: 'image', attrs: { blockUid: 'rt-i', fileId: '00000000-0000-4000-8000-000000000000', title: 'Gel' } },
    {
      type: 'fileAttachment',
      attrs: { blockUid: 'rt-f', fileId: '00000000-0000-4000-8000-000000000001', name: 'raw.xlsx', size: 2048, extension: 'xlsx' },
    },
    { type: 'date', attrs: { blockUid: 'rt-d', value: '2026-11-22' } },
    {
      type: 'schemaBlock',
      attrs: {
        blockUid: 'rt-s',
        schemasTypeNo: 1,
        schemaNo: 2,
        typeTitle: 'Reagent',
        title: 'NaCl',
        revision: 3,
        entries: [{ field: 'CAS', value: '7647-14-5' }],
        seal: SEAL,
      },
    },
  );

  it('rebuilds the same document from its blocks', () => {
    const blocks = docToSavedBlocks(everyKind, 'LABNOTE');
    expect(blocks.map((b) => b.type)).toEqual(['text', 'text', 'text', 'text', 'table', 'chart', 'image', 'file', 'date', 'schema']);
    expect(blocksToDoc(blocks)).toEqual(normalizeNode(everyKind));
  });

  it('gives the same blocks again from the rebuilt document, even shuffled', () => {
    const blocks = docToSavedBlocks(everyKind, 'LABNOTE');
    const shuffled = [...blocks].reverse();
    expect(docToSavedBlocks(blocksToDoc(shuffled), 'LABNOTE')).toEqual(blocks);
    expect(docToBlocks(blocksToDoc(blocks), 'LABNOTE', blocks).every((b) => b.blockStatus === 'NORMAL')).toBe(true);
  });
});
