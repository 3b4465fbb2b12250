/**
 * documents/: what a live document is, to the rest of the server.
 *
 * Document kinds (this file): each feature registers the family of documents it owns (`labnote.<no>`,
 * `template.<no>`) and answers who may open one (connections/), whether it may still be written (asked
 * in each append's transaction, persistence/) and whether it holds a note's content (kept to the content
 * rules by guard/). Content snapshots (contentSnapshots.ts): a document's content as ProseMirror JSON
 * and saved blocks, derived per top-level block and kept while the block is unchanged; the guard,
 * LiveDocuments and the API (notes, templates, exports) read content through them. This part needs no
 * other part of collab/.
 */
import type { AuthUser } from '../../auth/authUser.js';
import type { Queryable } from '../../db/client.js';

/**
 * The store's question, asked inside an append's transaction once for all of its documents (once more,
 * in a second transaction, when it refused one; see GroupCommit.store): may each still be written
 * (answered in the order given; see DocumentKind.writable)? writeCheckOf answers it from the kinds.
 */
export type WriteCheck = (documentNames: string[], tx: Queryable) => Promise<boolean[]>;

/** What a connection may do with a live document. */
export type DocumentAccess = 'write' | 'read';

/**
 * A family of live documents named `<prefix>.<id>` (lab notes `labnote.<no>`, templates
 * `template.<no>`). The feature that owns the family decides who may open a document and whether they
 * may write: the server enforces it, whatever the client does.
 */
export interface DocumentKind {
  prefix: string;
  authorize(user: AuthUser, id: string): Promise<DocumentAccess | null>;
  /**
   * Whether each document (by id, answered in the same order) may still be written at all (by anyone),
   * asked inside the transaction that appends their live updates; a document's updates are stored only
   * on yes. A kind whose documents can be locked takes row locks here that its locking change conflicts
   * with (a signature takes the note's row `for update`), so an update is either stored before the lock
   * commits or refused after it. Asked once for all of a group commit's documents of the kind, so one
   * statement can answer them all (and once more when a check refused one: the group's all-or-none
   * transaction rolls back and a second stores what is allowed). Without it, the kind's documents stay
   * writable.
   */
  writable?(ids: string[], tx: Queryable): Promise<boolean[]>;
  /** Records that the user writes in the document (their first accepted update while it is loaded). */
  recordWriter?(user: AuthUser, id: string): Promise<void>;
  /**
   * The writer is recorded before their update is stored: each connection's first accepted update (and
   * those after it) waits for the record, so whatever is stored has its writer recorded (a two-person
   * rule needs all of them). Recorded once per connection rather than per loaded document, since a
   * connection writes one draft only (writing ends at each check-in and is never widened again).
   */
  writerRecordedBeforeStoring?: boolean;
  /** The documents hold a note's content: every live update must keep the content rules (ContentRuleGuard). */
  noteContent?: boolean;
}

/**
 * The record number (note, template) a document id names, only in its canonical decimal form: `01`,
 * `0x1` or `1e0` would pass as 1 to the database yet name a separate stored document, so they name nothing.
 */
export function canonicalRecordNo(id: string): number | null {
  const recordNo = Number(id);
  if (!Number.isSafeInteger(recordNo) || recordNo <= 0 || String(recordNo) !== id) return null;
  return recordNo;
}

export function parseDocumentName(name: string): { prefix: string; id: string } | null {
  const match = /^([a-z]+)\.([A-Za-z0-9_-]{1,64})$/.exec(name);
  return match ? { prefix: match[1] as string, id: match[2] as string } : null;
}

/**
 * The store's write check over the registered kinds, each kind asked once for its documents (in the
 * order given, one after another on the transaction's connection): a name no kind owns is never written.
 */
export function writeCheckOf(kinds: DocumentKind[]): WriteCheck {
  const byPrefix = new Map(kinds.map((kind) => [kind.prefix, kind]));
  return async (documentNames, tx) => {
    const allowed: boolean[] = documentNames.map(() => false);
    const byKind = new Map<DocumentKind, Array<{ index: number; id: string }>>();
    documentNames.forEach((documentName, index) => {
      const parsed = parseDocumentName(documentName);
      const kind = parsed ? byPrefix.get(parsed.prefix) : undefined;
      if (parsed && kind) byKind.set(kind, [...(byKind.get(kind) ?? []), { index, id: parsed.id }]);
    });
    for (const [kind, documents] of byKind) {
      const answers = kind.writable
        ? await kind.writable(
            documents.map(({ id }) => id),
            tx,
          )
        : documents.map(() => true);
      documents.forEach(({ index }, i) => (allowed[index] = answers[i] === true));
    }
    return allowed;
  };
}

/** Whether a document name belongs to a kind whose documents hold a note's content. */
export function noteContentCheckOf(kinds: DocumentKind[]): (documentName: string) => boolean {
  const prefixes = new Set(kinds.filter((kind) => kind.noteContent).map((kind) => kind.prefix));
  return (documentName) => prefixes.has(parseDocumentName(documentName)?.prefix ?? '');
}
