import { getSchema } from '@tiptap/core';
import { Fragment, Mark, type Node as ProseMirrorNode, type Schema } from '@tiptap/pm/model';
import type { PmNode } from '../blocks/model.js';
import { noteExtensions } from './extensions.js';

let built: Schema | null = null;

/** The ProseMirror schema of a note, built once from the shared extensions (no DOM needed). */
export function noteSchema(): Schema {
  built ??= getSchema(noteExtensions());
  return built;
}

interface AttributeSpecs {
  [name: string]: { default?: unknown };
}

/** Whether a value is JSON data (what the editor writes as an attribute), not an object of some class (a live Yjs type). */
function isJsonData(value: unknown, depth = 0): boolean {
  // Any number and undefined, as JSON writes them (null, or left out): a pasted table's column width can be NaN.
  if (value === null || value === undefined || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number')
    return true;
  if (typeof value !== 'object' || depth > 32) return false;
  if (Array.isArray(value)) return value.every((item) => isJsonData(item, depth + 1));
  const prototype: unknown = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.values(value).every((item) => isJsonData(item, depth + 1));
}

/**
 * An attribute's value must be JSON data of the kind its default is (a number for a heading's level, a
 * string for an image's title); attributes whose default is null (IDs, spans' widths, cell references)
 * take any JSON data.
 */
function attributeProblem(specs: AttributeSpecs, attrs: Record<string, unknown> | undefined, owner: string): string | null {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    // Own specs only: `specs.__proto__` is Object.prototype.
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (!spec) return `Unsupported attribute ${name} for ${owner}`;
    if (value !== undefined && !isJsonData(value)) return `Attribute ${name} of ${owner} must be JSON data`;
    const fallback = spec.default;
    if (fallback === null || fallback === undefined || value === undefined) continue;
    if (typeof value !== typeof fallback) return `Attribute ${name} of ${owner} must be a ${typeof fallback}`;
  }
  return null;
}

/** The attributes of a node and of its marks, not of its children. */
function ownAttributesProblem(schema: Schema, node: PmNode): string | null {
  const nodeSpec = schema.nodes[node.type]?.spec.attrs;
  const own = attributeProblem(nodeSpec ?? {}, node.attrs, `node ${node.type}`);
  if (own) return own;
  for (const mark of node.marks ?? []) {
    const markSpec = schema.marks[mark.type]?.spec.attrs;
    const problem = attributeProblem(markSpec ?? {}, mark.attrs, `mark ${mark.type}`);
    if (problem) return problem;
  }
  return null;
}

/** ProseMirror drops attributes its schema does not know while it builds a node, so they are checked on the JSON. */
function attributesProblem(schema: Schema, node: PmNode): string | null {
  const own = ownAttributesProblem(schema, node);
  if (own) return own;
  for (const child of node.content ?? []) {
    const problem = attributesProblem(schema, child);
    if (problem) return problem;
  }
  return null;
}

/**
 * Whether text of a node named `nodeName` may carry these formats together (marks as the live document
 * keeps them: a name, and attributes, or null where the mark ends): the schema knows each mark, its
 * attributes fit, the node allows it, and no mark excludes another (code excludes every other mark).
 */
export function formatsFit(nodeName: string, formats: Iterable<readonly [string, unknown]>): boolean {
  const schema = noteSchema();
  const node = Object.hasOwn(schema.nodes, nodeName) ? schema.nodes[nodeName] : undefined;
  if (!node?.isTextblock) return false;
  let marks: readonly Mark[] = Mark.none;
  const names = new Set<string>();
  for (const [name, value] of formats) {
    const type = Object.hasOwn(schema.marks, name) ? schema.marks[name] : undefined;
    if (!type || !node.allowsMarkType(type)) return false;
    if (value === null) continue;
    // `true` sets a mark without attributes (y-prosemirror reads both).
    const attrs = value === true ? {} : value;
    if (typeof attrs !== 'object' || attrs === null || Array.isArray(attrs)) return false;
    if (attributeProblem(type.spec.attrs ?? {}, attrs as Record<string, unknown>, `mark ${name}`) !== null) return false;
    try {
      marks = type.create(attrs).addToSet(marks);
    } catch {
      return false;
    }
    names.add(name);
  }
  return marks.length >= names.size;
}

/** Whether a node of this name holds text directly (a paragraph, a heading, a code block). */
export function holdsText(nodeName: string): boolean {
  const { nodes } = noteSchema();
  return Object.hasOwn(nodes, nodeName) && nodes[nodeName]!.isTextblock;
}

/**
 * Why a document does not fit the editor's schema (an unknown node, mark or attribute, content where the
 * schema allows none, an attribute of the wrong kind), or null when it fits. The message is
 * ProseMirror's own where it has one, for the log and the refusal's details.
 */
export function schemaViolation(doc: PmNode): string | null {
  const schema = noteSchema();
  if (doc.type !== schema.topNodeType.name) return `The document must be a ${schema.topNodeType.name}, not ${doc.type}`;
  // A new note's live document is empty, and so is one whose every block was deleted: the editor shows
  // it as one empty paragraph. The schema's `block+` would call it invalid.
  if (!doc.content?.length) return attributesProblem(schema, doc);
  try {
    schema.nodeFromJSON(doc).check();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return attributesProblem(schema, doc);
}

/**
 * Nodes built and checked, by the JSON object they were built from. A live document's JSON reuses the
 * objects of unchanged subtrees (server/src/collab/documents/contentSnapshots.ts), so after a keystroke in one cell
 * of a 30 x 30 table only that cell's path is built and checked again, not the 900 cells beside it.
 */
const fittedNodes = new WeakMap<object, ProseMirrorNode | null>();

/**
 * One block as the schema reads it inside a document (for callers that check a document block by block
 * and keep the verdicts of unchanged blocks): the block's node when it fits on its own (built and
 * checked as `schema.nodeFromJSON(block).check()` does, its attributes known as schemaViolation asks),
 * null when it does not. Its children's verdicts are kept per JSON object, so it must not be changed.
 */
export function fittingBlock(block: PmNode): ProseMirrorNode | null {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return null;
  let node = fittedNodes.get(block);
  if (node === undefined) {
    node = fitNode(noteSchema(), block);
    fittedNodes.set(block, node);
  }
  return node;
}

/** Node.fromJSON and Node.check for one level, its children's nodes taken from fittingBlock. */
function fitNode(schema: Schema, json: PmNode): ProseMirrorNode | null {
  try {
    // Inside the try: a hostile `marks` (not a list) throws here, and does not fit.
    if (ownAttributesProblem(schema, json) !== null) return null;
    if (json.type === 'text') {
      const text = schema.nodeFromJSON(json);
      text.check();
      return text;
    }
    if (json.content !== undefined && !Array.isArray(json.content)) return null;
    const children: ProseMirrorNode[] = [];
    for (const child of json.content ?? []) {
      const built = fittingBlock(child);
      if (!built) return null;
      children.push(built);
    }
    if (json.marks !== undefined && !Array.isArray(json.marks)) return null;
    const marks = json.marks?.map((mark) => schema.markFromJSON(mark));
    const type = schema.nodes[json.type];
    if (!type) return null;
    const node = type.create(json.attrs, Fragment.fromArray(children), marks);
    checkOwnLevel(node);
    return node;
  } catch {
    return null;
  }
}

/** What Node.check checks of the node itself (its children being checked already): content, attribute validators, marks. */
function checkOwnLevel(node: ProseMirrorNode): void {
  if (!node.type.validContent(node.content)) throw new RangeError(`Invalid content for node ${node.type.name}`);
  validateAttrs(node.type, node.attrs);
  let marks = Mark.none;
  for (const mark of node.marks) {
    validateAttrs(mark.type, mark.attrs);
    marks = mark.addToSet(marks);
  }
  if (!Mark.sameSet(marks, node.marks)) throw new RangeError(`Invalid collection of marks for node ${node.type.name}`);
}

/** A node or mark type's compiled attributes (ProseMirror keeps them internal; Node.check reads them the same way). */
interface CompiledAttributes {
  attrs: { [name: string]: { validate?: ((value: unknown) => void) | null } };
}

function validateAttrs(type: object, values: Record<string, unknown>): void {
  for (const [name, attribute] of Object.entries((type as CompiledAttributes).attrs)) attribute.validate?.(values[name]);
}

/**
 * Whether a document whose top-level blocks are these fits the schema: schemaViolation(doc) === null
 * when every block fits on its own (fittingBlock), decided from their nodes without walking them again.
 */
export function blocksFitTogether(blocks: readonly ProseMirrorNode[]): boolean {
  if (!blocks.length) return true;
  return noteSchema().topNodeType.validContent(Fragment.fromArray([...blocks]));
}
