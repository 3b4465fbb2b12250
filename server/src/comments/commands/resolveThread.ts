import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { api, CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { comments } from '../../db/schema.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canReopen, canResolve, REOPEN_REFUSALS, RESOLVE_REFUSALS } from '../policy.js';
import { requireComment } from '../queries.js';
import { auditTarget, tellCommentsChanged } from './shared.js';

/**
 * Resolves (or reopens) the thread a comment is in, by its first comment or any reply: the note's writer, a
 * signer asked on it or the project leader (a template's author or an administrator). Two at once: the
 * second is told the thread already is (4912, 4913).
 */
export async function setThreadResolved(
  { db, live }: Services,
  actor: Actor,
  input: CallRequest<typeof api.comments.resolve>,
  resolved: boolean,
): Promise<null> {
  const found = await requireComment(db, actor.user, input.commentId);
  const { place } = found;
  const thread = found.comment.replyTo === null ? found.comment : (await requireComment(db, actor.user, found.comment.replyTo)).comment;
  const facts = { resolved: thread.resolvedAt !== null };
  if (resolved) enforce(canResolve(actor.user, place, facts), RESOLVE_REFUSALS);
  else enforce(canReopen(actor.user, place, facts), REOPEN_REFUSALS);
  await live.transaction(db, async (tx, queued) => {
    const [changed] = await tx
      .update(comments)
      .set(resolved ? { resolvedAt: new Date(), resolvedByUserNo: actor.user.userNo } : { resolvedAt: null, resolvedByUserNo: null })
      .where(and(eq(comments.commentId, thread.commentId), resolved ? isNull(comments.resolvedAt) : isNotNull(comments.resolvedAt)))
      .returning({ commentId: comments.commentId });
    // Someone else did it first: the thread is as asked, but not by this call.
    if (!changed && resolved) enforce('alreadyResolved', RESOLVE_REFUSALS);
    if (!changed && !resolved) enforce('alreadyOpen', REOPEN_REFUSALS);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: resolved ? 'comment.resolved' : 'comment.reopened',
      target: auditTarget(place),
      before: { commentId: thread.commentId, resolved: !resolved },
      after: { commentId: thread.commentId, resolved },
    });
    tellCommentsChanged(queued, place);
  });
  return null;
}
