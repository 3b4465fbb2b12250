import { and, eq, isNull } from 'drizzle-orm';
import { NOTE_STATUS, SIGNATURE_STATUS, type NoteStatus } from '@eln/shared';
import type { Tx } from '../../db/client.js';
import { labNotes, noteSignatures } from '../../db/schema.js';

/** A note's status follows its live signatures: any signed locks it, any pending means requested. */
export async function settleNoteStatus(tx: Tx, noteNo: number): Promise<NoteStatus> {
  const live = await tx
    .select({ status: noteSignatures.status })
    .from(noteSignatures)
    .where(and(eq(noteSignatures.noteNo, noteNo), isNull(noteSignatures.removedAt)));
  const has = (status: string) => live.some((s) => s.status === status);
  const status: NoteStatus = has(SIGNATURE_STATUS.signed)
    ? NOTE_STATUS.signed
    : has(SIGNATURE_STATUS.pending)
      ? NOTE_STATUS.requested
      : NOTE_STATUS.writing;
  await tx
    .update(labNotes)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(labNotes.noteNo, noteNo), isNull(labNotes.deletedAt)));
  return status;
}
