import { MENTION_LIMITS } from './limits.js';

/*
 * How a mention of a person is written, once for the note and the comments. In a comment's plain text a
 * mention is the token `@[userId]` (the user ID is the person's email), which screens, mails and printouts
 * show as the person's name; in a note it is the editor's inline `mention` node, whose `userId` attribute
 * holds the same ID. The server notifies each person newly mentioned (the `mentioned` event).
 */

/** One mention token in plain text; the capture is the user ID. */
export const MENTION_TOKEN = /@\[([^\][\s]+@[^\][\s]+)\]/g;

/** The user ID a match of MENTION_TOKEN captured (the pattern always captures one). */
const userIdOf = (match: RegExpMatchArray): string => match[1] ?? '';

/** The token that mentions this person in plain text. */
export function mentionToken(userId: string): string {
  return `@[${userId}]`;
}

/** The people a plain text mentions, each once, in the order they first appear. */
export function mentionedUserIds(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(MENTION_TOKEN), userIdOf))];
}

/** Whether a text mentions more people than one text may notify. */
export function tooManyMentions(userIds: readonly string[]): boolean {
  return userIds.length > MENTION_LIMITS.perText;
}

/** The text split into plain runs and mentions, for showing each mention as the person's name. */
export function splitMentions(text: string): Array<{ text: string } | { userId: string }> {
  const parts: Array<{ text: string } | { userId: string }> = [];
  let at = 0;
  for (const match of text.matchAll(MENTION_TOKEN)) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index) });
    parts.push({ userId: userIdOf(match) });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}
