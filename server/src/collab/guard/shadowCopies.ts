import * as Y from 'yjs';
import { newContentViolations, tableTransitions, violationsBeyond, type ContentViolation, type PmNode } from '@eln/shared';
import { blocksFitTogether, fittingBlock } from '@eln/shared/editor';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { contentSnapshot, type ContentSnapshot } from '../documents/contentSnapshots.js';
import { dropPending } from './pendingParts.js';

/**
 * Where a document does not fit the editor's schema, block by block: each top-level block that does not
 * fit on its own (by its blockUid), and the document (blockUid null) when the blocks that fit do not fit
 * together. Counted so, a note that already breaks the schema somewhere stays editable, and an update
 * still may not break it anywhere else.
 */
function schemaViolations(blocks: readonly PmNode[]): ContentViolation[] {
  const found: ContentViolation[] = [];
  const fitting: ProseMirrorNode[] = [];
  for (const block of blocks) {
    const node = fittingBlock(block);
    if (node) fitting.push(node);
    else found.push({ rule: 'schema', blockUid: typeof block.attrs?.blockUid === 'string' ? block.attrs.blockUid : null });
  }
  if (!blocksFitTogether(fitting)) found.push({ rule: 'schema', blockUid: null });
  return found;
}

/**
 * The content rules an update broke, then where it broke the editor's schema (a document that already
 * breaks a rule, or the schema somewhere, stays editable: only violations an update adds count).
 */
export function violationsBetween(after: PmNode, before: PmNode): ContentViolation[] {
  const added = newContentViolations(after, before);
  if (added.length) return added;
  return violationsBeyond(schemaViolations(after.content ?? []), schemaViolations(before.content ?? []));
}

/**
 * violationsBetween(after.json(), before.json()), from the parts the snapshots keep per unchanged block:
 * only the blocks an update touched are judged again (plus the blocks holding charts, which read the
 * tables, and the transition rules of tables whose grid changed).
 */
export function snapshotViolationsBetween(after: ContentSnapshot, before: ContentSnapshot): ContentViolation[] {
  const added = violationsBeyond(
    [...tableTransitions(after.tables(), before.tables()), ...after.stateViolations()],
    before.stateViolations(),
  );
  if (added.length) return added;
  return violationsBeyond(schemaViolations(after.json().content ?? []), schemaViolations(before.json().content ?? []));
}

/** Refusal of an update that cannot be applied or read (a crafted one): nothing of it is applied. */
const UNREADABLE: ContentViolation = { rule: 'schema', blockUid: null };

/**
 * A copy of each live document on which an update is tried, as sent, before the document gets it, so
 * that the content rules judge exactly what applying it does, without copying the whole document per
 * update. The copy follows every update the document applies (from any connection or process); an
 * update tried on it and then refused makes it wrong, so it is dropped and made again when next needed.
 * Like the document (keepNothingPending), it keeps nothing pending. What the rules read of it is kept
 * per top-level block (contentSnapshot) and derived again only for the blocks an update changed.
 */
export class ShadowCopies {
  private readonly shadows = new WeakMap<Y.Doc, Y.Doc>();
  private readonly followed = new WeakSet<Y.Doc>();

  /**
   * The violations `update` would add to `document` (tried on its copy, never on the document): the
   * content rules', then those `blockCheck` finds per top-level block (the server's own checks).
   */
  violationsAdded(document: Y.Doc, update: Uint8Array, blockCheck?: (block: PmNode) => ContentViolation[]): ContentViolation[] {
    const shadow = this.shadowOf(document);
    let added: ContentViolation[];
    try {
      added = this.judged(shadow, update, blockCheck);
    } catch {
      // A crafted update Yjs or the rules' reading cannot take (e.g. a node kind the editor never makes).
      added = [UNREADABLE];
    }
    // The copy took an update the document will not: made again when next needed.
    if (added.length) this.drop(document);
    return added;
  }

  private judged(shadow: Y.Doc, update: Uint8Array, blockCheck?: (block: PmNode) => ContentViolation[]): ContentViolation[] {
    const before = contentSnapshot(shadow);
    Y.applyUpdate(shadow, update);
    dropPending(shadow);
    const after = contentSnapshot(shadow);
    const added = snapshotViolationsBetween(after, before);
    if (added.length || !blockCheck) return added;
    const judged = (snapshot: ContentSnapshot) => snapshot.entries.flatMap((entry) => blockCheck(entry.json));
    return violationsBeyond(judged(after), judged(before));
  }

  private shadowOf(document: Y.Doc): Y.Doc {
    const known = this.shadows.get(document);
    if (known) return known;
    const shadow = new Y.Doc({ gc: document.gc, gcFilter: document.gcFilter });
    Y.applyUpdate(shadow, Y.encodeStateAsUpdate(document));
    this.shadows.set(document, shadow);
    if (!this.followed.has(document)) {
      this.followed.add(document);
      document.on('update', (applied: Uint8Array) => {
        const current = this.shadows.get(document);
        if (current) Y.applyUpdate(current, applied);
      });
      document.on('destroy', () => this.drop(document));
    }
    return shadow;
  }

  private drop(document: Y.Doc): void {
    this.shadows.get(document)?.destroy();
    this.shadows.delete(document);
  }
}
