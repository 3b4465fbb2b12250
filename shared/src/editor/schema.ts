import { getSchema } from '@tiptap/core';
import { Fragment, type Node as ProseMirrorNode, type Schema } from '@tiptap/pm/model';
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

/**
 * An attribute's value must be of the kind its default is (a number for a heading's level, a string for
 * an image's title); attributes whose default is null (IDs, spans' widths, cell references) take any JSON.
 */
function attributeProblem(specs: AttributeSpecs, attrs: Record<string, unknown> | undefined, owner: string): string | null {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    const spec = specs[name];
    if (!spec) return `Unsupported attribute ${name} for ${owner}`;
    const fallback = spec.default;
    if (fallback === null || fallback === undefined || value === undefined) continue;
    if (typeof value !== typeof fallback) return `Attribute ${name} of ${owner} must be a ${typeof fallback}`;
  }
  return null;
}

/** ProseMirror drops attributes its schema does not know while it builds a node, so they are checked on the JSON. */
function attributesProblem(schema: Schema, node: PmNode): string | null {
  const nodeSpec = schema.nodes[node.type]?.spec.attrs as AttributeSpecs | undefined;
  const own = attributeProblem(nodeSpec ?? {}, node.attrs, `node ${node.type}`);
  if (own) return own;
  for (const mark of node.marks ?? []) {
    const markSpec = schema.marks[mark.type]?.spec.attrs as AttributeSpecs | undefined;
    const problem = attributeProblem(markSpec ?? {}, mark.attrs, `mark ${mark.type}`);
    if (problem) return problem;
  }
  for (const child of node.content ?? []) {
    const problem = attributesProblem(schema, child);
    if (problem) return problem;
  }
  return null;
}

/**
 * Why a text format (a mark as the live document keeps it: its name, and its attributes or null when it
 * is removed) does not fit the schema, or null when it does.
 */
export function formatProblem(name: string, value: unknown): string | null {
  const mark = noteSchema().marks[name];
  if (!mark) return `Unknown mark ${name}`;
  // null removes the mark; `true` sets one without attributes (y-prosemirror reads both).
  if (value === null || value === true) return null;
  if (typeof value !== 'object' || Array.isArray(value)) return `Mark ${name} takes attributes, not ${typeof value}`;
  return attributeProblem((mark.spec.attrs ?? {}) as AttributeSpecs, value as Record<string, unknown>, `mark ${name}`);
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
 * One top-level block as the schema reads it inside a document (for callers that check a document block
 * by block and keep the verdicts of unchanged blocks): the block's node when it fits on its own (it is
 * built, checked and its attributes known, as schemaViolation does for each child), null when it does not.
 */
export function fittingBlock(block: PmNode): ProseMirrorNode | null {
  const schema = noteSchema();
  try {
    const node = schema.nodeFromJSON(block);
    node.check();
    return attributesProblem(schema, block) === null ? node : null;
  } catch {
    return null;
  }
}

/**
 * Whether a document whose top-level blocks are these fits the schema: schemaViolation(doc) === null
 * when every block fits on its own (fittingBlock), decided from their nodes without walking them again.
 */
export function blocksFitTogether(blocks: readonly ProseMirrorNode[]): boolean {
  if (!blocks.length) return true;
  return noteSchema().topNodeType.validContent(Fragment.fromArray([...blocks]));
}
