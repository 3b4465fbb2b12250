import {
  formatZonedTime,
  MAIL_LIMITS,
  notificationSentence,
  SIGNATURE_TYPES,
  type Language,
  type NotificationEvent,
  type SignatureType,
} from '@eln/shared';
import { fillIn, SHARED_MESSAGES } from '@eln/shared/i18n';
import { el, openTag, text as escaped } from '../rendering/html.js';

/** One notification as a mail tells of it: the event, and the names of what it names (read when sent). */
export interface MailItem {
  event: NotificationEvent;
  createdAt: Date;
  /** Who did it; null when the system did (directory synchronisation, an export job). */
  actorName: string | null;
  note: { number: string; title: string } | null;
  projectTitle: string | null;
  templateTitle: string | null;
  /** The export a notification tells of: its file's name once made, and its format. */
  job: { fileName: string | null; format: string } | null;
  payload: Record<string, unknown>;
  /** The client path it opens (shared `notificationPath`). */
  path: string;
}

/** Whom a mail is written for: their language and zone, and where the notebook is. */
export interface MailReader {
  language: Language;
  timeZone: string;
  publicUrl: string;
}

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const isSignatureType = (value: string): value is SignatureType => (SIGNATURE_TYPES as readonly string[]).includes(value);

const stringOf = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;

/**
 * The event's sentence in the reader's language: the shared `notificationSentence`, the one the bell and
 * the home say. The payload gives what the records do not: a signature's `meaning` and whether it was
 * `declined`, a `reason`, a template's `version`, an export's `file`, a `count` of people.
 */
export function sentenceOf(item: MailItem, language: Language): string {
  const words = SHARED_MESSAGES[language];
  const meaning = stringOf(item.payload.meaning);
  const count = stringOf(item.payload.count);
  return notificationSentence(
    {
      event: item.event,
      actorName: item.actorName,
      note: item.note ? { labNoteNo: 0, labNoteNumber: item.note.number, title: item.note.title } : null,
      project: item.projectTitle === null ? null : { projectNo: 0, title: item.projectTitle },
      template: item.templateTitle === null ? null : { templateNo: 0, title: item.templateTitle },
      meaning: meaning && isSignatureType(meaning) ? meaning : null,
      reason: stringOf(item.payload.reason),
      declined: item.payload.declined === true,
      version: stringOf(item.payload.version),
      file: stringOf(item.payload.file) ?? item.job?.fileName ?? item.job?.format.toUpperCase() ?? null,
      count: count === null ? null : Number(count),
    },
    { ...words.notification, meaning: words.signature.meaning },
  );
}

/** A subject is one line: a reason typed over several lines is joined, and a long one cut. */
const SUBJECT_CHARS = 200;
function subjectOf(sentence: string): string {
  const line = sentence.replace(/\s+/g, ' ').trim();
  return line.length > SUBJECT_CHARS ? `${line.slice(0, SUBJECT_CHARS - 1)}…` : line;
}

const linkOf = (reader: MailReader, path: string) => `${reader.publicUrl}${path}`;
const accountLink = (reader: MailReader) => linkOf(reader, '/account');

/** The mail's HTML: the same words as its text, every name escaped, links written out in full. */
function page(reader: MailReader, subject: string, body: string): string {
  const footer = SHARED_MESSAGES[reader.language].mail.footer;
  return [
    '<!doctype html>',
    openTag('html', { lang: reader.language }),
    `<head><meta charset="utf-8">${el('title', {}, escaped(subject))}</head>`,
    openTag('body', { style: 'font-family: sans-serif; font-size: 15px; line-height: 1.5; color: #1f2328' }),
    body,
    el('hr', { style: 'border: 0; border-top: 1px solid #d0d7de; margin: 24px 0 12px' }),
    el(
      'p',
      { style: 'font-size: 12px; color: #59636e' },
      escaped(footer),
      ' ',
      el('a', { href: accountLink(reader) }, escaped(accountLink(reader))),
    ),
    '</body></html>',
  ].join('\n');
}

const footerText = (reader: MailReader) => `-- \n${SHARED_MESSAGES[reader.language].mail.footer}\n${accountLink(reader)}\n`;

/** One notification's mail: the sentence as subject, the sentence and a link back to its place as body. */
export function notificationMail(item: MailItem, reader: MailReader): MailContent {
  const words = SHARED_MESSAGES[reader.language].mail;
  const sentence = sentenceOf(item, reader.language);
  const link = linkOf(reader, item.path);
  const subject = subjectOf(sentence);
  // A mention in a comment quotes the comment, each mention written as the person's name.
  const excerpt = stringOf(item.payload.excerpt);
  return {
    subject,
    text: `${sentence}\n\n${excerpt === null ? '' : `> ${excerpt}\n\n`}${words.open}\n${link}\n\n${footerText(reader)}`,
    html: page(
      reader,
      subject,
      [
        el('p', { style: 'font-size: 16px' }, escaped(sentence)),
        excerpt === null
          ? ''
          : el(
              'blockquote',
              { style: 'margin: 0 0 12px; padding-left: 12px; border-left: 3px solid #d0d7de; color: #59636e' },
              escaped(excerpt),
            ),
        el('p', {}, escaped(words.open), ' ', el('a', { href: link }, escaped(link))),
      ]
        .filter(Boolean)
        .join('\n'),
    ),
  };
}

/**
 * The daily digest: every notification since the last one, newest first, each with when (in the reader's
 * zone) and its link; past DIGEST_ITEMS the rest are counted and the home is linked.
 */
export function digestMail(items: readonly MailItem[], reader: MailReader): MailContent {
  const words = SHARED_MESSAGES[reader.language].mail;
  const shown = items.slice(0, MAIL_LIMITS.digestItems);
  const more = items.length - shown.length;
  const subject = items.length === 1 ? words.digestSubjectOne : fillIn(words.digestSubjectOther, { count: items.length });
  const entries = shown.map((item) => ({
    when: formatZonedTime(item.createdAt, reader.timeZone, reader.language)?.text ?? '',
    sentence: sentenceOf(item, reader.language),
    link: linkOf(reader, item.path),
  }));
  const moreText = more > 0 ? fillIn(words.digestMore, { count: more }) : null;
  const text = [
    words.digestIntro,
    '',
    ...entries.flatMap((entry) => [`- ${entry.when}`, `  ${entry.sentence}`, `  ${entry.link}`, '']),
    ...(moreText ? [moreText, linkOf(reader, '/'), ''] : []),
    footerText(reader),
  ].join('\n');
  const list = el(
    'ul',
    { style: 'padding-left: 20px' },
    ...entries.map((entry) =>
      el(
        'li',
        { style: 'margin-bottom: 12px' },
        el('span', { style: 'font-size: 12px; color: #59636e' }, escaped(entry.when)),
        el('br', {}),
        escaped(entry.sentence),
        el('br', {}),
        el('a', { href: entry.link }, escaped(entry.link)),
      ),
    ),
  );
  const body = [
    el('p', {}, escaped(words.digestIntro)),
    list,
    moreText ? el('p', {}, escaped(moreText), ' ', el('a', { href: linkOf(reader, '/') }, escaped(linkOf(reader, '/')))) : '',
  ].join('\n');
  return { subject, text, html: page(reader, subject, body) };
}
