import { and, eq } from 'drizzle-orm';
import { blocksToDoc, contentViolations, ERR, UNSTORABLE_CHARACTER, violationsBeyond, type ContentViolation, type PmNode, type SavedBlock } from '@eln/shared';
import { schemaViolation } from '@eln/shared/editor';
import type { ContentSnapshot } from '../collab/contentSnapshots.js';
import type { Queryable } from '../db/client.js';
import { noteVersions } from '../db/schema.js';
import { AppError } from '../http/errors.js';

/** A note's last saved version as the content checks read it: its blocks and the rules they break. */
export interface SavedContent {
  blocks: SavedBlock[];
  violations: ContentViolation[];
}

const NOTHING_SAVED: SavedContent = { blocks: [], violations: [] };
/** Saved versions never change: kept by note, version and fingerprint (a few, the notes being saved now). */
const savedContents = new Map<string, SavedContent>();
const SAVED_CONTENTS_KEPT = 64;

/**
 * The saved version `version` of a note (nothing for 0). Its blocks are read again only when its
 * fingerprint is one not seen before, so a call that compares with it reads one short row.
 */
export async function savedContent(q: Queryable, noteNo: number, version: number): Promise<SavedContent> {
  if (version === 0) return NOTHING_SAVED;
  const where = and(eq(noteVersions.noteNo, noteNo), eq(noteVersions.version, version));
  const [row] = await q.select({ blocksHash: noteVersions.blocksHash }).from(noteVersions).where(where);
  if (!row) return NOTHING_SAVED;
  const key = `${noteNo}:${version}:${row.blocksHash}`;
  const known = savedContents.get(key);
  if (known) return known;
  const [full] = await q.select({ blocks: noteVersions.blocks }).from(noteVersions).where(where);
  const blocks = (full?.blocks ?? []) as SavedBlock[];
  const content: SavedContent = { blocks, violations: contentViolations(blocksToDoc(blocks)) };
  if (savedContents.size >= SAVED_CONTENTS_KEPT) savedContents.delete(savedContents.keys().next().value!);
  savedContents.set(key, content);
  return content;
}

/**
 * Top-level blocks already scanned. A snapshot keeps the JSON object of every block that did not change
 * (`contentSnapshots.ts`), so a temp save scans only the blocks changed since the last one.
 */
const scannedBlocks = new WeakMap<PmNode, boolean>();

/** hasUnstorableText of a whole document, block by block, each unchanged block's answer remembered. */
export function documentHasUnstorableText(doc: PmNode): boolean {
  return (doc.content ?? []).some((block) => {
    let found = scannedBlocks.get(block);
    if (found === undefined) scannedBlocks.set(block, (found = hasUnstorableText(block)));
    return found;
  });
}

/** Whether any text or string attribute of the document holds a character that cannot be stored as written. */
export function hasUnstorableText(node: PmNode): boolean {
  if (typeof node.text === 'string' && UNSTORABLE_CHARACTER.test(node.text)) return true;
  const strings = [...Object.values(node.attrs ?? {}), ...(node.marks ?? []).flatMap((mark) => Object.values(mark.attrs ?? {}))];
  if (strings.some((value) => typeof value === 'string' && UNSTORABLE_CHARACTER.test(value))) return true;
  return (node.content ?? []).some(hasUnstorableText);
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
