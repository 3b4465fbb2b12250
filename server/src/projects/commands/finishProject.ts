import { and, eq, inArray, isNull } from 'drizzle-orm';
import {
  AUDIT_SYSTEM_REASONS,
  ERR,
  NOTE_STATUS,
  noteDocumentName,
  PROJECT_STATUS,
  SIGNATURE_STATUS,
  type CallRequest,
  type api,
} from '@eln/shared';
import { appendAudit, appendAuditBatch, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { labNotes, noteHolds, noteSignatures, projects } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { notify } from '../../notifications/notify.js';
import { membersOfProject } from '../../notifications/recipients.js';
import { canFinishProject, MODIFY_REFUSALS } from '../policy.js';
import { hasReviewerSignature, pendingSignaturesOf, requireReadableProject } from '../queries.js';
import { emitWebhook } from '../../webhooks/emit.js';

/**
 * Closes a project (its leader, once a reviewer has signed one of its notes): every note becomes finished
 * and read-only everywhere at once; open editors of its notes stop writing now. Signature requests still
 * pending can no longer be answered: each is cancelled at close (status C), with an audit record of its
 * own, so that a finished note never shows a signer as "Pending".
 */
export async function finishProject(
  { db, live, config }: Services,
  actor: Actor,
  input: CallRequest<typeof api.projects.finish>,
): Promise<null> {
  const { project } = await requireReadableProject(db, actor.user, input.projectNo);
  enforce(canFinishProject(actor.user, project), MODIFY_REFUSALS);
  if (!(await hasReviewerSignature(db, project.projectNo))) throw new AppError(ERR.noReviewerSignature);
  await live.transaction(db, async (tx, commands) => {
    const at = new Date();
    const [finished] = await tx
      .update(projects)
      .set({ status: PROJECT_STATUS.completed, finishedAt: at, updatedAt: at })
      .where(and(eq(projects.projectNo, project.projectNo), eq(projects.status, PROJECT_STATUS.inProgress)))
      .returning();
    if (!finished) throw new AppError(ERR.projectModify);
    // Updating the notes' rows waits for appends of live updates in flight (they hold the rows `share`,
    // see the lab note DocumentKind); later appends see the notes finished and are refused. Signing
    // locks its note's row too, so no request is answered between here and the cancellation below.
    const closed = await tx
      .update(labNotes)
      .set({ status: NOTE_STATUS.finished, updatedAt: at })
      .where(and(eq(labNotes.projectNo, project.projectNo), isNull(labNotes.deletedAt)))
      .returning({ noteNo: labNotes.noteNo });
    await tx.delete(noteHolds).where(inArray(noteHolds.noteNo, closed.length ? closed.map((n) => n.noteNo) : [-1]));
    const pending = await pendingSignaturesOf(tx, project.projectNo);
    if (pending.length) {
      await tx
        .update(noteSignatures)
        // Said in the notebook's zone (TIME_ZONE): no signer chose one.
        .set({ status: SIGNATURE_STATUS.cancelled, signedAt: at, timeZone: config.timeZone })
        .where(
          inArray(
            noteSignatures.signatureId,
            pending.map((p) => p.signature.signatureId),
          ),
        );
    }
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'project.finished',
      target: { type: 'project', id: project.projectNo },
      before: { status: project.status },
      after: { status: PROJECT_STATUS.completed, notes: closed.length, cancelledSignatures: pending.length },
    });
    await appendAuditBatch(
      tx,
      pending.map(({ signature, note, signer }) => ({
        ...auditedActor(actor),
        action: 'signature.cancelled' as const,
        target: { type: 'note', id: note.noteNo },
        before: { signer: signer.userId, meaning: signature.type, status: signature.status },
        after: { status: SIGNATURE_STATUS.cancelled, project: project.projectNo },
        reason: AUDIT_SYSTEM_REASONS.projectClosed,
      })),
    );
    await notify(tx, {
      event: 'projectClosed',
      recipients: await membersOfProject(tx, project.projectNo),
      actorUserNo: actor.user.userNo,
      projectNo: project.projectNo,
    });
    await emitWebhook(tx, {
      event: 'project.closed',
      projectNo: project.projectNo,
      data: { projectNo: project.projectNo, closedByUserNo: actor.user.userNo, notesClosed: closed.map(({ noteNo }) => noteNo) },
    });
    for (const { noteNo } of closed) commands.endWriting(noteDocumentName(noteNo), null, 'finished');
  });
  return null;
}
