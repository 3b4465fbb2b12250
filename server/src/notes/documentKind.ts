import type { AuthUser } from '../auth/authUser.js';
import type { DocumentKind } from '../collab/documentKinds.js';
import type { Db } from '../db/client.js';
import { findNoteFor, mayWrite } from './queries.js';

/** Live lab notes `labnote.<no>`: visible to whoever sees the project, writable by the rule of `mayWrite`. */
export function labNoteDocumentKind(db: Db): DocumentKind {
  return {
    prefix: 'labnote',
    async authorize(user: AuthUser, id: string) {
      const noteNo = Number(id);
      if (!Number.isSafeInteger(noteNo) || noteNo <= 0) return null;
      const ctx = await findNoteFor(db, user, noteNo);
      if (!ctx || ctx.note.deletedAt) return null;
      return mayWrite(ctx) ? 'write' : 'read';
    },
  };
}
