import type { AuthUser } from '../auth/authUser.js';
import { canonicalRecordNo, type DocumentKind } from '../collab/documents/documentKinds.js';
import { InsertBatches } from '../db/batches.js';
import type { Db, Queryable } from '../db/client.js';
import { noteDocumentAccess, noteOpenForWriting } from './policy.js';
import { findNoteFor, lockNotesForWriting } from './queries.js';
import { recordNoteWriters } from './writers.js';

/** Live lab notes `labnote.<no>`: opened and written by the note policy's verdicts. */
export function labNoteDocumentKind(db: Db): DocumentKind {
  // The writers of a burst (a team starting a note together) are recorded in a few statements, not one each.
  const writers = new InsertBatches<{ noteNo: number; userNo: number }>(
    (rows) => recordNoteWriters(db, rows),
    (row) => `${row.noteNo}.${row.userNo}`,
  );
  return {
    prefix: 'labnote',
    noteContent: true,
    async authorize(user: AuthUser, id: string) {
      const noteNo = canonicalRecordNo(id);
      if (noteNo === null) return null;
      return noteDocumentAccess(await findNoteFor(db, user, noteNo));
    },
    async recordWriter(user: AuthUser, id: string) {
      const noteNo = canonicalRecordNo(id);
      if (noteNo !== null) await writers.add({ noteNo, userNo: user.userNo });
    },
    // The notes' rows, locked `share`, are what a signature locks `for update` and a finish or delete
    // updates; the projects are read afresh after the locks (a statement of their own, run after the
    // locking one), so a finish committed before them is seen. Two statements for a whole group's notes.
    async writable(ids: string[], tx: Queryable) {
      const noteNos = ids.map(canonicalRecordNo);
      const known = noteNos.filter((noteNo) => noteNo !== null);
      const notes = await lockNotesForWriting(tx, known);
      return noteNos.map((noteNo) => {
        const note = noteNo === null ? undefined : notes.get(noteNo);
        return Boolean(note && noteOpenForWriting(note, { status: note.projectStatus }));
      });
    },
  };
}
