import { LIMITS, MENTION_LIMITS } from './limits.js';
import type { PmNode } from './blocks/model.js';

/*
 * How a mention of a person is written, once for the note and the comments. In a comment's plain text a
 * mention is the token `@[userId]` (the user ID is the person's email), which screens, mails and printouts
 * show as the person's name; in a note it is the editor's inline `mention` node, whose `userId` attribute
 * holds the same ID. The server notifies each person newly mentioned (the `mentioned` event).
 */

/** One mention token in plain text; the capture is the user ID. */
export const MENTION_TOKEN = /@\[([^\][\s]+@[^\][\s]+)\]/g;

/** The token that mentions this person in plain text. */
export function mentionToken(userId: string): string {
  return `@[${userId}]`;
}

/** The people a plain text mentions, each once, in the order they first appear. */
export function mentionedUserIds(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(MENTION_TOKEN), (match) => match[1]!))];
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
    parts.push({ userId: match[1]! });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/** The editor's inline node that mentions a person in a note (`@eln/shared/editor`'s MentionNode). */
export const MENTION_NODE = 'mention';

/** What a mention node keeps: the person's ID, and their name when it was written (shown where the current one is not known). */
export interface MentionAttrs {
  userId: string;
  label: string;
}

/** A mention node's attributes, read defensively; null for any other node. */
export function mentionAttrsOf(node: PmNode): MentionAttrs | null {
  if (node.type !== MENTION_NODE) return null;
  const { userId, label } = node.attrs ?? {};
  return { userId: typeof userId === 'string' ? userId : '', label: typeof label === 'string' ? label : '' };
}

/** Whether a mention node's attributes are well formed: a user ID its token reads back whole, and a label of a name's length. */
export function validMention({ userId, label }: MentionAttrs): boolean {
  return userId.length <= LIMITS.email && mentionedUserIds(mentionToken(userId))[0] === userId && label.length <= LIMITS.userName;
}

/** A mention as plain text reads it (search, comparisons, a chart's labels): `@` and the name it was written with. */
export function mentionText(attrs: MentionAttrs): string {
  return `@${attrs.label || attrs.userId}`;
}

/** The people a node of a note (a block) mentions, each once, in the order they first appear. */
export function nodeMentions(node: PmNode): string[] {
  const found = new Set<string>();
  const walk = (current: PmNode) => {
    const mention = mentionAttrsOf(current);
    if (mention) {
      if (mention.userId) found.add(mention.userId);
      return;
    }
    for (const child of current.content ?? []) walk(child);
  };
  walk(node);
  return [...found];
}
