import type { NotificationItem } from './api/notifications.js';
import type { SignatureType } from './api/signatures.js';
import { fillIn } from './i18n/translation.js';
import type { NotificationEvent } from './notifications.js';

/**
 * The words a notification's sentence is made of, in the reader's language: `notification` of
 * `@eln/shared/i18n` (placeholders left in) and the signature meanings (`signature.meaning`).
 */
export interface NotificationWords {
  events: Record<NotificationEvent, string>;
  signatureDeclined: string;
  /** `mentioned` in a comment on a template draft (no note). */
  mentionedInTemplate: string;
  noReason: string;
  system: string;
  meaning: Record<SignatureType, string>;
}

/** What a sentence names: a notification's parts (the list's item, or what a mail reads). */
export type NotificationParts = Pick<
  NotificationItem,
  'event' | 'actorName' | 'note' | 'project' | 'template' | 'meaning' | 'reason' | 'declined' | 'version' | 'file' | 'count'
>;

/** A note as a sentence names it: its title and its number. */
export const noteInSentence = (note: NonNullable<NotificationParts['note']>) => `${note.title} (${note.labNoteNumber})`;

/**
 * The sentence the bell, the home and the mails say of a notification: "Kim asked you to sign note
 * Buffer prep (LN-2026-000042) as Reviewer". A decline says so rather than "removed".
 */
export function notificationSentence(parts: NotificationParts, words: NotificationWords): string {
  const template =
    parts.event === 'signatureRemoved' && parts.declined
      ? words.signatureDeclined
      : parts.event === 'mentioned' && !parts.note && parts.template
        ? words.mentionedInTemplate
        : words.events[parts.event];
  return fillIn(template, {
    actor: parts.actorName ?? words.system,
    note: parts.note ? noteInSentence(parts.note) : '',
    project: parts.project?.title ?? '',
    template: parts.template?.title ?? '',
    meaning: parts.meaning ? words.meaning[parts.meaning] : '',
    reason: parts.reason || words.noReason,
    version: parts.version ?? '',
    file: parts.file ?? '',
    count: parts.count ?? 0,
  });
}
