import type { Language } from '@eln/shared';
import { fillIn, SHARED_MESSAGES } from '@eln/shared/i18n';
import { el, text } from '../../rendering/html.js';
import { pdfMessage } from './messages.js';
import { exportedText, type PdfOptions } from './options.js';
import { marginBoxStyle } from './style.js';

/**
 * The header and footer chromium prints on every page (its headerTemplate and footerTemplate): the note's
 * number and title with the version printed, then the export time with its zone and the page x / y.
 * Pages are counted within each printed part: within a note (each note is printed on its own), or within
 * the cover; the cover's contents give each note's pages in the whole file.
 */

export interface MarginBoxes {
  headerTemplate: string;
  footerTemplate: string;
}

/** Chromium fills these spans with the page's number and the part's page count. */
const pageOf = (key: 'footerPage' | 'footerCoverPage', lang: Language) =>
  fillIn(text(pdfMessage(key, lang)), { page: '<span class="pageNumber"></span>', pages: '<span class="totalPages"></span>' });

const box = (lang: Language, left: string, right: string) =>
  `${el('style', {}, marginBoxStyle(lang))}${el('div', { class: 'pdf-margin' }, el('span', { class: 'pdf-left' }, left), el('span', { class: 'pdf-right' }, right))}`;

export function noteMarginBoxes(note: { labNoteNumber: string; title: string }, version: number | null, options: PdfOptions): MarginBoxes {
  const { lang } = options;
  const { note: noteWords } = SHARED_MESSAGES[lang];
  const versionText = version === null ? noteWords.notSaved : fillIn(noteWords.versionValue, { version });
  return {
    headerTemplate: box(lang, `${el('strong', {}, text(note.labNoteNumber))} · ${text(note.title)}`, el('strong', {}, text(versionText))),
    footerTemplate: box(
      lang,
      text(exportedText(options)),
      `${el('strong', {}, text(note.labNoteNumber))} · ${text(versionText)} · ${pageOf('footerPage', lang)}`,
    ),
  };
}

export function coverMarginBoxes(project: { title: string; projectNo: number }, options: PdfOptions): MarginBoxes {
  const { lang } = options;
  return {
    headerTemplate: box(lang, `${el('strong', {}, text(project.title))} (#${project.projectNo})`, text(pdfMessage('headerProject', lang))),
    footerTemplate: box(lang, text(exportedText(options)), pageOf('footerCoverPage', lang)),
  };
}
