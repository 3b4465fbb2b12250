import type { NoteStatus } from '@eln/shared';
import { SHARED_MESSAGES } from '@eln/shared/i18n';
import { el, openTag, text } from '../../rendering/html.js';
import type { ExportProject } from '../projectContent.js';
import { pdfMessage, type PdfMessage } from './messages.js';
import { zonedText, type ProjectPdfOptions } from './options.js';
import { PDF_PAGE_STYLE } from './style.js';

/** A note as the cover's contents list it: where it starts and ends in the whole file. */
export interface ContentsEntry {
  labNoteNumber: string;
  title: string;
  version: number | null;
  status: NoteStatus;
  /** Pages of the file (1-based, the cover's included). */
  firstPage: number;
  lastPage: number;
}

/**
 * The project's cover: title, leader, participants, status and dates, how many notes the export holds,
 * when (with zone) and by whom it was made, then the contents with each note's pages in the file.
 */
export function coverPageHtml(project: ExportProject, contents: readonly ContentsEntry[], options: ProjectPdfOptions): string {
  const { lang } = options;
  const m = (key: PdfMessage) => pdfMessage(key, lang);
  const words = SHARED_MESSAGES[lang].project;
  const when = (date: Date | null) => (date ? zonedText(date, options.timeZone, lang) : '');
  const pairs: Array<[string, string]> = [
    [m('projectNo'), `#${project.projectNo}`],
    [words.leader, `${project.leader.name} · ${project.leader.userId}`],
    [words.participants, project.participants.length ? project.participants.map((p) => p.name).join(', ') : m('noParticipants')],
    [words.statusLabel, words.status[project.status]],
    [words.created, when(project.createdAt)],
    [m('finishedAt'), project.finishedAt ? when(project.finishedAt) : m('notFinished')],
    [m('noteCount'), String(contents.length)],
    [m('range'), rangeText(options)],
    [m('exportedAt'), when(options.exportedAt)],
    [m('exportedBy'), `${options.exportedBy.name} · ${options.exportedBy.userId}`],
  ];
  const factList = el(
    'dl',
    { class: 'pdf-facts' },
    ...pairs.flatMap(([label, value]) => [el('dt', {}, text(label)), el('dd', {}, text(value))]),
  );
  const description = project.description.trim() ? el('p', { class: 'pdf-description' }, text(project.description.trim())) : '';
  return [
    '<!DOCTYPE html>',
    openTag('html', { lang }),
    '<head>',
    el('meta', { charset: 'utf-8' }),
    el('title', {}, text(project.title)),
    el('style', {}, PDF_PAGE_STYLE),
    '</head>',
    '<body>',
    el(
      'section',
      { class: 'pdf-cover' },
      el('p', { class: 'pdf-cover-kind' }, text(m('coverKind'))),
      el('h1', { class: 'pdf-cover-title' }, text(project.title)),
      factList,
      description,
      contentsTable(contents, options),
    ),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function rangeText(options: ProjectPdfOptions): string {
  const { lang, range } = options;
  // The range's days are calendar days read in the range's zone, printed as chosen (YYYY-MM-DD).
  const parts = [
    range?.startDate ? pdfMessage('rangeFrom', lang, { from: range.startDate }) : '',
    range?.endDate ? pdfMessage('rangeTo', lang, { to: range.endDate }) : '',
  ].filter(Boolean);
  return parts.length ? `${parts.join(' ')} (${range?.timeZone ?? options.timeZone})` : pdfMessage('rangeAll', lang);
}

function contentsTable(contents: readonly ContentsEntry[], options: ProjectPdfOptions): string {
  const { lang } = options;
  const m = (key: PdfMessage) => pdfMessage(key, lang);
  const { list, note } = SHARED_MESSAGES[lang];
  const heading = el('h2', {}, text(m('contents')));
  if (!contents.length) return el('section', { class: 'pdf-section' }, heading, el('p', { class: 'eln-empty' }, text(m('noNotes'))));
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col' }, text(list.number)),
    el('th', { scope: 'col' }, text(note.labNoteNo)),
    el('th', { scope: 'col' }, text(note.title)),
    el('th', { scope: 'col' }, text(note.version)),
    el('th', { scope: 'col' }, text(note.statusLabel)),
    el('th', { scope: 'col', class: 'pdf-pages' }, text(m('pages'))),
  );
  const rows = contents.map((entry, i) =>
    el(
      'tr',
      {},
      el('td', {}, text(String(i + 1))),
      el('td', { class: 'pdf-number' }, text(entry.labNoteNumber)),
      el('td', {}, text(entry.title)),
      el('td', {}, text(entry.version === null ? '—' : String(entry.version))),
      el('td', {}, text(note.status[entry.status])),
      el('td', { class: 'pdf-pages' }, text(pdfMessage('pageRange', lang, { from: entry.firstPage, to: entry.lastPage }))),
    ),
  );
  return el(
    'section',
    { class: 'pdf-section' },
    heading,
    el('table', { class: 'pdf-contents' }, el('thead', {}, head), el('tbody', {}, ...rows)),
    el('p', { class: 'pdf-paging' }, text(m('pagingNote'))),
  );
}
