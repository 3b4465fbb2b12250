import { and, eq } from 'drizzle-orm';
import { SIGNATURE_STATUS } from '@eln/shared';
import type { Tx } from '../db/client.js';
import { labNotes, noteSignatures, noteVersions, users } from '../db/schema.js';
import { queueTimestamp } from './queue.js';
import { versionStampId, versionSubject } from './subjects.js';

/*
 * Which saved versions are time-stamped: those of a signed note's final state. Precisely, a version is
 * stamped when a signature is given over it (in the signature's transaction), and every version saved or
 * restored on a note that has been signed at least once (a signature given, removed since or not), in
 * its save's transaction. A note never signed has its versions unstamped: its drafts prove nothing yet.
 */

/** Whether someone has ever signed the note (a removed signature counts: the note was signed once). */
export async function hasBeenSigned(tx: Tx, noteNo: number): Promise<boolean> {
  const [row] = await tx
    .select({ signatureId: noteSignatures.signatureId })
    .from(noteSignatures)
    .where(and(eq(noteSignatures.noteNo, noteNo), eq(noteSignatures.status, SIGNATURE_STATUS.signed)))
    .limit(1);
  return row !== undefined;
}

/** Asks, in the transaction that saved or signed it, for a stamp over a saved version (once: a stamped version is not asked again). */
export async function queueVersionStamp(tx: Tx, noteNo: number, version: number): Promise<boolean> {
  const [row] = await tx
    .select({
      labNoteNumber: labNotes.labNoteNumber,
      blocksHash: noteVersions.blocksHash,
      savedAt: noteVersions.savedAt,
      savedBy: users.userId,
    })
    .from(noteVersions)
    .innerJoin(labNotes, eq(labNotes.noteNo, noteVersions.noteNo))
    .innerJoin(users, eq(users.userNo, noteVersions.savedByUserNo))
    .where(and(eq(noteVersions.noteNo, noteNo), eq(noteVersions.version, version)));
  if (!row) return false;
  return queueTimestamp(tx, 'version', versionStampId(noteNo, version), versionSubject({ labNoteNo: noteNo, version, ...row }));
}
