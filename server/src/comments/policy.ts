import { ERR } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Refusals } from '../http/verdicts.js';
import { inProgress } from '../projects/policy.js';
import { isAdministrator } from '../users/policy.js';

/*
 * Who may do what with comments: every rule once, as a verdict with its reason. The commands enforce the
 * verdicts; the list answers carry them to the client as `abilities` (per thread and per comment).
 *
 * Whoever may read a note (or open a template draft) may comment on it: reading is decided by the note's
 * or the template's own policy before these are asked. Comments are remarks beside the record, not part
 * of it, so a signed or finished note takes them (a reviewer's remark after signing is normal); a closed
 * project's notes take no more, as nothing of a closed project changes.
 */

export type Caller = Pick<AuthUser, 'userNo' | 'level'>;

/** Where comments are, as the rules see it (queries.ts reads it). */
export interface CommentPlace {
  kind: 'note' | 'template';
  /** The note's or template's number. */
  no: number;
  /** The note's project is closed (never for a template). */
  closed: boolean;
  /** The note's writer, or the template's author. */
  writerUserNo: number;
  /** The note's project leader (null for a template). */
  leaderUserNo: number | null;
  /** The people asked to sign the note (requests not removed; none for a template). */
  signerUserNos: readonly number[];
}

/** A comment as the rules see it. */
export interface CommentFacts {
  authorUserNo: number;
  deleted: boolean;
}

export type CommentVerdict = 'allowed' | 'closed';
export type ChangeVerdict = 'allowed' | 'closed' | 'missing' | 'notAuthor';
export type ResolveVerdict = 'allowed' | 'closed' | 'missing' | 'notResolver' | 'alreadyResolved';
export type ReopenVerdict = 'allowed' | 'closed' | 'missing' | 'notResolver' | 'alreadyOpen';
export type ReplyVerdict = 'allowed' | 'closed' | 'missing' | 'resolved';

export const COMMENT_REFUSALS: Refusals<CommentVerdict> = { closed: ERR.commentProjectClosed };
export const CHANGE_REFUSALS: Refusals<ChangeVerdict> = {
  closed: ERR.commentProjectClosed,
  missing: ERR.commentMissing,
  notAuthor: ERR.commentNotAuthor,
};
export const RESOLVE_REFUSALS: Refusals<ResolveVerdict> = {
  closed: ERR.commentProjectClosed,
  missing: ERR.commentMissing,
  notResolver: ERR.commentNotResolver,
  alreadyResolved: ERR.commentAlreadyResolved,
};
export const REOPEN_REFUSALS: Refusals<ReopenVerdict> = {
  closed: ERR.commentProjectClosed,
  missing: ERR.commentMissing,
  notResolver: ERR.commentNotResolver,
  alreadyOpen: ERR.commentAlreadyOpen,
};
export const REPLY_REFUSALS: Refusals<ReplyVerdict> = {
  closed: ERR.commentProjectClosed,
  missing: ERR.commentReplyTarget,
  resolved: ERR.commentResolvedNoReply,
};

/** Threads are opened and answered by every reader, unless the note's project is closed. */
export function canComment(place: Pick<CommentPlace, 'closed'>): CommentVerdict {
  return place.closed ? 'closed' : 'allowed';
}

/** A reply answers a thread that is there and open. */
export function canReply(place: Pick<CommentPlace, 'closed'>, thread: (CommentFacts & { resolved: boolean }) | undefined): ReplyVerdict {
  if (place.closed) return 'closed';
  if (!thread) return 'missing';
  return thread.resolved ? 'resolved' : 'allowed';
}

/** A comment's text is changed, and the comment deleted, by its author alone. */
export function canChangeComment(user: Caller, place: Pick<CommentPlace, 'closed'>, comment: CommentFacts): ChangeVerdict {
  if (place.closed) return 'closed';
  if (comment.deleted) return 'missing';
  return comment.authorUserNo === user.userNo ? 'allowed' : 'notAuthor';
}

/**
 * Those who answer for the note resolve and reopen its threads: its writer, a signer asked on it (the
 * reviewer whose remark it often is) and the project leader; on a template, its author and administrators
 * (who carry on a draft its author left).
 */
export function resolvesThreads(user: Caller, place: CommentPlace): boolean {
  if (place.writerUserNo === user.userNo) return true;
  if (place.kind === 'template') return isAdministrator(user);
  return place.leaderUserNo === user.userNo || place.signerUserNos.includes(user.userNo);
}

export function canResolve(user: Caller, place: CommentPlace, thread: { resolved: boolean } | undefined): ResolveVerdict {
  if (place.closed) return 'closed';
  if (!thread) return 'missing';
  if (!resolvesThreads(user, place)) return 'notResolver';
  return thread.resolved ? 'alreadyResolved' : 'allowed';
}

export function canReopen(user: Caller, place: CommentPlace, thread: { resolved: boolean } | undefined): ReopenVerdict {
  if (place.closed) return 'closed';
  if (!thread) return 'missing';
  if (!resolvesThreads(user, place)) return 'notResolver';
  return thread.resolved ? 'allowed' : 'alreadyOpen';
}

/** The verdicts on one comment, as its answer carries them. */
export function commentAbilities(user: Caller, place: CommentPlace, comment: CommentFacts): { edit: boolean; delete: boolean } {
  const change = canChangeComment(user, place, comment) === 'allowed';
  return { edit: change, delete: change };
}

/** The verdicts on one thread, as its answer carries them. */
export function threadAbilities(
  user: Caller,
  place: CommentPlace,
  thread: CommentFacts & { resolved: boolean },
): { reply: boolean; resolve: boolean; reopen: boolean } {
  return {
    reply: canReply(place, thread) === 'allowed',
    resolve: canResolve(user, place, thread) === 'allowed',
    reopen: canReopen(user, place, thread) === 'allowed',
  };
}

/** Whether a note's project state closes its comments (a helper for queries.ts). */
export const closedForComments = (project: { status: Parameters<typeof inProgress>[0]['status'] }) => !inProgress(project);
