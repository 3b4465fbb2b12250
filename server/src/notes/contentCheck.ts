import { and, eq } from 'drizzle-orm';
import {
  blocksToDoc,
  contentViolations,
  ERR,
  UNSTORABLE_CHARACTER,
  violationsBeyond,
  type ContentViolation,
  type PmNode,
  type SavedBlock,
} from '@eln/shared';
import { schemaViolation } from '@eln/shared/editor';
import type { ContentSnapshot } from '../collab/documents/contentSnapshots.js';
import type { Queryable } from '../db/client.js';
import { noteVersions } from '../db/schema.js';
import { AppError } from '../http/errors.js';

/** A note's last saved version as the content checks read it: its blocks and the rules they break. */
export interface SavedContent {
  blocks: SavedBlock[];
  violations: ContentViolation[];
}

const NOTHING_SAVED: SavedContent = { blocks: [], violations: [] };
/**
 * Saved versions never change once written: kept per database (tests run several in one process), by
 * note and version, a few (the notes being saved now), so a temp save compares with its version
 * without reading it.
 */
const savedContents = new WeakMap<Queryable, Map<string, SavedContent>>();
const SAVED_CONTENTS_KEPT = 64;

/** The saved version `version` of a note (nothing for 0), read once per database while it stays kept. */
export async function savedContent(q: Queryable, noteNo: number, version: number): Promise<SavedContent> {
  if (version === 0) return NOTHING_SAVED;
  const kept = savedContents.get(q) ?? new Map<string, SavedContent>();
  savedContents.set(q, kept);
  const key = `${noteNo}:${version}`;
  const known = kept.get(key);
  if (known) return known;
  const [row] = await q
    .select({ blocks: noteVersions.blocks })
    .from(noteVersions)
    .where(and(eq(noteVersions.noteNo, noteNo), eq(noteVersions.version, version)));
  if (!row) return NOTHING_SAVED;
  const blocks = row.blocks as SavedBlock[];
  const content: SavedContent = { blocks, violations: contentViolations(blocksToDoc(blocks)) };
  if (kept.size >= SAVED_CONTENTS_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, content);
  return content;
}

/**
 * Nodes already scanned, with everything inside them. A snapshot keeps the JSON object of every subtree
 * that did not change (`contentSnapshots.ts`), so a temp save scans only the path of each change: the
 * cell typed in, not the 900 cells of its table.
 */
const scannedNodes = new WeakMap<PmNode, boolean>();

/** hasUnstorableText of a whole document, node by node, each unchanged node's answer remembered. */
export function documentHasUnstorableText(doc: PmNode): boolean {
  return (doc.content ?? []).some(rememberedUnstorableText);
}

function rememberedUnstorableText(node: PmNode): boolean {
  // An imported document may hold anything where a node belongs; only nodes hold text.
  if (typeof node !== 'object' || node === null) return false;
  let found = scannedNodes.get(node);
  if (found === undefined) {
    found = ownTextUnstorable(node) || (node.content ?? []).some(rememberedUnstorableText);
    scannedNodes.set(node, found);
  }
  return found;
}

/** Whether the node's own text, or a string attribute of it or of its marks, holds a character that cannot be stored as written. */
function ownTextUnstorable(node: PmNode): boolean {
  if (typeof node.text === 'string' && UNSTORABLE_CHARACTER.test(node.text)) return true;
  const strings = [...Object.values(node.attrs ?? {}), ...(node.marks ?? []).flatMap((mark) => Object.values(mark.attrs ?? {}))];
  return strings.some((value) => typeof value === 'string' && UNSTORABLE_CHARACTER.test(value));
}

/**
 * The content checks at /note/temp and /note/save, refused with 2012 and the violations. The document
 * must fit the editor's schema (what a client speaking Yjs directly may have put in the live document
 * never becomes a version), and break no content rule its last saved version did not already break (so
 * an old note stays savable). Only the document rules count here: a table's transition rules judge one
 * change, and they were checked on each live update; between two versions lie many changes (split, then
 * delete) that they would misjudge.
 */
export function assertContentRules(content: ContentSnapshot, saved: SavedContent): void {
  // Only a client speaking Yjs directly can put a NUL or a broken surrogate into the text: such a version
  // would not read back as it was written (exports, the signed fingerprint's text), so it is not kept.
  if (documentHasUnstorableText(content.json())) throw new AppError(ERR.unsupportedCharacters);
  const schemaProblem = content.fitsSchema() ? null : schemaViolation(content.json());
  if (schemaProblem) throw new AppError(ERR.noteContent, { data: { violations: [{ rule: 'schema', detail: schemaProblem }] } });
  const violations = violationsBeyond(content.stateViolations(), saved.violations);
  if (violations.length) throw new AppError(ERR.noteContent, { data: { violations } });
}
