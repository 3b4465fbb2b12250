import type { AuthUser } from '../auth/authUser.js';
import type { DocumentKind } from '../collab/documentKinds.js';
import type { Db, Tx } from '../db/client.js';
import { findNoteFor, lockNote, mayWrite, openForWriting, projectOf } from './queries.js';

const noteNoOf = (id: string): number | null => {
  const noteNo = Number(id);
  return Number.isSafeInteger(noteNo) && noteNo > 0 ? noteNo : null;
};

/** Live lab notes `labnote.<no>`: visible to whoever sees the project, writable by the rule of `mayWrite`. */
export function labNoteDocumentKind(db: Db): DocumentKind {
  return {
    prefix: 'labnote',
    async authorize(user: AuthUser, id: string) {
      const noteNo = noteNoOf(id);
      if (noteNo === null) return null;
      const ctx = await findNoteFor(db, user, noteNo);
      if (!ctx || ctx.note.deletedAt) return null;
      return mayWrite(ctx) ? 'write' : 'read';
    },
    // The note's row, locked `share`, is what a signature locks `for update` and a finish or delete
    // updates; the project is read afresh after the lock, so a finish committed before it is seen.
    async writable(id: string, tx: Tx) {
      const noteNo = noteNoOf(id);
      if (noteNo === null) return false;
      const note = await lockNote(tx, noteNo, 'share');
      const project = note ? await projectOf(tx, note.projectNo) : undefined;
      return Boolean(note && project && openForWriting(note, project));
    },
  };
}
