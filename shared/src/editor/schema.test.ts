import { describe, expect, it } from 'vitest';
import { BLOCK_NODE_TYPES, BLOCK_NODES, BLOCK_TYPES } from './blockNodes.js';
import { noteSchema, schemaViolation } from './schema.js';
import type { PmNode } from '../blocks/model.js';

const doc = (...content: PmNode[]): PmNode => ({ type: 'doc', content });
const paragraph = (text: string): PmNode => ({ type: 'paragraph', attrs: { blockUid: 'p000000000000001' }, content: [{ type: 'text', text }] });

describe('the one list of block nodes against the built schema', () => {
  const schema = noteSchema();
  const topLevel = Object.values(schema.nodes)
    .filter((type) => type.isInGroup('block'))
    .map((type) => type.name)
    .sort();

  it('names every node that may stand at the top of a note, and no other', () => {
    // A new block node without a block type (or a listed name without a node) fails here.
    expect(Object.keys(BLOCK_NODES).sort()).toEqual(topLevel);
  });

  it('gives every block type at least one node', () => {
    for (const blockType of BLOCK_TYPES) expect(Object.values(BLOCK_NODES)).toContain(blockType);
  });

  it('gives every block node a blockUid attribute', () => {
    for (const name of BLOCK_NODE_TYPES) expect(schema.nodes[name]?.spec.attrs ?? {}).toHaveProperty('blockUid');
  });
});

describe('schema conformance', () => {
  it('accepts what the editor makes', () => {
    const table: PmNode = {
      type: 'table',
      attrs: { blockUid: 't000000000000001' },
      content: [{ type: 'tableRow', content: [{ type: 'tableHeader', attrs: { colspan: 1, rowspan: 1, colwidth: null, dropbox: null }, content: [paragraph('A')] }] }],
    };
    const image: PmNode = { type: 'image', attrs: { blockUid: 'i000000000000001', fileId: 'f', title: 'Gel' } };
    expect(schemaViolation(doc(paragraph('Hello'), table, image))).toBeNull();
    // A new note, or one whose every block was deleted: the editor shows one empty paragraph.
    expect(schemaViolation(doc())).toBeNull();
    expect(schemaViolation({ type: 'doc' })).toBeNull();
  });

  it('refuses unknown nodes, unknown marks, unknown attributes and misplaced content', () => {
    expect(schemaViolation(doc({ type: 'script', content: [{ type: 'text', text: 'alert(1)' }] }))).toMatch(/script/);
    expect(schemaViolation(doc({ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'blink' }] }] }))).toMatch(/blink/);
    expect(schemaViolation(doc({ type: 'paragraph', attrs: { onclick: 'steal()' } }))).toMatch(/onclick/);
    expect(schemaViolation(doc({ type: 'text', text: 'loose text at the top' }))).not.toBeNull();
    expect(schemaViolation({ type: 'paragraph' })).not.toBeNull();
  });
});

describe('attribute kinds', () => {
  it('refuses an attribute whose value is not of its kind, and accepts null where the default is null', () => {
    const heading = (level: unknown): PmNode => ({ type: 'heading', attrs: { level }, content: [{ type: 'text', text: 'H' }] });
    expect(schemaViolation(doc(heading('<script>')))).toMatch(/level/);
    expect(schemaViolation(doc(heading(2)))).toBeNull();
    expect(schemaViolation(doc({ type: 'image', attrs: { blockUid: null, fileId: 'f', title: 42 } }))).toMatch(/title/);
  });
});
