import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import { contentViolations, CONTENT_FIELD, docToSavedBlocks, type PmNode } from '@eln/shared';
import { schemaViolation } from '@eln/shared/editor';
import { contentSnapshot, snapshotOfState } from './contentSnapshots.js';
import { snapshotViolationsBetween, violationsBetween } from '../guard/shadowCopies.js';

const fullJson = (doc: Y.Doc) => yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(CONTENT_FIELD)) as PmNode;

function cellElement(kind: string, text: string, attrs: Record<string, unknown>): Y.XmlElement {
  const cell = new Y.XmlElement(kind);
  for (const [name, value] of Object.entries(attrs)) cell.setAttribute(name, value as string);
  const paragraph = new Y.XmlElement('paragraph');
  paragraph.insert(0, [new Y.XmlText(text)]);
  cell.insert(0, [paragraph]);
  return cell;
}

function tableElement(uid: string, rows: number, columns: number): Y.XmlElement {
  const table = new Y.XmlElement('table');
  table.setAttribute('blockUid', uid);
  for (let r = 0; r < rows; r += 1) {
    const row = new Y.XmlElement('tableRow');
    row.insert(
      0,
      Array.from({ length: columns }, (_, c) => cellElement(r === 0 ? 'tableHeader' : 'tableCell', `${r},${c}`, {})),
    );
    table.insert(r, [row]);
  }
  return table;
}

/** One random edit of a note, as a client speaking Yjs directly could make it (valid or not). */
const edit = fc.oneof(
  fc.record({
    kind: fc.constant('paragraph' as const),
    at: fc.nat(),
    text: fc.string({ maxLength: 6 }),
    uid: fc.constantFrom('p1', 'p2', 'p3'),
  }),
  fc.record({ kind: fc.constant('heading' as const), at: fc.nat(), level: fc.constantFrom(1, 2, 7, '2') }),
  fc.record({
    kind: fc.constant('table' as const),
    at: fc.nat(),
    uid: fc.constantFrom('t1', 't2'),
    rows: fc.integer({ min: 0, max: 3 }),
    columns: fc.integer({ min: 0, max: 3 }),
  }),
  fc.record({
    kind: fc.constant('chart' as const),
    at: fc.nat(),
    tableUid: fc.constantFrom('t1', 't2', 'none'),
    to: fc.record({ row: fc.nat(3), col: fc.nat(3) }),
    named: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('date' as const), at: fc.nat(), nested: fc.boolean() }),
  fc.record({ kind: fc.constant('image' as const), at: fc.nat(), title: fc.string({ maxLength: 3 }), long: fc.boolean() }),
  fc.record({ kind: fc.constant('unknown' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('cell' as const),
    at: fc.nat(),
    pick: fc.nat(),
    attr: fc.constantFrom('colspan', 'rowspan', 'dropbox', 'onclick'),
    value: fc.constantFrom(1, 2, 0, 'x', '', null),
  }),
  fc.record({ kind: fc.constant('type' as const), at: fc.nat(), pick: fc.nat(), text: fc.string({ minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('row' as const), at: fc.nat(), remove: fc.boolean() }),
  fc.record({ kind: fc.constant('column' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('nestedTable' as const), at: fc.nat(), pick: fc.nat() }),
  fc.record({ kind: fc.constant('headerDropbox' as const), at: fc.nat() }),
  // Formats on a text run: known marks, a mark attribute the schema does not know, a mark it does not know.
  fc.record({
    kind: fc.constant('mark' as const),
    at: fc.nat(),
    pick: fc.nat(),
    mark: fc.constantFrom<[string, unknown]>(
      ['bold', true],
      ['italic', {}],
      ['textStyle', { color: '#f00' }],
      ['textStyle', { bogus: 1 }],
      ['blink', true],
    ),
  }),
  // Inside a cell: what is judged by the cell alone (a date, a long image title) and what reads the note's tables (a chart).
  fc.record({ kind: fc.constant('inCell' as const), at: fc.nat(), pick: fc.nat(), what: fc.constantFrom('chart', 'date', 'image') }),
);
type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

const blocksOf = (doc: Y.Doc) => doc.getXmlFragment(CONTENT_FIELD);
const tables = (doc: Y.Doc) =>
  blocksOf(doc)
    .toArray()
    .filter((node): node is Y.XmlElement => node instanceof Y.XmlElement && node.nodeName === 'table');
const cellsOf = (table: Y.XmlElement) =>
  table
    .toArray()
    .flatMap((row) => (row instanceof Y.XmlElement ? row.toArray() : []))
    .filter((c): c is Y.XmlElement => c instanceof Y.XmlElement);

function apply(doc: Y.Doc, change: Edit): void {
  const fragment = blocksOf(doc);
  const at = change.at % (fragment.length + 1);
  const element = (name: string, attrs: Record<string, unknown>) => {
    const node = new Y.XmlElement(name);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value as string);
    return node;
  };
  const table = tables(doc)[change.at % Math.max(1, tables(doc).length)];
  switch (change.kind) {
    case 'paragraph': {
      const paragraph = element('paragraph', { blockUid: change.uid });
      paragraph.insert(0, [new Y.XmlText(change.text)]);
      fragment.insert(at, [paragraph]);
      return;
    }
    case 'heading': {
      const heading = element('heading', { level: change.level });
      heading.insert(0, [new Y.XmlText('Title')]);
      fragment.insert(at, [heading]);
      return;
    }
    case 'table':
      fragment.insert(at, [tableElement(change.uid, change.rows, change.columns)]);
      return;
    case 'chart': {
      const names = change.named ? { name: 'n', label: 'l', dataName: 'd' } : {};
      fragment.insert(at, [
        element('chart', {
          blockUid: 'c1',
          tableUid: change.tableUid,
          from: { row: 0, col: 0 },
          to: { row: change.to.row, col: change.to.col },
          ...names,
        }),
      ]);
      return;
    }
    case 'date':
      if (change.nested) {
        const paragraph = element('paragraph', {});
        paragraph.insert(0, [element('date', { value: '2026-01-01' })]);
        fragment.insert(at, [paragraph]);
      } else fragment.insert(at, [element('date', { value: '2026-01-01' })]);
      return;
    case 'image':
      fragment.insert(at, [element('image', { src: '/f/1', title: change.long ? 'x'.repeat(300) : change.title })]);
      return;
    case 'unknown':
      fragment.insert(at, [element('bogus', {})]);
      return;
    case 'delete':
      if (fragment.length) fragment.delete(at % fragment.length, 1);
      return;
    case 'cell': {
      const cells = table ? cellsOf(table) : [];
      const cell = cells[change.pick % Math.max(1, cells.length)];
      if (!cell) return;
      if (change.value === null) cell.removeAttribute(change.attr);
      else cell.setAttribute(change.attr, change.value as string);
      return;
    }
    case 'type': {
      const cells = table ? cellsOf(table) : [];
      const paragraph = cells[change.pick % Math.max(1, cells.length)]?.get(0);
      const text = paragraph instanceof Y.XmlElement ? paragraph.get(0) : null;
      if (text instanceof Y.XmlText) text.insert(0, change.text);
      return;
    }
    case 'row':
      if (!table) return;
      if (change.remove && table.length) table.delete(change.at % table.length, 1);
      else {
        const row = element('tableRow', {});
        row.insert(0, [cellElement('tableCell', 'new', {})]);
        table.insert(table.length, [row]);
      }
      return;
    case 'column':
      for (const row of table?.toArray() ?? []) if (row instanceof Y.XmlElement && row.length) row.delete(row.length - 1, 1);
      return;
    case 'mark': {
      const texts = [...fragment.toArray(), ...(table ? cellsOf(table).map((cell) => cell.get(0)) : [])]
        .map((node) => (node instanceof Y.XmlElement ? node.get(0) : null))
        .filter((text): text is Y.XmlText => text instanceof Y.XmlText && text.length > 0);
      texts[change.pick % Math.max(1, texts.length)]?.format(0, 1, { [change.mark[0]]: change.mark[1] });
      return;
    }
    case 'headerDropbox':
      if (table) cellsOf(table)[0]?.setAttribute('dropbox', 'x');
      return;
    case 'inCell': {
      const cells = table ? cellsOf(table) : [];
      const attrs = {
        chart: { blockUid: 'c2', name: 'n', label: 'l', dataName: 'd', tableUid: 't1', from: { row: 0, col: 0 }, to: { row: 1, col: 1 } },
        date: { value: '2026-01-01' },
        image: { src: '/f/1', title: 'x'.repeat(300) },
      }[change.what];
      cells[change.pick % Math.max(1, cells.length)]?.insert(0, [element(change.what, attrs)]);
      return;
    }
    case 'nestedTable': {
      const cells = table ? cellsOf(table) : [];
      cells[change.pick % Math.max(1, cells.length)]?.insert(0, [tableElement('inner', 1, 1)]);
      return;
    }
  }
}

describe('content snapshots kept per top-level block', () => {
  it('answer what the full derivations answer, and judge updates as the full check does, over random edits', () => {
    const refusals = new Map<string, number>();
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 25 }), (edits) => {
        const doc = new Y.Doc();
        for (const change of edits) {
          const before = contentSnapshot(doc);
          const beforeJson = fullJson(doc);
          apply(doc, change);
          const after = contentSnapshot(doc);
          const json = fullJson(doc);
          expect(after.json()).toEqual(json);
          expect(after.savedBlocks('LABNOTE')).toEqual(docToSavedBlocks(json, 'LABNOTE'));
          expect(after.stateViolations()).toEqual(contentViolations(json));
          expect(after.fitsSchema()).toBe(schemaViolation(json) === null);
          const refused = snapshotViolationsBetween(after, before);
          expect(refused).toEqual(violationsBetween(json, beforeJson));
          for (const { rule } of refused) refusals.set(rule, (refusals.get(rule) ?? 0) + 1);
        }
        // A document loaded from its stored state derives the same.
        const stored = snapshotOfState(Y.encodeStateAsUpdate(doc));
        expect(stored.savedBlocks('LABNOTE')).toEqual(docToSavedBlocks(fullJson(doc), 'LABNOTE'));
      }),
      { seed: 20261123, numRuns: 400 },
    );
    // The edits reach every kind of verdict, so agreement means something.
    for (const rule of [
      'tableSize',
      'tableInTable',
      'cellSpans',
      'lastRow',
      'lastColumn',
      'dropboxValue',
      'dropboxHeader',
      'datePlacement',
      'chartFields',
      'chartRange',
      'imageTitle',
      'schema',
    ]) {
      expect(refusals.get(rule) ?? 0, rule).toBeGreaterThan(0);
    }
  }, 60_000);

  it('derives a changed block again and keeps the others', () => {
    const doc = new Y.Doc();
    blocksOf(doc).insert(0, [tableElement('t1', 3, 3)]);
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.insert(0, [new Y.XmlText('Hello')]);
    blocksOf(doc).insert(1, [paragraph]);
    const first = contentSnapshot(doc);
    expect(contentSnapshot(doc)).toBe(first);
    (paragraph.get(0) as Y.XmlText).insert(5, '!');
    const second = contentSnapshot(doc);
    expect(second).not.toBe(first);
    expect(second.entries[0]).toBe(first.entries[0]);
    expect(second.entries[1]).not.toBe(first.entries[1]);
    expect(JSON.parse(second.savedBlocks('LABNOTE')[1]!.content)).toEqual({
      type: 'paragraph',
      content: [{ type: 'text', text: 'Hello!' }],
    });
  });
});

describe('an attribute or format named __proto__ (Yjs would read it into the prototype, hidden from own keys)', () => {
  it('is read as an own, unknown attribute or mark, live and from a stored state', () => {
    const doc = new Y.Doc();
    const cell = new Y.XmlElement('paragraph');
    cell.setAttribute('blockUid', 'p1');
    cell.setAttribute('__proto__', { blockUid: 'forged' } as unknown as string);
    const code = new Y.XmlElement('codeBlock');
    code.setAttribute('blockUid', 'c1');
    const text = new Y.XmlText('let x');
    code.insert(0, [text]);
    doc.getXmlFragment(CONTENT_FIELD).insert(0, [cell, code]);
    text.insert(5, ' y', JSON.parse('{"__proto__": {"bold": true}}') as Record<string, unknown>);
    expect(Object.keys(cell.getAttributes())).toEqual(['blockUid']);
    for (const snapshot of [contentSnapshot(doc), snapshotOfState(Y.encodeStateAsUpdate(doc))]) {
      const [paragraph, codeBlock] = snapshot.entries.map((entry) => entry.json);
      expect(Object.hasOwn(paragraph!.attrs!, '__proto__')).toBe(true);
      expect(codeBlock!.content!.some((run) => run.marks?.some((mark) => mark.type === '__proto__'))).toBe(true);
      expect(snapshot.fitsSchema()).toBe(false);
    }
  });
});
