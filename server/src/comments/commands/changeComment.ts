import { and, eq, isNull } from 'drizzle-orm';
import { ERR, type api, type CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { comments } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { newlyMentioned, notifyMentioned } from '../mentions.js';
import { canChangeComment, CHANGE_REFUSALS } from '../policy.js';
import { requireComment } from '../queries.js';
import { auditTarget, tellCommentsChanged } from './shared.js';

/**
 * Changes a comment's text: its author's alone. The audit record keeps the text before and after; people
 * the new text mentions who were not mentioned before are notified.
 */
export async function updateComment({ db, live }: Services, actor: Actor, input: CallRequest<typeof api.comments.update>): Promise<null> {
  const { comment, place } = await requireComment(db, actor.user, input.commentId);
  enforce(canChangeComment(actor.user, place, { authorUserNo: comment.authorUserNo, deleted: false }), CHANGE_REFUSALS);
  if (comment.body === input.body) return null;
  const recipients = await newlyMentioned(db, place, input.body, comment.body);
  await live.transaction(db, async (tx, queued) => {
    const [changed] = await tx
      .update(comments)
      .set({ body: input.body, editedAt: new Date() })
      .where(and(eq(comments.commentId, comment.commentId), isNull(comments.deletedAt)))
      .returning();
    if (!changed) throw new AppError(ERR.commentMissing);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'comment.updated',
      target: auditTarget(place),
      before: { commentId: comment.commentId, body: comment.body },
      after: { commentId: comment.commentId, body: changed.body },
    });
    await notifyMentioned(tx, place, recipients, actor.user.userNo, changed);
    tellCommentsChanged(queued, place);
  });
  return null;
}

/**
 * Deletes a comment: its author's alone. The row stays, its text emptied (a first comment with replies is
 * still shown, as a mark); the audit record keeps the text it had.
 */
export async function deleteComment({ db, live }: Services, actor: Actor, input: CallRequest<typeof api.comments.delete>): Promise<null> {
  const { comment, place } = await requireComment(db, actor.user, input.commentId);
  enforce(canChangeComment(actor.user, place, { authorUserNo: comment.authorUserNo, deleted: false }), CHANGE_REFUSALS);
  await live.transaction(db, async (tx, queued) => {
    const [deleted] = await tx
      .update(comments)
      .set({ body: '', deletedAt: new Date() })
      .where(and(eq(comments.commentId, comment.commentId), isNull(comments.deletedAt)))
      .returning({ commentId: comments.commentId });
    if (!deleted) throw new AppError(ERR.commentMissing);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'comment.deleted',
      target: auditTarget(place),
      before: { commentId: comment.commentId, replyTo: comment.replyTo, body: comment.body },
      after: { commentId: comment.commentId, deleted: true },
    });
    tellCommentsChanged(queued, place);
  });
  return null;
}
