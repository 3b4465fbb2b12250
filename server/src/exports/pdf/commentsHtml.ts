import type { Language } from '@eln/shared';
import { el, text } from '../../rendering/html.js';
import type { ExportComment, ExportThread } from '../../comments/exportThreads.js';
import { pdfMessage, type PdfMessage } from './messages.js';
import { zonedText } from './options.js';

/**
 * The optional appendix of a note's PDF (`comments` of the export request): its comment threads, each
 * with the text it is about (or that the text was deleted), its comments and replies with who and when,
 * and whether it was resolved. Said at its head to be outside the signed content, which it is: comments
 * change no version and no fingerprint.
 */
export function commentsAppendix(threads: readonly ExportThread[], lang: Language, timeZone: string): string {
  const m = (key: PdfMessage, params?: Record<string, string | number>) => pdfMessage(key, lang, params);
  const comment = (entry: ExportComment, className: string) =>
    el(
      'div',
      { class: className },
      el(
        'p',
        { class: 'pdf-comment-meta' },
        text(`${entry.author.name} · ${zonedText(entry.createdAt, timeZone, lang)}${entry.editedAt ? ` · ${m('commentEdited')}` : ''}`),
      ),
      el('p', { class: 'pdf-comment-text' }, text(entry.text)),
    );
  const items = threads.map((thread) =>
    el(
      'li',
      { class: 'pdf-comment-thread' },
      el(
        'p',
        { class: 'pdf-comment-quote' },
        thread.onDeletedText ? el('strong', {}, text(`${m('commentOnDeletedText')} `)) : '',
        text(thread.quote ? `“${thread.quote}”` : m('commentOnBlock')),
      ),
      thread.first ? comment(thread.first, 'pdf-comment') : el('p', { class: 'pdf-comment-deleted' }, text(m('commentDeleted'))),
      ...thread.replies.map((reply) => comment(reply, 'pdf-comment pdf-comment-reply')),
      thread.resolved
        ? el(
            'p',
            { class: 'pdf-comment-resolved' },
            text(m('commentResolved', { name: thread.resolved.by, when: zonedText(thread.resolved.at, timeZone, lang) })),
          )
        : '',
    ),
  );
  return el(
    'section',
    { class: 'pdf-section pdf-comments' },
    el('h2', {}, text(m('comments'))),
    el('p', { class: 'pdf-comments-note' }, text(m('commentsNotSigned'))),
    items.length ? el('ol', { class: 'pdf-comment-list' }, ...items) : el('p', {}, text(m('commentsNone'))),
  );
}
