import { and, eq, isNull } from 'drizzle-orm';
import type { api, CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { noteSignatures } from '../../db/schema.js';
import type { Services } from '../../services.js';
import { settleNoteStatus } from './noteStatus.js';
import { askNewSigners, notifyNewSigners, refuseWritersAsReviewers, requestableNote, resolveSigners, stillRequestable } from './signers.js';

/**
 * Asks members of the note's project to sign it (the writer or the leader, `canRequestSignatures`);
 * signers already asked stay as they are. The note becomes requested.
 */
export async function requestSignatures({ db }: Services, actor: Actor, input: CallRequest<typeof api.signatures.request>): Promise<null> {
  const { user } = actor;
  const ctx = await requestableNote(db, user, input.labNoteNo);
  const signers = await resolveSigners(db, ctx.project, input.signers);
  await db.transaction(async (tx) => {
    await stillRequestable(tx, user, ctx);
    await refuseWritersAsReviewers(tx, ctx.note.noteNo, signers);
    const present = await tx
      .select({ userNo: noteSignatures.userNo })
      .from(noteSignatures)
      .where(and(eq(noteSignatures.noteNo, ctx.note.noteNo), isNull(noteSignatures.removedAt)));
    const added = await askNewSigners(tx, ctx.note.noteNo, signers, new Set(present.map((p) => p.userNo)), user.userNo);
    await notifyNewSigners(tx, ctx, added, user.userNo);
    const status = await settleNoteStatus(tx, ctx.note.noteNo);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'signature.requested',
      target: { type: 'note', id: ctx.note.noteNo },
      before: { status: ctx.note.status },
      after: { status, signers: added.map(({ userId, type }) => ({ userId, type })) },
    });
  });
  return null;
}
