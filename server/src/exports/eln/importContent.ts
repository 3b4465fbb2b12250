import { prosemirrorJSONToYDoc } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { COLLAB_LIMITS, CONTENT_FIELD, contentViolations, LIMITS, newBlockUid, type PmNode, type SavedBlock } from '@eln/shared';
import { noteSchema, planBlockUids, schemaViolation } from '@eln/shared/editor';
import { snapshotOfState } from '../../collab/documents/contentSnapshots.js';
import { documentHasUnstorableText } from '../../notes/contentCheck.js';

/**
 * Imported notes' content: their own blocks (ours) or their text (another notebook's HTML), their
 * attachments, and the history section each ends with, made into the live document and saved blocks a
 * note starts with.
 */

const paragraph = (text: string): PmNode => ({
  type: 'paragraph',
  attrs: { blockUid: newBlockUid() },
  ...(text ? { content: [{ type: 'text', text }] } : {}),
});
export const heading = (text: string, level: number): PmNode => ({
  type: 'heading',
  attrs: { level, blockUid: newBlockUid() },
  content: [{ type: 'text', text }],
});

/** A clearly marked section at the note's end: a heading and one paragraph per line. */
export function historySection(title: string, lines: readonly string[]): PmNode[] {
  return [
    { type: 'horizontalRule', attrs: { blockUid: newBlockUid() } },
    heading(title, 2),
    ...lines.filter((line) => line.trim()).map((line) => paragraph(clean(line))),
  ];
}

/** An imported attachment as the block that shows it. */
export function attachmentNode(file: { fileId: string; name: string; kind: 'image' | 'file'; size: number; extension: string }): PmNode {
  if (file.kind === 'image')
    return {
      type: 'image',
      attrs: { fileId: file.fileId, title: Array.from(file.name).slice(0, LIMITS.imageTitle).join(''), blockUid: newBlockUid() },
    };
  return {
    type: 'fileAttachment',
    attrs: { fileId: file.fileId, name: file.name, size: file.size, extension: file.extension, blockUid: newBlockUid() },
  };
}

/** Text as a paragraph holds it: no control characters but tabs, no lone surrogates. */
export function clean(text: string): string {
  return text
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const BLOCK_TAG =
  /<\s*(\/?)\s*(h[1-6]|p|div|li|pre|blockquote|tr|table|ul|ol|section|article|header|footer|figure|figcaption|dt|dd)\b[^>]*>/gi;

/** Cell text as the editor's table holds it: one paragraph per cell. */
const cellNode = (text: string, header: boolean): PmNode => ({
  type: header ? 'tableHeader' : 'tableCell',
  attrs: { colspan: 1, rowspan: 1 },
  content: [text ? { type: 'paragraph', content: [{ type: 'text', text }] } : { type: 'paragraph' }],
});

/**
 * Rows of text as the editor's table (each row padded to the widest), the first row as headers when
 * `headerRow`; null when it is empty or larger than a table here may be (the caller keeps it as text).
 */
export function tableNode(rows: readonly (readonly string[])[], headerRow = false): PmNode | null {
  const width = Math.max(0, ...rows.map((row) => row.length));
  if (!rows.length || !width || rows.length > LIMITS.tableMaxSide || width > LIMITS.tableMaxSide) return null;
  return {
    type: 'table',
    attrs: { blockUid: newBlockUid() },
    content: rows.map((row, r) => ({
      type: 'tableRow',
      content: Array.from({ length: width }, (_, c) => cellNode(clean(row[c] ?? ''), headerRow && r === 0)),
    })),
  };
}

const htmlText = (html: string) => clean(decodeEntities(html.replace(/<[^>]*>/g, ' ')));

/**
 * An HTML table's rows of cell text (a nested table's text stays in its cell), and whether its first row
 * is all headers; spans are not kept (each cell is one cell).
 */
function htmlTableRows(html: string): { rows: string[][]; headerRow: boolean } {
  const inner = html.replace(/^<\s*table\b[^>]*>|<\s*\/\s*table\s*>$/gi, '');
  const rows: string[][] = [];
  let headerRow = false;
  for (const [index, row] of inner
    .split(/<\s*tr\b[^>]*>/i)
    .slice(1)
    .entries()) {
    const cells = row.split(/<\s*t[dh]\b[^>]*>/i);
    const tags = [...row.matchAll(/<\s*(t[dh])\b/gi)].map((m) => (m[1] ?? '').toLowerCase());
    if (index === 0) headerRow = tags.length > 0 && tags.every((tag) => tag === 'th');
    rows.push(cells.slice(1).map(htmlText));
  }
  return { rows, headerRow };
}

/** The outermost `<table>…</table>` spans of some HTML (nested tables inside them), in order. */
function outerTables(html: string): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  let depth = 0;
  let start = 0;
  for (const match of html.matchAll(/<\s*(\/?)\s*table\b[^>]*>/gi)) {
    if (match[1] !== '/') {
      if (depth === 0) start = match.index;
      depth += 1;
    } else if (depth > 0) {
      depth -= 1;
      if (depth === 0) spans.push({ start, end: match.index + match[0].length });
    }
  }
  return spans;
}

/**
 * Another notebook's text (eLabFTW keeps HTML) as headings, paragraphs and tables: block elements start
 * a new block, headings stay headings, a table of at most the editor's size stays a table (a larger one
 * is read as text), everything else is read as text. Markup the editor does not have (scripts, styles,
 * math, links) is not carried over; its text is.
 */
export function textToNodes(source: string): PmNode[] {
  const looksLikeHtml = /<\s*[a-z][^>]*>/i.test(source);
  if (!looksLikeHtml)
    return source
      .split(/\n\s*\n|\r\n\s*\r\n/)
      .map(clean)
      .filter(Boolean)
      .map(paragraph);
  const html = source
    .replace(/<\s*(script|style|head)\b[\s\S]*?<\s*\/\s*\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\s*br\s*\/?\s*>/gi, '\n');
  const nodes: PmNode[] = [];
  let from = 0;
  for (const span of outerTables(html)) {
    nodes.push(...htmlBlocks(html.slice(from, span.start)));
    const { rows, headerRow } = htmlTableRows(html.slice(span.start, span.end));
    const table = tableNode(rows, headerRow);
    nodes.push(...(table ? [table] : htmlBlocks(html.slice(span.start, span.end))));
    from = span.end;
  }
  nodes.push(...htmlBlocks(html.slice(from)));
  return nodes;
}

/** HTML without tables as headings and paragraphs. */
function htmlBlocks(html: string): PmNode[] {
  const nodes: PmNode[] = [];
  let level: number | null = null;
  let last = 0;
  const flush = (end: number) => {
    const text = htmlText(html.slice(last, end));
    if (text) nodes.push(level ? heading(text, level) : paragraph(text));
  };
  for (const match of html.matchAll(BLOCK_TAG)) {
    flush(match.index);
    last = match.index + match[0].length;
    const closing = match[1] === '/';
    const tag = (match[2] ?? '').toLowerCase();
    if (/^h[1-6]$/.test(tag)) level = closing ? null : Number(tag.slice(1));
  }
  flush(html.length);
  return nodes;
}

/** Why an imported note's content cannot become a note here. */
export class ContentRefusal extends Error {}

/** Each top-level block with a blockUid, kept where it has a unique one, given a new one where not. */
function withBlockUids(blocks: readonly PmNode[]): PmNode[] {
  const plan = planBlockUids(blocks.map((block) => block.attrs?.blockUid));
  return blocks.map((block, index) => {
    const uid = plan.get(index);
    return uid ? { ...block, attrs: { ...block.attrs, blockUid: uid } } : block;
  });
}

/**
 * The live document and first saved version of an imported note: its blocks must fit the editor's schema,
 * hold only storable text, break no content rule, and stay within the live document's size limit. The saved blocks are derived
 * from the document the way a save derives them, so the version holds exactly what the editor shows.
 */
export function importedDocument(blocks: readonly PmNode[]): { state: Uint8Array; savedBlocks: SavedBlock[] } {
  const doc: PmNode = { type: 'doc', content: withBlockUids(blocks) };
  const problem = schemaViolation(doc);
  if (problem) throw new ContentRefusal(problem);
  if (documentHasUnstorableText(doc)) throw new ContentRefusal('text that cannot be stored (a NUL or a broken character)');
  // A note starts within the content rules (table size, nesting, image titles...), as a saved one here would.
  const violations = contentViolations(doc);
  if (violations.length)
    throw new ContentRefusal(`breaks content rules: ${violations.map((v) => `${v.rule} (${v.blockUid ?? '-'})`).join(', ')}`);
  const yDoc = prosemirrorJSONToYDoc(noteSchema(), doc, CONTENT_FIELD);
  const state = Y.encodeStateAsUpdate(yDoc);
  yDoc.destroy();
  if (state.byteLength > COLLAB_LIMITS.documentBytes)
    throw new ContentRefusal(`larger than a live document may be (${state.byteLength} bytes)`);
  return { state, savedBlocks: snapshotOfState(state).savedBlocks('LABNOTE') };
}

/** A block node's file reference renamed to the imported file's id (images and file attachments). */
export function withFileIds(node: PmNode, renamed: ReadonlyMap<string, string>): PmNode {
  const fileId =
    (node.type === 'image' || node.type === 'fileAttachment') && typeof node.attrs?.fileId === 'string'
      ? renamed.get(node.attrs.fileId)
      : undefined;
  return {
    ...node,
    ...(fileId ? { attrs: { ...node.attrs, fileId } } : {}),
    ...(node.content ? { content: node.content.map((child) => withFileIds(child, renamed)) } : {}),
  };
}
