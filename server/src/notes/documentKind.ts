import type { AuthUser } from '../auth/authUser.js';
import { canonicalRecordNo, type DocumentKind } from '../collab/documentKinds.js';
import type { Db, Tx } from '../db/client.js';
import { noteDocumentAccess, noteOpenForWriting } from './policy.js';
import { findNoteFor, lockNote, projectOf } from './queries.js';
import { recordNoteWriter } from './writers.js';

/** Live lab notes `labnote.<no>`: opened and written by the note policy's verdicts. */
export function labNoteDocumentKind(db: Db): DocumentKind {
  return {
    prefix: 'labnote',
    noteContent: true,
    async authorize(user: AuthUser, id: string) {
      const noteNo = canonicalRecordNo(id);
      if (noteNo === null) return null;
      return noteDocumentAccess(await findNoteFor(db, user, noteNo));
    },
    // The note's row, locked `share`, is what a signature locks `for update` and a finish or delete
    // updates; the project is read afresh after the lock, so a finish committed before it is seen.
    async recordWriter(user: AuthUser, id: string) {
      const noteNo = canonicalRecordNo(id);
      if (noteNo !== null) await recordNoteWriter(db, noteNo, user.userNo);
    },
    async writable(id: string, tx: Tx) {
      const noteNo = canonicalRecordNo(id);
      if (noteNo === null) return false;
      const note = await lockNote(tx, noteNo, 'share');
      const project = note ? await projectOf(tx, note.projectNo) : undefined;
      return Boolean(note && project && noteOpenForWriting(note, project));
    },
  };
}
