import { eq } from 'drizzle-orm';
import { COMMENT_LIMITS, ERR, type api, type CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { comments } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { keptQuote, readableAnchor } from '../anchors.js';
import { newlyMentioned, notifyMentioned } from '../mentions.js';
import { canComment, canReply, COMMENT_REFUSALS, REPLY_REFUSALS } from '../policy.js';
import { openThreadCount, replyCount, requirePlace, type FoundPlace, type StoredComment } from '../queries.js';
import { auditTarget, lockPlaceComments, tellCommentsChanged } from './shared.js';

const onSamePlace = (comment: StoredComment, place: FoundPlace) =>
  place.kind === 'note' ? comment.noteNo === place.no : comment.templateNo === place.no;

/**
 * Opens a thread anchored in the note (or template draft), or replies to one: any reader, unless the
 * note's project is closed. Signed and finished notes take comments: they change nothing of the note.
 * Each person the text mentions is notified in the same transaction; every open screen of the note is
 * told to load the threads again.
 */
export async function createComment(
  { db, live }: Services,
  actor: Actor,
  input: CallRequest<typeof api.comments.create>,
): Promise<{ commentId: number }> {
  const place = await requirePlace(db, actor.user, input);
  enforce(canComment(place), COMMENT_REFUSALS);
  if (input.anchor && !readableAnchor(input.anchor)) throw new AppError(ERR.commentAnchorInvalid);
  const recipients = await newlyMentioned(db, place, input.body);
  return live.transaction(db, async (tx, queued) => {
    await lockPlaceComments(tx, place);
    let values: typeof comments.$inferInsert;
    const common = {
      noteNo: place.kind === 'note' ? place.no : null,
      templateNo: place.kind === 'template' ? place.no : null,
      authorUserNo: actor.user.userNo,
      body: input.body,
    };
    if (input.replyTo !== undefined) {
      const [thread] = await tx.select().from(comments).where(eq(comments.commentId, input.replyTo));
      if (thread && (thread.replyTo !== null || !onSamePlace(thread, place))) throw new AppError(ERR.commentReplyTarget);
      const facts = thread && {
        authorUserNo: thread.authorUserNo,
        deleted: thread.deletedAt !== null,
        resolved: thread.resolvedAt !== null,
      };
      enforce(canReply(place, facts), REPLY_REFUSALS);
      if ((await replyCount(tx, input.replyTo)) >= COMMENT_LIMITS.repliesPerThread)
        throw new AppError(ERR.commentReplyLimit, { params: { max: COMMENT_LIMITS.repliesPerThread } });
      values = { ...common, replyTo: input.replyTo };
    } else {
      if ((await openThreadCount(tx, place)) >= COMMENT_LIMITS.threadsPerPlace)
        throw new AppError(ERR.commentThreadLimit, { params: { max: COMMENT_LIMITS.threadsPerPlace } });
      const anchor = input.anchor!;
      values = {
        ...common,
        blockUid: anchor.blockUid,
        anchorStart: anchor.start,
        anchorEnd: anchor.end,
        quote: keptQuote(anchor.quote),
      };
    }
    const [created] = await tx.insert(comments).values(values).returning();
    const comment = created!;
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'comment.created',
      target: auditTarget(place),
      after: {
        commentId: comment.commentId,
        replyTo: comment.replyTo,
        blockUid: comment.blockUid,
        quote: comment.quote,
        body: comment.body,
      },
    });
    await notifyMentioned(tx, place, recipients, actor.user.userNo, comment);
    tellCommentsChanged(queued, place);
    return { commentId: comment.commentId };
  });
}
