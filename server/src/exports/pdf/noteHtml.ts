import type { Language, SavedBlock, SignatureStatus } from '@eln/shared';
import { fillIn, SHARED_MESSAGES } from '@eln/shared/i18n';
import { el, openTag, text } from '../../rendering/html.js';
import { renderVersionFragment, type FileSource } from '../../rendering/render.js';
import { versionFingerprint } from '../../notes/versionFingerprint.js';
import type { ExportNote, ExportProject, ExportSignature, ExportVersion } from '../projectContent.js';
import { changesSection } from './changesHtml.js';
import { commentsAppendix } from './commentsHtml.js';
import type { ExportThread } from '../../comments/exportThreads.js';
import { pdfMessage, type PdfMessage } from './messages.js';
import { zonedText, type PdfOptions } from './options.js';
import { PDF_PAGE_STYLE } from './style.js';

/**
 * A note as the PDF prints it: its facts (number, project, writer, status, the version printed and its
 * hash), the version's content as the server renders it, then the signature manifest and the version
 * history. One page of HTML, printed by chromium.
 */

export type PrintedVersion = ExportVersion & { blocks: SavedBlock[] };

const hash = (value: string) => el('span', { class: 'pdf-hash' }, text(value));

/** A label, its value (HTML already built) and the value's class. */
type Fact = [label: string, value: string, valueClass?: string];

/** A definition list of facts; empty values are left out. */
function facts(pairs: Fact[], className = 'pdf-facts'): string {
  const rows = pairs
    .filter(([, value]) => value !== '')
    .flatMap(([label, value, valueClass]) => [el('dt', {}, text(label)), el('dd', { class: valueClass }, value)]);
  return el('dl', { class: className }, ...rows);
}

export function notePageHtml(
  project: ExportProject,
  note: ExportNote,
  version: PrintedVersion | null,
  options: PdfOptions,
  fileSource: FileSource,
  /** The version before the printed one when the changes section was asked for (null: none before it). */
  previous?: SavedBlock[] | null,
  /** The note's comment threads when their appendix was asked for. */
  threads?: readonly ExportThread[],
): string {
  const { lang } = options;
  const title = `${note.labNoteNumber} · ${note.title}`;
  const body = version
    ? renderVersionFragment(version.blocks, { lang, fileSource })
    : el('p', { class: 'pdf-never-saved' }, text(pdfMessage('neverSaved', lang)));
  return [
    '<!DOCTYPE html>',
    openTag('html', { lang }),
    '<head>',
    el('meta', { charset: 'utf-8' }),
    el('title', {}, text(title)),
    el('style', {}, PDF_PAGE_STYLE),
    '</head>',
    '<body>',
    el(
      'article',
      { class: 'eln-note' },
      '\n',
      el('h1', { class: 'eln-note-title' }, text(note.title)),
      '\n',
      noteFacts(project, note, version, options),
      '\n',
      body,
    ),
    version && previous !== undefined ? changesSection(version, previous, lang, fileSource) : '',
    signatureManifest(note, lang),
    versionHistory(note, version, options),
    threads ? commentsAppendix(threads, lang, options.timeZone) : '',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The writer: an imported note's authors by name (marked imported) and who imported it, else the account. */
function writerText(note: ExportNote, words: (typeof SHARED_MESSAGES)[Language]['note']): string {
  const account = `${note.writer.name} · ${note.writer.userId}`;
  if (!note.importedAuthors) return account;
  const names = note.importedAuthors.length ? note.importedAuthors.join(', ') : words.unknownAuthor;
  return `${fillIn(words.importedAuthors, { names })} · ${fillIn(words.importedBy, { name: account })}`;
}

function noteFacts(project: ExportProject, note: ExportNote, version: PrintedVersion | null, options: PdfOptions): string {
  const { lang } = options;
  const m = (key: PdfMessage, params?: Record<string, string | number>) => pdfMessage(key, lang, params);
  const shared = SHARED_MESSAGES[lang];
  const count = note.history.length;
  const latest = version !== null && version.version === note.latest?.version;
  const versionText = version ? m(latest ? 'versionOf' : 'versionShown', { version: version.version, count }) : shared.note.notSaved;
  // The content printed is hashed again: a version changed in the database after saving says so here,
  // signed or not (its signatures say it too).
  const printedHash = version ? versionFingerprint(version.blocks) : '';
  const changed = version !== null && printedHash !== version.blocksHash;
  const template = note.template
    ? note.template.version
      ? m('templateValue', { title: note.template.title, version: note.template.version })
      : note.template.title
    : '';
  return facts([
    [shared.note.labNoteNumber, el('strong', {}, text(note.labNoteNumber))],
    [m('project'), text(`${project.title} (#${project.projectNo})`)],
    [shared.note.writer, text(writerText(note, shared.note))],
    [shared.note.statusLabel, text(shared.note.status[note.status])],
    [shared.note.version, text(versionText)],
    [
      m('savedAtBy'),
      version ? text(m('savedValue', { when: zonedText(version.savedAt, options.timeZone, lang), name: version.savedBy.name })) : '',
    ],
    [m('template'), text(template)],
    [m('contentHash'), version ? hash(version.blocksHash) : ''],
    [
      m('printedHash'),
      changed
        ? `${hash(printedHash)}${el('span', { class: 'pdf-changed' }, text(m('changedAfterSaving')))}${el('br', {})}${text(m('changedExplained'))}`
        : '',
    ],
  ]);
}

/** Every signature of the note as its manifestation, in the order they were requested. */
export function signatureManifest(note: ExportNote, lang: Language): string {
  const words = SHARED_MESSAGES[lang].signature;
  const heading = el('h2', {}, text(words.title));
  const list = note.signatures.length
    ? el('ol', { class: 'pdf-signatures' }, ...note.signatures.map((signature) => signatureCard(signature, lang)))
    : el('p', { class: 'eln-empty' }, text(words.none));
  return el('section', { class: 'pdf-section pdf-manifest' }, heading, list);
}

const STATUS_CLASSES: Record<SignatureStatus, string> = { R: 'is-pending', T: 'is-signed', F: 'is-declined', C: 'is-cancelled' };
/** What the time of an answer is (a cancelled request's time is the close's). */
const ANSWERED_AT: Record<SignatureStatus, PdfMessage> = { R: 'signedAt', T: 'signedAt', F: 'declinedAt', C: 'cancelledAt' };

function signatureCard(signature: ExportSignature, lang: Language): string {
  const m = (key: PdfMessage) => pdfMessage(key, lang);
  const words = SHARED_MESSAGES[lang].signature;
  const meaning = words.meaning[signature.type];
  const broken = signature.intact === false;
  const status = STATUS_CLASSES[signature.status];
  const printedName = signature.signatureName?.trim() || signature.signer.name;
  const head = el(
    'div',
    { class: 'pdf-signature-head' },
    el('span', { class: 'pdf-signature-name' }, text(printedName)),
    el('span', { class: `pdf-badge is-${signature.type}` }, text(meaning)),
    el('span', { class: 'pdf-badge' }, text(signature.status === 'R' ? words.awaiting : words.status[signature.status])),
    broken ? el('span', { class: 'pdf-broken' }, text(words.broken)) : '',
    signature.intact === true ? el('span', { class: 'pdf-intact' }, text(m('intact'))) : '',
  );
  const answeredAt = zonedText(signature.signedAt, signature.timeZone, lang);
  const details = facts(
    [
      [words.printedName, text(printedName)],
      [m('account'), text(`${signature.signer.name} · ${signature.signer.userId}`)],
      [words.meaningLabel, text(meaning)],
      [m('signatureStatus'), text(words.status[signature.status])],
      [m(ANSWERED_AT[signature.status]), text(signature.status === 'R' ? '' : answeredAt)],
      [m('signedVersion'), signature.signedVersion !== null && signature.status === 'T' ? text(String(signature.signedVersion)) : ''],
      [m('signedHash'), signature.blocksHash && signature.status === 'T' ? hash(signature.blocksHash) : ''],
      [m('currentHash'), broken ? hash(signature.currentHash ?? '—') : ''],
      [m('timestamp'), signature.status === 'T' ? timestampText(signature, lang) : ''],
      [words.comment, signature.description?.trim() ? text(signature.description.trim()) : '', 'pdf-comment'],
    ],
    'pdf-signature-facts',
  );
  const warning = broken
    ? el('p', { class: 'pdf-broken-text' }, text(fillIn(words.brokenExplained, { version: signature.signedVersion ?? '' })))
    : '';
  return el(
    'li',
    {
      class: `pdf-signature ${status}${broken ? ' is-broken' : ''}`,
      'data-signature-id': signature.signatureId,
      'data-intact': signature.intact === null ? 'none' : String(signature.intact),
    },
    head,
    details,
    warning,
  );
}

/**
 * A signature's trusted time-stamp as printed: the token's own time (in the signer's zone) and its
 * authority, or honestly that it is pending or failed; nothing when none was asked (no authority set up).
 */
function timestampText(signature: ExportSignature, lang: Language): string {
  const stamp = signature.timestamp;
  if (!stamp) return '';
  const words = SHARED_MESSAGES[lang].signature.timestamp;
  if (stamp.status === 'stamped')
    return text(fillIn(words.stamped, { time: zonedText(stamp.genTime, signature.timeZone, lang), authority: stamp.authority ?? '' }));
  const explained = pdfMessage(stamp.status === 'pending' ? 'timestampPendingExplained' : 'timestampFailedExplained', lang);
  return `${text(words[stamp.status])}${el('br', {})}${text(explained)}`;
}

/** Every saved version, oldest first, with who saved it when and its SHA-256; the printed one is marked. */
export function versionHistory(note: ExportNote, printed: PrintedVersion | null, options: PdfOptions): string {
  const { lang } = options;
  const m = (key: PdfMessage) => pdfMessage(key, lang);
  const heading = el('h2', {}, text(m('history')));
  if (!note.history.length)
    return el('section', { class: 'pdf-section pdf-history' }, heading, el('p', { class: 'eln-empty' }, text(m('noHistory'))));
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col', class: 'pdf-version' }, text(SHARED_MESSAGES[lang].note.version)),
    el('th', { scope: 'col' }, text(m('historySavedAt'))),
    el('th', { scope: 'col' }, text(m('historySavedBy'))),
  );
  // Each version as two rows kept together: when and by whom, then its SHA-256 on a line of its own.
  const entries = note.history.map((entry) =>
    el(
      'tbody',
      { class: 'pdf-history-entry' },
      el(
        'tr',
        {},
        el('td', { class: 'pdf-version', rowspan: 2 }, text(String(entry.version))),
        el(
          'td',
          { class: 'pdf-when' },
          text(zonedText(entry.savedAt, options.timeZone, lang)),
          entry.version === printed?.version ? ` ${el('span', { class: 'pdf-shown' }, text(`(${m('historyShown')})`))}` : '',
        ),
        el('td', {}, text(`${entry.savedBy.name} · ${entry.savedBy.userId}`)),
      ),
      el(
        'tr',
        {},
        el(
          'td',
          { colspan: 2, class: 'pdf-history-hash' },
          el('span', { class: 'pdf-hash-label' }, text(m('historyHash'))),
          ' ',
          hash(entry.blocksHash),
        ),
      ),
    ),
  );
  return el('section', { class: 'pdf-section pdf-history' }, heading, el('table', {}, el('thead', {}, head), ...entries));
}
