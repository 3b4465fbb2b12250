import type { CommentAnchor, CommentEntry, CommentThread } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { comments } from '../db/schema.js';
import { commentAbilities, threadAbilities, type CommentPlace } from './policy.js';

/** A comment as queries.ts reads it: the row, its author's and its resolver's IDs and names. */
export interface CommentRow {
  comment: typeof comments.$inferSelect;
  authorId: string;
  authorName: string;
  resolverId: string | null;
  resolverName: string | null;
}

/** A thread's anchor as stored (a first comment's columns). */
export function anchorOf(comment: CommentRow['comment']): CommentAnchor {
  return { blockUid: comment.blockUid ?? '', start: comment.anchorStart, end: comment.anchorEnd, quote: comment.quote ?? '' };
}

function entryOf(user: AuthUser, place: CommentPlace, row: CommentRow): CommentEntry {
  const { comment } = row;
  const deleted = comment.deletedAt !== null;
  return {
    commentId: comment.commentId,
    author: { userId: row.authorId, name: row.authorName },
    body: deleted ? '' : comment.body,
    createdAt: comment.createdAt.toISOString(),
    editedAt: comment.editedAt?.toISOString() ?? null,
    deleted,
    abilities: commentAbilities(user, place, { authorUserNo: comment.authorUserNo, deleted }),
  };
}

/**
 * A place's comments as threads, in the order they were opened, each with its replies (deleted ones left
 * out). A deleted first comment is kept as a mark while replies remain, and its thread left out once none
 * do. `onDeletedText` reads each anchor against the document as it is now.
 */
export function presentThreads(
  user: AuthUser,
  place: CommentPlace,
  rows: readonly CommentRow[],
  onDeletedText: (anchor: CommentAnchor) => boolean,
): CommentThread[] {
  const replies = new Map<number, CommentEntry[]>();
  for (const row of rows) {
    const { replyTo, deletedAt } = row.comment;
    if (replyTo === null || deletedAt !== null) continue;
    replies.set(replyTo, [...(replies.get(replyTo) ?? []), entryOf(user, place, row)]);
  }
  return rows.flatMap((row): CommentThread[] => {
    const { comment } = row;
    if (comment.replyTo !== null) return [];
    const answers = replies.get(comment.commentId) ?? [];
    if (comment.deletedAt !== null && answers.length === 0) return [];
    const entry = entryOf(user, place, row);
    const resolved = comment.resolvedAt !== null;
    const anchor = anchorOf(comment);
    return [
      {
        ...entry,
        anchor,
        onDeletedText: onDeletedText(anchor),
        resolved: resolved
          ? { by: { userId: row.resolverId ?? '', name: row.resolverName ?? '' }, at: comment.resolvedAt!.toISOString() }
          : null,
        replies: answers,
        threadAbilities: threadAbilities(user, place, { authorUserNo: comment.authorUserNo, deleted: entry.deleted, resolved }),
      },
    ];
  });
}
