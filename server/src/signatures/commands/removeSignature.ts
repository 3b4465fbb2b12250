import { and, eq, isNull } from 'drizzle-orm';
import { ERR, type api, type CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { noteSignatures, users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import { canRemoveSignature, REMOVE_SIGNATURE_REFUSALS } from '../../notes/policy.js';
import { requireVisibleNote } from '../../notes/queries.js';
import type { Services } from '../../services.js';
import { queueTimestamp } from '../../timestamps/queue.js';
import { signatureRemovalSubject } from '../../timestamps/subjects.js';
import { notifyWriters } from '../../notifications/recipients.js';
import { settleNoteStatus } from './noteStatus.js';
import { emitWebhook } from '../../webhooks/emit.js';

/** The leader removes a signature, answered or pending, with a reason the audit record keeps; the note's status follows. */
export async function removeSignature(
  { db, timestamps }: Services,
  actor: Actor,
  input: CallRequest<typeof api.signatures.remove>,
): Promise<null> {
  const ctx = await requireVisibleNote(db, actor.user, input.labNoteNo);
  enforce(canRemoveSignature(actor.user, ctx), REMOVE_SIGNATURE_REFUSALS);
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .update(noteSignatures)
      .set({ removedAt: new Date(), removedByUserNo: actor.user.userNo, removedReason: input.reason })
      .where(
        and(
          eq(noteSignatures.signatureId, input.signatureId),
          eq(noteSignatures.noteNo, ctx.note.noteNo),
          isNull(noteSignatures.removedAt),
        ),
      )
      .returning();
    if (!removed) throw new AppError(ERR.signerModify);
    const status = await settleNoteStatus(tx, ctx.note.noteNo);
    const [signer] = await tx.select({ userId: users.userId }).from(users).where(eq(users.userNo, removed.userNo));
    await queueTimestamp(
      tx,
      'signatureRemoval',
      removed.signatureId,
      signatureRemovalSubject(removed, ctx.note.noteNo, { signer: signer?.userId ?? '', removedBy: actor.user.userId }),
    );
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'signature.removed',
      target: { type: 'note', id: ctx.note.noteNo },
      before: {
        signer: signer?.userId,
        meaning: removed.type,
        status: removed.status,
        version: removed.signedVersion,
        noteStatus: ctx.note.status,
      },
      after: { noteStatus: status },
      reason: input.reason,
    });
    await notifyWriters(tx, 'signatureRemoved', ctx.note, actor.user.userNo, { meaning: removed.type, reason: input.reason });
    await emitWebhook(tx, {
      event: 'signature.removed',
      projectNo: ctx.note.projectNo,
      noteNo: ctx.note.noteNo,
      data: {
        projectNo: ctx.note.projectNo,
        labNoteNo: ctx.note.noteNo,
        signerUserNo: removed.userNo,
        meaning: removed.type,
        declined: false,
        removedByUserNo: actor.user.userNo,
        noteStatus: status,
      },
    });
  });
  timestamps.kick();
  return null;
}
