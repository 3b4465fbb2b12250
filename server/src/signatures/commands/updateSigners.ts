import { and, eq, isNull } from 'drizzle-orm';
import { SIGNATURE_STATUS, type api, type CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { noteSignatures } from '../../db/schema.js';
import type { Services } from '../../services.js';
import { settleNoteStatus } from './noteStatus.js';
import { askNewSigners, notifyNewSigners, refuseWritersAsReviewers, requestableNote, resolveSigners, stillRequestable } from './signers.js';

/**
 * Replaces the note's pending signers with those of the request: pending requests not named again are
 * withdrawn, a changed meaning is changed, new signers are asked. Answered signatures stay as they are.
 */
export async function updateSigners(
  { db }: Services,
  actor: Actor,
  input: CallRequest<typeof api.signatures.updateSigners>,
): Promise<null> {
  const { user } = actor;
  const ctx = await requestableNote(db, user, input.labNoteNo);
  const wanted = await resolveSigners(db, ctx.project, input.signers);
  await db.transaction(async (tx) => {
    await stillRequestable(tx, user, ctx);
    await refuseWritersAsReviewers(tx, ctx.note.noteNo, wanted);
    const current = await tx
      .select()
      .from(noteSignatures)
      .where(and(eq(noteSignatures.noteNo, ctx.note.noteNo), isNull(noteSignatures.removedAt)));
    const wantedByUser = new Map(wanted.map((w) => [w.userNo, w]));
    const pending = current.filter((s) => s.status === SIGNATURE_STATUS.pending);
    for (const signature of pending) {
      const next = wantedByUser.get(signature.userNo);
      if (!next) {
        await tx
          .update(noteSignatures)
          .set({ removedAt: new Date(), removedByUserNo: user.userNo, removedReason: 'request withdrawn' })
          .where(eq(noteSignatures.signatureId, signature.signatureId));
      } else if (next.type !== signature.type) {
        await tx.update(noteSignatures).set({ type: next.type }).where(eq(noteSignatures.signatureId, signature.signatureId));
      }
    }
    const added = await askNewSigners(tx, ctx.note.noteNo, wanted, new Set(current.map((s) => s.userNo)), user.userNo);
    await notifyNewSigners(tx, ctx, added, user.userNo);
    const status = await settleNoteStatus(tx, ctx.note.noteNo);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'signature.updated',
      target: { type: 'note', id: ctx.note.noteNo },
      before: { status: ctx.note.status, pending: pending.map((s) => ({ userNo: s.userNo, type: s.type })) },
      after: { status, signers: wanted.map(({ userId, type }) => ({ userId, type })) },
    });
  });
  return null;
}
