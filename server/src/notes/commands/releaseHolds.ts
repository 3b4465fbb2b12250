import { and, eq, inArray } from 'drizzle-orm';
import { ERR, noteDocumentName, type api, type CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { noteHolds } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import { canClearAllHolds, CLEAR_HOLDS_REFUSALS } from '../../projects/policy.js';
import { requireReadableProject } from '../../projects/queries.js';
import type { Services } from '../../services.js';
import { noteNosOfProject, notesHeldBy, requireVisibleNote } from '../queries.js';

/** Whose holds end: the caller's own, or everyone's (the leader's release of a project's notes, audited). */
type Holders = 'caller' | 'everyone';

/**
 * Ends holds on the notes: the holds are removed and their writing connections stop writing in one
 * change (the end-writing commands are logged in the transaction that deletes the holds), on every
 * process before this answers; what they sent before is stored. Any failure answers 2010.
 */
async function endHolds({ db, live, log }: Services, actor: Actor, noteNos: number[], holders: Holders): Promise<void> {
  const onlyCaller = holders === 'caller';
  try {
    await live.transaction(db, async (tx, commands) => {
      const removed = await tx
        .delete(noteHolds)
        .where(
          and(inArray(noteHolds.noteNo, noteNos.length ? noteNos : [-1]), onlyCaller ? eq(noteHolds.userNo, actor.user.userNo) : undefined),
        )
        .returning();
      for (const noteNo of noteNos) commands.endWriting(noteDocumentName(noteNo), onlyCaller ? actor.user.userNo : null, 'cleared');
      if (!onlyCaller && removed.length) {
        await appendAudit(tx, {
          ...auditedActor(actor),
          action: 'note.holdsCleared',
          target: { type: 'notes', id: noteNos.join(',') },
          before: { holders: removed.map((h) => h.userNo) },
        });
      }
    });
  } catch (error) {
    log.error({ err: error }, 'clearing note holds failed');
    throw new AppError(ERR.noteEditorsClear);
  }
}

/** Ends the caller's own hold on a note they may read (`/clear`: leaving the note). */
export async function releaseHold(services: Services, actor: Actor, input: CallRequest<typeof api.notes.releaseHold>): Promise<null> {
  const ctx = await requireVisibleNote(services.db, actor.user, input.labNoteNo);
  await endHolds(services, actor, [ctx.note.noteNo], 'caller');
  return null;
}

/** Ends every hold of the caller's (`/editor/clear`). */
export async function releaseOwnHolds(services: Services, actor: Actor): Promise<null> {
  await endHolds(services, actor, await notesHeldBy(services.db, actor.user.userNo), 'caller');
  return null;
}

/** Ends everyone's holds on a project's notes (`canClearAllHolds`: its leader or an administrator). */
export async function releaseProjectHolds(
  services: Services,
  actor: Actor,
  input: CallRequest<typeof api.notes.releaseProjectHolds>,
): Promise<null> {
  const { project } = await requireReadableProject(services.db, actor.user, input.projectNo);
  enforce(canClearAllHolds(actor.user, project), CLEAR_HOLDS_REFUSALS);
  await endHolds(services, actor, await noteNosOfProject(services.db, project.projectNo), 'everyone');
  return null;
}
