import { canonicalJson } from '../canonical.js';
import { mentionAttrsOf, mentionText } from '../mentions.js';
import { cellDropboxOf } from './cellDropbox.js';
import {
  BLOCK_TYPE_OF_NODE,
  NODE,
  type Block,
  type BlockStatus,
  type BlockTable,
  type NoteType,
  type PmNode,
  type SavedBlock,
  type TableCell,
} from './model.js';

/**
 * Drops what carries no meaning (null attributes, empty attrs and marks, undefined) so that two
 * documents that look the same compare equal, whatever editor or binding produced them.
 */
export function normalizeNode(node: PmNode, normalizeChild: (child: PmNode) => PmNode = normalizeNode): PmNode {
  const out: PmNode = { type: node.type };
  const attrs = Object.fromEntries(Object.entries(node.attrs ?? {}).filter(([, v]) => v !== null && v !== undefined));
  if (Object.keys(attrs).length) out.attrs = attrs;
  if (node.text !== undefined) out.text = node.text;
  const marks = (node.marks ?? []).map((m) => {
    const markAttrs = Object.fromEntries(Object.entries(m.attrs ?? {}).filter(([, v]) => v !== null && v !== undefined));
    return Object.keys(markAttrs).length ? { type: m.type, attrs: markAttrs } : { type: m.type };
  });
  if (marks.length) out.marks = marks;
  if (node.content?.length) out.content = node.content.map((child) => normalizeChild(child));
  return out;
}

/**
 * canonicalJson of a normalized node, written from its children's (`childText`, which a caller keeping
 * unchanged subtrees passes remembering them): the keys a normalized node has, in sorted order.
 */
export function canonicalNodeJson(node: PmNode, childText: (child: PmNode) => string = canonicalNodeJson): string {
  const parts: string[] = [];
  if (node.attrs !== undefined) parts.push(`"attrs":${canonicalJson(node.attrs)}`);
  if (node.content !== undefined) parts.push(`"content":[${node.content.map((child) => childText(child)).join(',')}]`);
  if (node.marks !== undefined) parts.push(`"marks":${canonicalJson(node.marks)}`);
  if (node.text !== undefined) parts.push(`"text":${canonicalJson(node.text)}`);
  if (node.type !== undefined) parts.push(`"type":${canonicalJson(node.type)}`);
  return `{${parts.join(',')}}`;
}

/** How a block's node is normalized and written out; the server passes ones that remember subtrees. */
export interface NodeDerivation {
  normalize: (node: PmNode) => PmNode;
  canonical: (normalized: PmNode) => string;
  /** A normalized table cell as a block table cell (toCell, or one that remembers unchanged cells). */
  cell: (normalized: PmNode) => TableCell;
}
const DIRECT: NodeDerivation = { normalize: (node) => normalizeNode(node), canonical: canonicalJson, cell: toCell };

export function textOf(node: PmNode): string {
  if (node.text !== undefined) return node.text;
  const mention = mentionAttrsOf(node);
  if (mention) return mentionText(mention);
  return (node.content ?? [])
    .map(textOf)
    .join(node.type === NODE.paragraph || node.type === NODE.text ? '' : '\n')
    .replace(/\n+$/, '');
}

const spanOf = (value: unknown) => (typeof value === 'number' && value > 0 ? value : 1);

export function toCell(node: PmNode): TableCell {
  return {
    text: (node.content ?? []).map(textOf).join('\n'),
    colspan: spanOf(node.attrs?.colspan),
    rowspan: spanOf(node.attrs?.rowspan),
    dropbox: cellDropboxOf(node.attrs?.dropbox),
  };
}

/** A table's rows split into header rows (every cell a header cell) and body rows. */
export function toBlockTable(table: PmNode, cellOf: (cell: PmNode) => TableCell = toCell): BlockTable {
  const header: TableCell[][] = [];
  const body: TableCell[][] = [];
  for (const row of table.content ?? []) {
    const cells = row.content ?? [];
    const isHeader = cells.length > 0 && cells.every((c) => c.type === NODE.tableHeader);
    (isHeader && body.length === 0 ? header : body).push(cells.map((cell) => cellOf(cell)));
  }
  return { header, body };
}

function blockClassOf(node: PmNode): string {
  if (node.type === NODE.heading) return `heading-${Number(node.attrs?.level ?? 1)}`;
  const chartType = node.attrs?.chartType;
  if (node.type === NODE.chart) return `chart-${typeof chartType === 'string' ? chartType : 'bar'}`;
  return node.type;
}

/** The part of a stand-in blockUid that depends on the block's content (see fallbackUid). */
export function contentHash(content: string): number {
  let hash = 0;
  for (let i = 0; i < content.length; i += 1) hash = (hash * 31 + content.charCodeAt(i)) | 0;
  return hash >>> 0;
}

/** A stable stand-in for a block that has no ID yet, so that its status does not flap between calls. */
function fallbackUid(index: number, hash: number): string {
  return `x${hash.toString(36).padStart(8, '0')}${index.toString(36).padStart(6, '0')}`;
}

/**
 * What a top-level node makes of its block wherever it stands: everything but its position (blockOdr,
 * and the stand-in ID of a block without one). The server keeps it per unchanged block between calls.
 */
export interface BlockParts {
  type: SavedBlock['type'];
  blockClass: string;
  blockTable: BlockTable | null;
  content: string;
  /** The node's own blockUid, or null when it has none. */
  ownUid: string | null;
  /** contentHash(content) when the node has no blockUid (computed once). */
  hash: number;
}

export function blockPartsOf(raw: PmNode, derivation: NodeDerivation = DIRECT): BlockParts {
  const node = derivation.normalize(raw);
  const content = derivation.canonical(node);
  const uid = node.attrs?.blockUid;
  const ownUid = typeof uid === 'string' && uid ? uid : null;
  return {
    type: BLOCK_TYPE_OF_NODE[node.type] ?? 'text',
    blockClass: blockClassOf(node),
    blockTable: node.type === NODE.table ? toBlockTable(node, derivation.cell) : null,
    content,
    ownUid,
    hash: ownUid === null ? contentHash(content) : 0,
  };
}

/** A block's parts placed at `index` in the note. */
export function placeBlock(parts: BlockParts, index: number, noteType: NoteType): SavedBlock {
  return {
    type: parts.type,
    blockUid: parts.ownUid ?? fallbackUid(index, parts.hash),
    noteType,
    blockClass: parts.blockClass,
    blockTable: parts.blockTable,
    content: parts.content,
    blockOdr: index + 1,
  };
}

/** The blocks of a document, in order, without status: what a saved version keeps. */
export function docToSavedBlocks(doc: PmNode, noteType: NoteType): SavedBlock[] {
  return (doc.content ?? []).map((raw, index) => placeBlock(blockPartsOf(raw), index, noteType));
}

/**
 * The blocks of a document with their status against the last saved version: ADD, EDIT, NORMAL for
 * what is there, and DELETE for saved blocks that are gone (listed after the others).
 */
export function docToBlocks(doc: PmNode, noteType: NoteType, saved: readonly SavedBlock[] = []): Block[] {
  return withStatuses(docToSavedBlocks(doc, noteType), saved);
}

/** The document's blocks (`current`, as docToSavedBlocks gives them) with their status against `saved`. */
export function withStatuses(current: readonly SavedBlock[], saved: readonly SavedBlock[]): Block[] {
  const before = new Map(saved.map((b) => [b.blockUid, b]));
  const statusOf = (block: SavedBlock): BlockStatus => {
    const previous = before.get(block.blockUid);
    if (!previous) return 'ADD';
    // Content decides; a block pushed down by an insertion above it is not edited.
    return previous.content === block.content ? 'NORMAL' : 'EDIT';
  };
  const present = new Set(current.map((b) => b.blockUid));
  const deleted = saved.filter((b) => !present.has(b.blockUid)).map((b) => ({ ...b, blockStatus: 'DELETE' as const }));
  return [...current.map((b) => ({ ...b, blockStatus: statusOf(b) })), ...deleted];
}

/**
 * Whether the document differs from the saved version in anything, order included: whether their
 * canonical block lists differ. `tableText` gives a block table's canonical JSON (of a missing one,
 * undefined, as canonicalJson does); a caller that keeps
 * unchanged tables between calls passes one that remembers it.
 */
export function differsFromSaved(
  current: readonly SavedBlock[],
  saved: readonly SavedBlock[],
  tableText: (table: unknown) => string = canonicalJson,
): boolean {
  return blockListsDiffer(current, saved, tableText);
}

/** canonicalBlockList(a) !== canonicalBlockList(b), without writing either list out. */
export function blockListsDiffer(
  a: readonly SavedBlock[],
  b: readonly SavedBlock[],
  tableText: (table: unknown) => string = canonicalJson,
  sameTable: (x: unknown, y: unknown) => boolean = (x, y) => tableText(x) === tableText(y),
): boolean {
  return a.length !== b.length || a.some((block, index) => !sameSavedBlock(block, b[index]!, sameTable));
}

/**
 * Whether two blocks' entries in canonicalBlockList are the same text, field by field: strings and
 * numbers serialise alike exactly when they are equal, and the table is compared as canonical JSON.
 */
function sameSavedBlock(a: SavedBlock, b: SavedBlock, sameTable: (x: unknown, y: unknown) => boolean): boolean {
  return (
    a.type === b.type &&
    a.blockUid === b.blockUid &&
    a.noteType === b.noteType &&
    a.blockClass === b.blockClass &&
    a.content === b.content &&
    a.blockOdr === b.blockOdr &&
    (a.blockTable === b.blockTable || sameTable(a.blockTable, b.blockTable))
  );
}

/** The text a signature's hash covers: the saved blocks as canonical JSON. */
export function canonicalBlockList(blocks: readonly SavedBlock[]): string {
  return canonicalJson(
    blocks.map(({ type, blockUid, noteType, blockClass, blockTable, content, blockOdr }) => ({
      type,
      blockUid,
      noteType,
      blockClass,
      blockTable,
      content,
      blockOdr,
    })),
  );
}

/** The document a block list describes: each block's content is its node, in block order. */
export function blocksToDoc(blocks: readonly Pick<SavedBlock, 'content' | 'blockOdr'>[]): PmNode {
  const ordered = [...blocks].sort((a, b) => a.blockOdr - b.blockOdr);
  return { type: NODE.doc, content: ordered.map((block) => JSON.parse(block.content) as PmNode) };
}
