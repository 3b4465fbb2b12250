import { getAttributesFromExtensions, getSchema, resolveExtensions, type AnyExtension } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { describe, expect, it } from 'vitest';
import { BLOCK_NODE_TYPES, BLOCK_NODES, BLOCK_TYPES } from './blockNodes.js';
import { NOTE_TEXT_EXTENSIONS, noteExtensions } from './extensions.js';
import { formatsFit, holdsText, noteSchema, schemaViolation } from './schema.js';
import type { PmNode } from '../blocks/model.js';

const doc = (...content: PmNode[]): PmNode => ({ type: 'doc', content });
const paragraph = (text: string): PmNode => ({
  type: 'paragraph',
  attrs: { blockUid: 'p000000000000001' },
  content: [{ type: 'text', text }],
});

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
      content: [
        {
          type: 'tableRow',
          content: [{ type: 'tableHeader', attrs: { colspan: 1, rowspan: 1, colwidth: null, dropbox: null }, content: [paragraph('A')] }],
        },
      ],
    };
    const image: PmNode = { type: 'image', attrs: { blockUid: 'i000000000000001', fileId: 'f', title: 'Gel' } };
    expect(schemaViolation(doc(paragraph('Hello'), table, image))).toBeNull();
    // A new note, or one whose every block was deleted: the editor shows one empty paragraph.
    expect(schemaViolation(doc())).toBeNull();
    expect(schemaViolation({ type: 'doc' })).toBeNull();
  });

  it('refuses unknown nodes, unknown marks, unknown attributes and misplaced content', () => {
    expect(schemaViolation(doc({ type: 'script', content: [{ type: 'text', text: 'alert(1)' }] }))).toMatch(/script/);
    expect(schemaViolation(doc({ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'blink' }] }] }))).toMatch(
      /blink/,
    );
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
  it('takes only JSON data as an attribute, even where the default is null (an ID, a cell reference)', () => {
    const paragraph = (blockUid: unknown): PmNode => ({ type: 'paragraph', attrs: { blockUid }, content: [{ type: 'text', text: 'p' }] });
    expect(schemaViolation(doc(paragraph({ nested: ['a', 1, true, null] })))).toBeNull();
    expect(schemaViolation(doc(paragraph(new Map())))).toMatch(/blockUid.*JSON/);
    expect(schemaViolation(doc(paragraph({ inner: new Date(0) })))).toMatch(/JSON/);
    // What JSON writes as null or leaves out: a pasted table's column width can be NaN.
    expect(schemaViolation(doc(paragraph([Number.NaN, { left: undefined }])))).toBeNull();
    expect(schemaViolation(doc(paragraph(JSON.parse('{"__proto__": {"x": 1}}'))))).toBeNull();
  });
});

describe('formats text may carry', () => {
  it('in a node that holds text, marks the schema knows, with their attributes, not excluding each other', () => {
    expect(
      formatsFit('paragraph', [
        ['bold', true],
        ['italic', {}],
        ['bold', null],
      ]),
    ).toBe(true);
    expect(
      formatsFit('paragraph', [
        ['bold', true],
        ['code', true],
      ]),
    ).toBe(false);
    expect(
      formatsFit('paragraph', [
        ['bold', null],
        ['code', true],
      ]),
    ).toBe(true);
    expect(formatsFit('codeBlock', [['bold', true]])).toBe(false);
    expect(formatsFit('codeBlock', [])).toBe(true);
    expect(formatsFit('paragraph', [['blink', true]])).toBe(false);
    expect(formatsFit('paragraph', [['bold', 'yes']])).toBe(false);
    expect(formatsFit('tableRow', [])).toBe(false);
    expect(holdsText('heading') && !holdsText('tableCell')).toBe(true);
  });
});

/** A value with its functions (parse rules' getAttrs, toDOM, parseHTML...) as their source, comparable with toEqual. */
function comparable(value: unknown): unknown {
  if (typeof value === 'function') return `fn ${String(value)}`;
  if (Array.isArray(value)) return value.map(comparable);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, comparable(inner)]));
  return value;
}

describe('the text extensions listed one by one', () => {
  // What noteExtensions() was: StarterKit with undo/redo, links and the trailing node off, then the rest.
  const rest = noteExtensions().filter((extension) => !NOTE_TEXT_EXTENSIONS.includes(extension));
  const listed = noteExtensions();
  const starterKit: AnyExtension[] = [StarterKit.configure({ undoRedo: false, link: false, trailingNode: false }), ...rest];

  it('build the schema StarterKit built: the same nodes and marks, in order, with the same specs', () => {
    const ours = getSchema(listed);
    const theirs = getSchema(starterKit);
    expect(ours.spec.topNode).toBe(theirs.spec.topNode);
    expect(Object.keys(ours.nodes)).toEqual(Object.keys(theirs.nodes));
    expect(Object.keys(ours.marks)).toEqual(Object.keys(theirs.marks));
    // Attributes, content expressions, groups, parse rules and rendering of every node and mark.
    expect(comparable(Object.values(ours.nodes).map((type) => type.spec))).toEqual(
      comparable(Object.values(theirs.nodes).map((type) => type.spec)),
    );
    expect(comparable(Object.values(ours.marks).map((type) => type.spec))).toEqual(
      comparable(Object.values(theirs.marks).map((type) => type.spec)),
    );
  });

  it('resolve to the same extensions, in the same order, with the same options and attributes', () => {
    const ours = resolveExtensions(listed);
    const theirs = resolveExtensions(starterKit).filter((extension) => extension.name !== 'starterKit');
    const described = (extensions: AnyExtension[]) =>
      extensions.map((extension) => comparable({ name: extension.name, type: extension.type, options: extension.options }));
    expect(described(ours)).toEqual(described(theirs));
    expect(comparable(getAttributesFromExtensions(ours))).toEqual(comparable(getAttributesFromExtensions(theirs)));
    // No undo/redo of its own, no trailing node and no links, as with StarterKit so configured.
    expect(ours.map((extension) => extension.name)).not.toContain('undoRedo');
    expect(ours.map((extension) => extension.name)).not.toContain('trailingNode');
    expect(ours.map((extension) => extension.name)).not.toContain('link');
  });
});
