import type { AuthUser } from '../auth/authUser.js';
import type { DocumentKind } from '../collab/documentKinds.js';
import type { Db, Tx } from '../db/client.js';
import { noteDocumentAccess, noteOpenForWriting } from './policy.js';
import { findNoteFor, lockNote, projectOf } from './queries.js';

/**
 * The note number a document id names, only in its canonical decimal form: `01`, `0x1` or `1e0` would
 * pass as note 1 to the database yet name a separate stored document, so they name nothing.
 */
export function canonicalNoteNo(id: string): number | null {
  const noteNo = Number(id);
  if (!Number.isSafeInteger(noteNo) || noteNo <= 0 || String(noteNo) !== id) return null;
  return noteNo;
}

/** Live lab notes `labnote.<no>`: opened and written by the note policy's verdicts. */
export function labNoteDocumentKind(db: Db): DocumentKind {
  return {
    prefix: 'labnote',
    noteContent: true,
    async authorize(user: AuthUser, id: string) {
      const noteNo = canonicalNoteNo(id);
      if (noteNo === null) return null;
      return noteDocumentAccess(await findNoteFor(db, user, noteNo));
    },
    // The note's row, locked `share`, is what a signature locks `for update` and a finish or delete
    // updates; the project is read afresh after the lock, so a finish committed before it is seen.
    async writable(id: string, tx: Tx) {
      const noteNo = canonicalNoteNo(id);
      if (noteNo === null) return false;
      const note = await lockNote(tx, noteNo, 'share');
      const project = note ? await projectOf(tx, note.projectNo) : undefined;
      return Boolean(note && project && noteOpenForWriting(note, project));
    },
  };
}
