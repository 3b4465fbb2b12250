import { getSchema, getText, getTextSerializersFromSchema } from '@tiptap/core';
import { describe, expect, it } from 'vitest';
import type { PmNode } from '../blocks/model.js';
import { blocksToDoc, docToSavedBlocks, textOf } from '../blocks/convert.js';
import { blockSearchText } from '../blocks/searchText.js';
import { blockDetailOf } from '../diff/blocks.js';
import { LIMITS } from '../limits.js';
import { nodeMentions, validMention } from '../mentions.js';
import { contentViolations } from './contentRules.js';
import { noteExtensions } from './extensions.js';
import { schemaViolation } from './schema.js';

/** The editor's inline `mention` node across the places a content type is known (docs/extending.md). */

const mention = (userId: string, label: string): PmNode => ({ type: 'mention', attrs: { userId, label } });
const t = (text: string): PmNode => ({ type: 'text', text });
const p = (uid: string, ...content: PmNode[]): PmNode => ({ type: 'paragraph', attrs: { blockUid: uid }, content });
const doc = (...content: PmNode[]): PmNode => ({ type: 'doc', content });
const cell = (...content: PmNode[]): PmNode => ({
  type: 'tableCell',
  attrs: { colspan: 1, rowspan: 1, colwidth: null, dropbox: null },
  content: [{ type: 'paragraph', content }],
});

const kim = mention('kim@lab.test', 'Kim Minji');
const lee = mention('lee@lab.test', 'Lee Jun');
const note = doc(
  p('p000000000000001', t('Please check, '), kim, t(' and '), lee, t('.')),
  { type: 'heading', attrs: { blockUid: 'h000000000000001', level: 2 }, content: [t('For '), kim] },
  { type: 'table', attrs: { blockUid: 't000000000000001' }, content: [{ type: 'tableRow', content: [cell(t('Owner: '), lee)] }] },
);

describe('the mention node in the schema', () => {
  it('stands inside text: paragraphs, headings and table cells', () => {
    expect(schemaViolation(note)).toBeNull();
  });

  it('never stands on its own at the top of a note, nor inside code', () => {
    expect(schemaViolation(doc(kim))).not.toBeNull();
    expect(
      schemaViolation(doc({ type: 'codeBlock', attrs: { blockUid: 'c000000000000001', language: null }, content: [kim] })),
    ).not.toBeNull();
  });

  it('knows only its two attributes, both text', () => {
    expect(
      schemaViolation(doc(p('p000000000000001', { type: 'mention', attrs: { userId: 'kim@lab.test', label: 'Kim', role: 'x' } }))),
    ).toMatch(/role/);
    expect(schemaViolation(doc(p('p000000000000001', { type: 'mention', attrs: { userId: 7, label: 'Kim' } })))).toMatch(/userId/);
  });

  it('writes HTML as a chip reading @ and the name, and plain text the same', () => {
    const schema = getSchema(noteExtensions());
    const node = schema.nodeFromJSON(kim);
    expect(schema.nodes.mention!.spec.toDOM!(node)).toEqual([
      'span',
      { 'data-user-id': 'kim@lab.test', 'data-label': 'Kim Minji', 'data-type': 'mention', class: 'mention' },
      '@Kim Minji',
    ]);
    const line = schema.nodeFromJSON(p('p000000000000001', t('Hi '), kim, t('!')));
    expect(getText(line, { textSerializers: getTextSerializersFromSchema(schema) })).toBe('Hi @Kim Minji!');
  });
});

describe('the mention content rule', () => {
  it('accepts a user ID and a name of a name’s length', () => {
    expect(contentViolations(note)).toEqual([]);
    expect(validMention({ userId: 'kim@lab.test', label: 'K'.repeat(LIMITS.userName) })).toBe(true);
  });

  it('refuses a mention of no one, of what is not an ID, or with a name too long', () => {
    for (const bad of [mention('', 'Kim'), mention('kim', 'Kim'), mention('kim@lab.test]x', 'Kim'), mention('k m@lab.test', 'Kim')])
      expect(contentViolations(doc(p('p000000000000001', bad)))).toEqual([{ rule: 'mention', blockUid: 'p000000000000001' }]);
    expect(contentViolations(doc(p('p000000000000002', mention('kim@lab.test', 'K'.repeat(LIMITS.userName + 1)))))).toEqual([
      { rule: 'mention', blockUid: 'p000000000000002' },
    ]);
  });
});

describe('mentions in blocks, search, comparisons', () => {
  it('keeps the mention in the block’s content, and gives the same document back', () => {
    const blocks = docToSavedBlocks(note, 'LABNOTE');
    expect(blocks.map((block) => block.type)).toEqual(['text', 'text', 'table']);
    expect(blocks[0]!.content).toContain('"type":"mention"');
    expect(docToSavedBlocks(blocksToDoc(blocks), 'LABNOTE')).toEqual(blocks);
    expect(blocks[2]!.blockTable?.body[0]![0]!.text).toBe('Owner: @Lee Jun');
  });

  it('reads as @Name in plain text and in search, inside the line', () => {
    expect(textOf(note.content![0]!)).toBe('Please check, @Kim Minji and @Lee Jun.');
    expect(blockSearchText(note.content![0]!)).toEqual({ heading: '', body: 'Please check, @Kim Minji and @Lee Jun.' });
    expect(blockSearchText(note.content![1]!)).toEqual({ heading: 'For @Kim Minji', body: '' });
  });

  it('names each person a block mentions once, in order', () => {
    expect(note.content!.map(nodeMentions)).toEqual([['kim@lab.test', 'lee@lab.test'], ['kim@lab.test'], ['lee@lab.test']]);
    expect(nodeMentions(p('p000000000000003', kim, t(' '), kim))).toEqual(['kim@lab.test']);
  });

  it('compares a changed mention as words of text', () => {
    const [before] = docToSavedBlocks(doc(p('p000000000000001', t('Ask '), kim)), 'LABNOTE');
    const [after] = docToSavedBlocks(doc(p('p000000000000001', t('Ask '), lee)), 'LABNOTE');
    const detail = blockDetailOf(before!, after!);
    expect(detail).toMatchObject({ kind: 'text', formatting: false });
    const parts = detail.kind === 'text' ? detail.parts : [];
    expect(parts.filter((part) => part.kind === 'removed').map((part) => part.text.trim())).toEqual(['Kim Minji']);
    expect(parts.filter((part) => part.kind === 'added').map((part) => part.text.trim())).toEqual(['Lee Jun']);
  });
});
