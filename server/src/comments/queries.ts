import { and, asc, count, eq, inArray, isNull, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  ERR,
  mentionedUserIds,
  noteDocumentName,
  templateDocumentName,
  type CommentListAnswer,
  type CommentPerson,
  type CommentThread,
} from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { comments, noteSignatures, projectParticipants, projects, templates, users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { enforce } from '../http/verdicts.js';
import { requireVisibleNote } from '../notes/queries.js';
import { READ_REFUSALS as TEMPLATE_READ_REFUSALS, templateDocumentAccess } from '../templates/policy.js';
import { administratorsSql } from '../users/policy.js';
import { AnchorReader } from './anchors.js';
import { canComment, closedForComments, type CommentPlace } from './policy.js';
import { presentThreads, type CommentRow } from './presenters.js';

/** What a comment call names: a note or a template draft (exactly one, as the request schema makes sure). */
export interface PlaceRef {
  labNoteNo?: number;
  templateNo?: number;
}

/** A place with what the commands need besides the rules: its live document and its project. */
export interface FoundPlace extends CommentPlace {
  documentName: string;
  projectNo: number | null;
}

/**
 * The note or template draft the caller may read, as the comment rules see it: a note by the note's
 * policy (2013 hidden or missing, 2014 deleted), a template draft by whether its live document may be
 * opened (9002 otherwise).
 */
export async function requirePlace(q: Queryable, user: AuthUser, ref: PlaceRef): Promise<FoundPlace> {
  if (ref.labNoteNo !== undefined) {
    const { note, project } = await requireVisibleNote(q, user, ref.labNoteNo);
    const signers = await q
      .select({ userNo: noteSignatures.userNo })
      .from(noteSignatures)
      .where(and(eq(noteSignatures.noteNo, note.noteNo), isNull(noteSignatures.removedAt)));
    return {
      kind: 'note',
      no: note.noteNo,
      closed: closedForComments(project),
      writerUserNo: note.writerUserNo,
      leaderUserNo: project.leaderUserNo,
      signerUserNos: signers.map((row) => row.userNo),
      documentName: noteDocumentName(note.noteNo),
      projectNo: project.projectNo,
    };
  }
  const templateNo = ref.templateNo ?? 0;
  const [template] = await q.select().from(templates).where(eq(templates.templateNo, templateNo));
  enforce(templateDocumentAccess(user, template) === null ? 'missing' : 'allowed', TEMPLATE_READ_REFUSALS);
  return {
    kind: 'template',
    no: templateNo,
    closed: false,
    writerUserNo: template!.authorUserNo,
    leaderUserNo: null,
    signerUserNos: [],
    documentName: templateDocumentName(templateNo),
    projectNo: null,
  };
}

export type StoredComment = typeof comments.$inferSelect;

/** A comment and the place it is on, for a caller who may read that place; 4904 when there is none (or it was deleted). */
export async function requireComment(
  q: Queryable,
  user: AuthUser,
  commentId: number,
): Promise<{ comment: StoredComment; place: FoundPlace }> {
  const [comment] = await q.select().from(comments).where(eq(comments.commentId, commentId));
  if (!comment || comment.deletedAt) throw new AppError(ERR.commentMissing);
  const place = await requirePlace(q, user, comment.noteNo !== null ? { labNoteNo: comment.noteNo } : { templateNo: comment.templateNo! });
  return { comment, place };
}

/** The condition that selects the comments of one place. */
export const onPlace = (place: Pick<CommentPlace, 'kind' | 'no'>) =>
  place.kind === 'note' ? eq(comments.noteNo, place.no) : eq(comments.templateNo, place.no);

/** Threads (first comments not deleted) a place holds now. */
export async function openThreadCount(q: Queryable, place: CommentPlace): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(comments)
    .where(and(onPlace(place), isNull(comments.replyTo), isNull(comments.deletedAt)));
  return row?.n ?? 0;
}

/** Replies (not deleted) a thread holds now. */
export async function replyCount(q: Queryable, threadId: number): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(comments)
    .where(and(eq(comments.replyTo, threadId), isNull(comments.deletedAt)));
  return row?.n ?? 0;
}

const author = alias(users, 'author');
const resolver = alias(users, 'resolver');

/** Every comment of a place, oldest first, with its author's and resolver's names. */
export async function commentRowsOf(q: Queryable, place: Pick<CommentPlace, 'kind' | 'no'>): Promise<CommentRow[]> {
  return q
    .select({
      comment: comments,
      authorId: author.userId,
      authorName: author.name,
      resolverId: resolver.userId,
      resolverName: resolver.name,
    })
    .from(comments)
    .innerJoin(author, eq(author.userNo, comments.authorUserNo))
    .leftJoin(resolver, eq(resolver.userNo, comments.resolvedByUserNo))
    .where(onPlace(place))
    .orderBy(asc(comments.commentId));
}

/** People by user ID, with their names (those not found are left out). */
export async function peopleByUserId(q: Queryable, userIds: readonly string[]): Promise<CommentPerson[]> {
  if (!userIds.length) return [];
  return q
    .select({ userId: users.userId, name: users.name })
    .from(users)
    .where(inArray(users.userId, [...userIds]));
}

/**
 * A place's threads as the caller sees them: each one's text checked against the document as it is now
 * (`document`: the live copy, or the stored state), the names of everyone mentioned, and the verdicts.
 */
export async function listThreads(
  q: Queryable,
  user: AuthUser,
  place: CommentPlace,
  document: () => Promise<ConstructorParameters<typeof AnchorReader>[0]>,
): Promise<CommentListAnswer> {
  const rows = await commentRowsOf(q, place);
  const reader = rows.some((row) => row.comment.replyTo === null) ? new AnchorReader(await document()) : null;
  const threads: CommentThread[] = presentThreads(user, place, rows, (anchor) => reader?.onDeletedText(anchor) ?? false);
  const mentioned = new Set<string>();
  for (const thread of threads)
    for (const entry of [thread, ...thread.replies]) for (const id of mentionedUserIds(entry.body)) mentioned.add(id);
  return { threads, people: await peopleByUserId(q, [...mentioned]), abilities: { comment: canComment(place) === 'allowed' } };
}

/**
 * Who may read a note and so be mentioned in its comments: its project's leader and participants, and
 * administrators (who read every project), active ones only; for a template draft, those who manage
 * templates. `suggested` leaves out administrators who do not take part: the `@` list offers the
 * project's people, a typed mention of an administrator is still allowed.
 */
export async function readersOf(q: Queryable, place: FoundPlace, suggested: boolean): Promise<Array<CommentPerson & { userNo: number }>> {
  const columns = { userNo: users.userNo, userId: users.userId, name: users.name };
  if (place.kind === 'template') {
    return q
      .select(columns)
      .from(users)
      .where(and(eq(users.active, true), or(eq(users.authTemplate, true), administratorsSql())))
      .orderBy(asc(users.name));
  }
  const members = q
    .select({ userNo: projectParticipants.userNo })
    .from(projectParticipants)
    .where(eq(projectParticipants.projectNo, place.projectNo!));
  const leader = q.select({ userNo: projects.leaderUserNo }).from(projects).where(eq(projects.projectNo, place.projectNo!));
  return q
    .select(columns)
    .from(users)
    .where(
      and(
        eq(users.active, true),
        or(inArray(users.userNo, members), inArray(users.userNo, leader), suggested ? undefined : administratorsSql()),
      ),
    )
    .orderBy(asc(users.name));
}
