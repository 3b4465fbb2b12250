import { and, eq, inArray, isNull } from 'drizzle-orm';
import { ERR, NOTE_STATUS, noteDocumentName, type api, type CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { labNotes, noteHolds } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canDeleteNote, DELETE_REFUSALS } from '../policy.js';
import { requireVisibleNote } from '../queries.js';
import { queueForSearch } from '../../search/indexer.js';

/** Deletes a note not yet signed (`canDeleteNote`); open editors of it are told it is gone, on every process. */
export async function deleteNote({ db, live }: Services, actor: Actor, input: CallRequest<typeof api.notes.delete>): Promise<null> {
  const ctx = await requireVisibleNote(db, actor.user, input.labNoteNo);
  enforce(canDeleteNote(actor.user, ctx), DELETE_REFUSALS);
  await live.transaction(db, async (tx, commands) => {
    // The status condition makes a signature committed meanwhile win: a signed note is never deleted.
    const [deleted] = await tx
      .update(labNotes)
      .set({ deletedAt: new Date(), updatedAt: new Date() })
      .where(
        and(
          eq(labNotes.noteNo, ctx.note.noteNo),
          isNull(labNotes.deletedAt),
          inArray(labNotes.status, [NOTE_STATUS.writing, NOTE_STATUS.requested]),
        ),
      )
      .returning();
    if (!deleted) throw new AppError(ERR.noteDeleted);
    await tx.delete(noteHolds).where(eq(noteHolds.noteNo, ctx.note.noteNo));
    // Its search rows go at the indexer's next pass; until then the search itself skips deleted notes.
    await queueForSearch(tx, noteDocumentName(ctx.note.noteNo));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'note.deleted',
      target: { type: 'note', id: ctx.note.noteNo },
      before: { title: ctx.note.title, version: ctx.note.version, status: ctx.note.status },
    });
    commands.close(noteDocumentName(ctx.note.noteNo));
  });
  return null;
}
