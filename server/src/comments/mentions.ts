import { ERR, MENTION_LIMITS, mentionedUserIds, splitMentions, tooManyMentions } from '@eln/shared';
import type { Queryable, Tx } from '../db/client.js';
import { AppError } from '../http/errors.js';
import { notify } from '../notifications/notify.js';
import { peopleByUserId, readersOf, type FoundPlace } from './queries.js';

/** Characters of a comment a mention's notification quotes (its mail and the bell). */
const EXCERPT_CHARS = 200;

/**
 * The people a comment's text newly mentions (not already in `before`, the text it replaces), by number,
 * once each is known to be allowed: at most MENTION_LIMITS.perText people (4908), each of whom may read
 * the note (4907, naming them; the leader can add them as participants) or open the template draft (4916).
 */
export async function newlyMentioned(q: Queryable, place: FoundPlace, body: string, before = ''): Promise<number[]> {
  const mentioned = mentionedUserIds(body);
  if (tooManyMentions(mentioned)) throw new AppError(ERR.commentTooManyMentions, { params: { max: MENTION_LIMITS.perText } });
  if (!mentioned.length) return [];
  const readers = new Map((await readersOf(q, place, false)).map((person) => [person.userId, person.userNo]));
  const refused = mentioned.filter((userId) => !readers.has(userId));
  if (refused.length) {
    const known = new Map((await peopleByUserId(q, refused)).map((person) => [person.userId, person.name]));
    const names = refused.map((userId) => known.get(userId) ?? userId).join(', ');
    throw new AppError(place.kind === 'note' ? ERR.commentMentionUnreadable : ERR.commentMentionNoTemplate, {
      params: { names },
      data: { userIds: refused },
    });
  }
  const already = new Set(mentionedUserIds(before));
  return mentioned.filter((userId) => !already.has(userId)).map((userId) => readers.get(userId)!);
}

/** A comment's text as people read it: each mention token as the person's name (`@Name`), cut to a short excerpt. */
export async function readableExcerpt(q: Queryable, body: string): Promise<string> {
  const names = new Map((await peopleByUserId(q, mentionedUserIds(body))).map((person) => [person.userId, person.name]));
  const text = splitMentions(body)
    .map((part) => ('text' in part ? part.text : `@${names.get(part.userId) ?? part.userId}`))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(text);
  return chars.length <= EXCERPT_CHARS ? text : `${chars.slice(0, EXCERPT_CHARS - 1).join('')}…`;
}

/**
 * Tells each newly mentioned person, in the comment's transaction (the `mentioned` event): it links to the
 * note (or template) and names the comment and its block, and quotes the comment with names for tokens.
 */
export async function notifyMentioned(
  tx: Tx,
  place: FoundPlace,
  recipients: readonly number[],
  actorUserNo: number,
  comment: { commentId: number; blockUid: string | null; body: string },
): Promise<void> {
  if (!recipients.length) return;
  await notify(tx, {
    event: 'mentioned',
    recipients,
    actorUserNo,
    noteNo: place.kind === 'note' ? place.no : null,
    templateNo: place.kind === 'template' ? place.no : null,
    projectNo: place.projectNo,
    payload: { commentId: comment.commentId, blockUid: comment.blockUid, excerpt: await readableExcerpt(tx, comment.body) },
  });
}
