import * as Y from 'yjs';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import {
  blockPartsOf,
  blockStateViolations,
  canonicalJson,
  canonicalNodeJson,
  normalizeNode,
  CONTENT_FIELD,
  placeBlock,
  readsTables,
  subtreeMemo,
  tableShape,
  topLevelTables,
  type BlockParts,
  type ContentViolation,
  type NodeDerivation,
  type NoteType,
  type PmNode,
  toCell,
  type SavedBlock,
  type TableCell,
  type TableShape,
} from '@eln/shared';
import { blocksFitTogether, fittingBlock } from '@eln/shared/editor';

/**
 * What the server derives from one top-level block of a live document, each part computed when first
 * asked and kept until the block changes: its JSON, its block, its table's shape, the rules it breaks
 * and whether it fits the schema.
 */
class BlockEntry {
  private parts?: BlockParts;
  private shape?: TableShape;
  private violations?: ContentViolation[];
  private schemaNode?: ProseMirrorNode | null;
  private readonly tableDependent: boolean;

  constructor(readonly json: PmNode) {
    this.tableDependent = readsTables(json, RULES_MEMO);
  }

  blockParts(): BlockParts {
    return (this.parts ??= blockPartsOf(this.json, REMEMBERING));
  }

  tableShape(): TableShape {
    return (this.shape ??= tableShape(this.json));
  }

  /** Its state violations; a block holding a chart reads the note's tables, so it is judged afresh. */
  stateViolations(tables: Map<string, TableShape>): ContentViolation[] {
    const shapeOf = (table: PmNode) => (table === this.json ? this.tableShape() : tableShape(table));
    if (this.tableDependent) return blockStateViolations(this.json, tables, shapeOf, RULES_MEMO);
    return (this.violations ??= blockStateViolations(this.json, tables, shapeOf, RULES_MEMO));
  }

  fittingNode(): ProseMirrorNode | null {
    if (this.schemaNode === undefined) this.schemaNode = fittingBlock(this.json);
    return this.schemaNode;
  }
}

/**
 * Normalized nodes, their canonical JSON and their table cells, remembered per JSON object: a snapshot's JSON reuses the
 * objects of unchanged subtrees (jsonOf), so a keystroke in one cell of a big table writes out that
 * cell's path again, not the table.
 */
const normalizedOf = new WeakMap<PmNode, PmNode>();
const canonicalOf = new WeakMap<PmNode, string>();
function rememberedNormalize(node: PmNode): PmNode {
  let normalized = normalizedOf.get(node);
  if (!normalized) {
    normalized = normalizeNode(node, rememberedNormalize);
    normalizedOf.set(node, normalized);
  }
  return normalized;
}
function rememberedCanonical(node: PmNode): string {
  let text = canonicalOf.get(node);
  if (text === undefined) {
    text = canonicalNodeJson(node, rememberedCanonical);
    canonicalOf.set(node, text);
  }
  return text;
}
const cellOf = new WeakMap<PmNode, TableCell>();
function rememberedCell(node: PmNode): TableCell {
  let cell = cellOf.get(node);
  if (!cell) {
    cell = toCell(node);
    cellOf.set(node, cell);
  }
  return cell;
}
const REMEMBERING: NodeDerivation = { normalize: rememberedNormalize, canonical: rememberedCanonical, cell: rememberedCell };
/** The content rules' findings per subtree, kept the same way. */
const RULES_MEMO = subtreeMemo();

type Child = Y.XmlElement | Y.XmlText | Y.XmlHook;

/** The library's JSON of one child of the content fragment (it reads the fragment only through toArray). */
function libraryJson(child: Child): PmNode {
  const single = { toArray: () => [child] } as unknown as Y.XmlFragment;
  return (yXmlFragmentToProsemirrorJSON(single) as { content: PmNode[] }).content[0]!;
}

/**
 * A child's JSON as yXmlFragmentToProsemirrorJSON writes it (a text: its runs, an array), reusing the
 * JSON of unchanged elements and texts inside it (`known`, emptied along the path of every change).
 */
function jsonOf(child: Child, known: WeakMap<Child, PmNode>): PmNode {
  const cached = known.get(child);
  if (cached) return cached;
  let json: PmNode;
  if (child instanceof Y.XmlElement) {
    // The library's element case: its name, its attributes when it has any, its children flattened.
    json = { type: child.nodeName };
    const attrs = attributesOf(child);
    if (Object.keys(attrs).length) json.attrs = attrs;
    const children = child.toArray();
    if (children.length) json.content = children.map((inner) => jsonOf(inner, known)).flat();
  } else {
    json = libraryJson(child);
    if (child instanceof Y.XmlText && hidesFormats(child)) json = withHiddenFormat(json as unknown as PmNode[]) as unknown as PmNode;
  }
  known.set(child, json);
  return json;
}

/**
 * Yjs reads an element's attributes, and a text's formats, into a plain object key by key, so one named
 * `__proto__` becomes that object's prototype: unseen by the server's JSON (own keys only), but read by
 * the browser's editor (which reads inherited keys too). Shown here as what it is, whatever it holds and
 * whether or not it covers text: an attribute, or a mark, the schema does not know.
 */
const HIDDEN = '__proto__';

function attributesOf(element: Y.XmlElement): Record<string, unknown> {
  const attrs = element.getAttributes() as Record<string, unknown>;
  const hidden = element._map.get(HIDDEN);
  if (!hidden || hidden.deleted) return attrs;
  // Object.fromEntries writes `__proto__` as an own key.
  return Object.fromEntries([...Object.entries(attrs), [HIDDEN, hidden.content.getContent().at(-1)]]);
}

function hidesFormats(text: Y.XmlText): boolean {
  for (let item = text._start; item; item = item.right) {
    if (!item.deleted && item.content instanceof Y.ContentFormat && item.content.key === HIDDEN) return true;
  }
  return false;
}

function withHiddenFormat(runs: PmNode[]): PmNode[] {
  const marked = runs.map((run) => ({ ...run, marks: [...(run.marks ?? []), { type: HIDDEN }] }));
  return marked.length ? marked : [{ type: 'text', text: ' ', marks: [{ type: HIDDEN }] }];
}

/**
 * The content of a live document at one moment, as the blocks it is made of. Everything it answers is
 * what the full functions (yXmlFragmentToProsemirrorJSON, docToSavedBlocks, contentViolations,
 * schemaViolation) answer for the document's JSON, from the parts kept per unchanged block.
 */
export class ContentSnapshot {
  private tablesByUid?: Map<string, TableShape>;
  private violations?: ContentViolation[];
  private fits?: boolean;
  private readonly saved = new Map<NoteType, SavedBlock[]>();
  private readonly entryOf = new Map<PmNode, BlockEntry>();

  constructor(readonly entries: readonly BlockEntry[]) {
    for (const entry of entries) this.entryOf.set(entry.json, entry);
  }

  /** The document as ProseMirror JSON (its blocks' JSON objects are shared: read it, never change it). */
  json(): PmNode {
    return { type: 'doc', content: this.entries.map((entry) => entry.json) };
  }

  /** The shapes of the top-level tables by blockUid, as contentViolations finds them. */
  tables(): Map<string, TableShape> {
    return (this.tablesByUid ??= topLevelTables(
      this.entries.map((entry) => entry.json),
      (table) => this.entryOf.get(table)?.tableShape() ?? tableShape(table),
    ));
  }

  /** contentViolations(json()): the state rules the document breaks, block by block in order. */
  stateViolations(): ContentViolation[] {
    return (this.violations ??= this.entries.flatMap((entry) => entry.stateViolations(this.tables())));
  }

  /** schemaViolation(json()) === null. */
  fitsSchema(): boolean {
    if (this.fits !== undefined) return this.fits;
    const nodes: ProseMirrorNode[] = [];
    for (const entry of this.entries) {
      const node = entry.fittingNode();
      if (!node) return (this.fits = false);
      nodes.push(node);
    }
    return (this.fits = blocksFitTogether(nodes));
  }

  /** docToSavedBlocks(json(), noteType). */
  savedBlocks(noteType: NoteType): SavedBlock[] {
    const known = this.saved.get(noteType);
    if (known) return known;
    const blocks = this.entries.map((entry, index) => placeBlock(entry.blockParts(), index, noteType));
    this.saved.set(noteType, blocks);
    return blocks;
  }
}

interface Tracked {
  /** The entry of each top-level child not changed since it was made. */
  entries: WeakMap<Y.AbstractType<unknown>, BlockEntry>;
  /** The JSON of each element and text not changed since it was written. */
  json: WeakMap<Child, PmNode>;
  /** The snapshot while nothing in the content changed. */
  snapshot: ContentSnapshot | null;
}

const tracked = new WeakMap<Y.Doc, Tracked>();

/** The top-level child of the content fragment that holds `type` (null for the fragment itself). */
function topLevelChildOf(fragment: Y.XmlFragment, type: Y.AbstractType<unknown>): Y.AbstractType<unknown> | null {
  let current: Y.AbstractType<unknown> = type;
  while (current._item && current._item.parent !== (fragment as unknown as Y.AbstractType<unknown>))
    current = current._item.parent as Y.AbstractType<unknown>;
  return current._item ? current : null;
}

function track(doc: Y.Doc): Tracked {
  const known = tracked.get(doc);
  if (known) return known;
  const state: Tracked = { entries: new WeakMap(), json: new WeakMap(), snapshot: null };
  const fragment = doc.getXmlFragment(CONTENT_FIELD);
  // Every change inside the content lands here once its transaction ends: the blocks it touched are
  // derived again, the others are kept.
  fragment.observeDeep((events) => {
    state.snapshot = null;
    for (const event of events) {
      const child = topLevelChildOf(fragment, event.target as Y.AbstractType<unknown>);
      if (child) state.entries.delete(child);
      for (
        let type: Y.AbstractType<unknown> | null = event.target as Y.AbstractType<unknown>;
        type?._item;
        type = type._item.parent as Y.AbstractType<unknown>
      ) {
        state.json.delete(type as unknown as Child);
      }
    }
  });
  tracked.set(doc, state);
  return state;
}

/**
 * The content of a live document now, derived again only for the top-level blocks changed since the
 * last call (the document is followed from the first call on, for as long as it lives).
 */
export function contentSnapshot(doc: Y.Doc): ContentSnapshot {
  const state = track(doc);
  if (state.snapshot) return state.snapshot;
  const entries = doc
    .getXmlFragment(CONTENT_FIELD)
    .toArray()
    .map((child) => {
      const type = child as unknown as Y.AbstractType<unknown>;
      let entry = state.entries.get(type);
      if (!entry) {
        entry = new BlockEntry(jsonOf(child, state.json));
        state.entries.set(type, entry);
      }
      return entry;
    });
  state.snapshot = new ContentSnapshot(entries);
  return state.snapshot;
}

/** A snapshot of a document state that is not live (a stored state): nothing kept. */
export function snapshotOfState(state: Uint8Array): ContentSnapshot {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  const known = new WeakMap<Child, PmNode>();
  const snapshot = new ContentSnapshot(
    doc
      .getXmlFragment(CONTENT_FIELD)
      .toArray()
      .map((child) => new BlockEntry(jsonOf(child, known))),
  );
  doc.destroy();
  return snapshot;
}

/** The canonical JSON of a block table, remembered per table object (unchanged blocks keep theirs). */
const tableTexts = new WeakMap<object, string>();
export function tableText(table: unknown): string {
  if (!table || typeof table !== 'object') return canonicalJson(table);
  let text = tableTexts.get(table);
  if (text === undefined) {
    text = canonicalJson(table);
    tableTexts.set(table, text);
  }
  return text;
}
