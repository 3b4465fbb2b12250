/**
 * The one list of what may stand at the top of a note: each block node of the editor's schema and the
 * block type the API calls it. The block types, the node names the converter knows and the node types
 * that carry a blockUid are all derived from it; `editor.test.ts` checks it against the built schema, so
 * a node without a block type (or a block type without a node) fails a test.
 *
 * Pure data, no Tiptap: the main `@eln/shared` entry imports it, and must stay light.
 */
export const BLOCK_NODES = {
  paragraph: 'text',
  heading: 'text',
  bulletList: 'text',
  orderedList: 'text',
  blockquote: 'text',
  codeBlock: 'text',
  horizontalRule: 'text',
  table: 'table',
  chart: 'chart',
  image: 'image',
  fileAttachment: 'file',
  date: 'date',
  schemaBlock: 'schema',
} as const;

export type BlockNodeName = keyof typeof BLOCK_NODES;
export type BlockType = (typeof BLOCK_NODES)[BlockNodeName];

/** The node types that stand at the top of a note and carry a blockUid (every kind of block). */
export const BLOCK_NODE_TYPES = Object.keys(BLOCK_NODES) as BlockNodeName[];

/** The block types, each once, in the order of their first node. */
export const BLOCK_TYPES = [...new Set(Object.values(BLOCK_NODES))] as [BlockType, ...BlockType[]];

export function isBlockNodeName(name: string): name is BlockNodeName {
  return Object.hasOwn(BLOCK_NODES, name);
}
