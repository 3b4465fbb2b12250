import { and, eq, inArray, isNull } from 'drizzle-orm';
import { ERR, NOTE_STATUS, noteDocumentName, PROJECT_STATUS, type CallRequest, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { labNotes, noteHolds, projects } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canFinishProject, MODIFY_REFUSALS } from '../policy.js';
import { hasReviewerSignature, requireReadableProject } from '../queries.js';

/**
 * Closes a project (its leader, once a reviewer has signed one of its notes): every note becomes finished
 * and read-only everywhere at once; open editors of its notes stop writing now.
 */
export async function finishProject({ db, live }: Services, actor: Actor, input: CallRequest<typeof api.projects.finish>): Promise<null> {
  const { project } = await requireReadableProject(db, actor.user, input.projectNo);
  enforce(canFinishProject(actor.user, project), MODIFY_REFUSALS);
  if (!(await hasReviewerSignature(db, project.projectNo))) throw new AppError(ERR.noReviewerSignature);
  await live.transaction(db, async (tx, commands) => {
    const [finished] = await tx
      .update(projects)
      .set({ status: PROJECT_STATUS.completed, finishedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(projects.projectNo, project.projectNo), eq(projects.status, PROJECT_STATUS.inProgress)))
      .returning();
    if (!finished) throw new AppError(ERR.projectModify);
    // Updating the notes' rows waits for appends of live updates in flight (they hold the rows `share`,
    // see the lab note DocumentKind); later appends see the notes finished and are refused.
    const closed = await tx
      .update(labNotes)
      .set({ status: NOTE_STATUS.finished, updatedAt: new Date() })
      .where(and(eq(labNotes.projectNo, project.projectNo), isNull(labNotes.deletedAt)))
      .returning({ noteNo: labNotes.noteNo });
    await tx.delete(noteHolds).where(inArray(noteHolds.noteNo, closed.length ? closed.map((n) => n.noteNo) : [-1]));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'project.finished',
      target: { type: 'project', id: project.projectNo },
      before: { status: project.status },
      after: { status: PROJECT_STATUS.completed, notes: closed.length },
    });
    for (const { noteNo } of closed) commands.endWriting(noteDocumentName(noteNo), null, 'finished');
  });
  return null;
}
