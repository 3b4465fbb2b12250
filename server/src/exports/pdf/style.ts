import type { Language } from '@eln/shared';
import { LATIN_MONO_FONTS, PRINT_STYLE, TEXT_FONTS } from '../../rendering/printStyle.js';

/**
 * The PDF's page and the styles of what the export adds around a note (facts, signature manifest,
 * version history, cover), on top of the rendered note's own print stylesheet.
 */

/** A4 margins, with room at the top and bottom for the header and footer chromium draws there. */
export const PAGE_MARGIN = { top: '22mm', bottom: '20mm', left: '16mm', right: '16mm' } as const;

const EXPORT_STYLE = `
@page { size: A4; margin: ${PAGE_MARGIN.top} ${PAGE_MARGIN.right} ${PAGE_MARGIN.bottom} ${PAGE_MARGIN.left}; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { padding: 0; max-width: none; }
.pdf-facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0 0 1.2rem; font-size: .88em; color: #333; }
.pdf-facts dt { font-weight: 600; color: #555; }
.pdf-facts dd { margin: 0; overflow-wrap: anywhere; }
.pdf-hash { font-family: ${LATIN_MONO_FONTS}; font-size: 7.5pt; letter-spacing: 0; white-space: nowrap; }
.pdf-chart-picture { margin: .4rem 0 .2rem; }
.pdf-chart-picture img { max-width: 100%; }
.pdf-never-saved { border: 1px dashed #999; padding: .8rem; color: #555; }
.pdf-section { margin-top: 1.6rem; }
.pdf-section > h2 { font-size: 1.2rem; margin: 0 0 .6rem; padding-bottom: .25rem; border-bottom: 1.5px solid #333; }
.pdf-signatures { list-style: none; margin: 0; padding: 0; }
.pdf-signature { break-inside: avoid; border: 1px solid #b9bec7; border-left: 4px solid #6b7280; border-radius: 3px; padding: .5rem .75rem; margin: 0 0 .6rem; }
.pdf-signature.is-signed { border-left-color: #15803d; }
.pdf-signature.is-declined { border-left-color: #b45309; }
.pdf-signature.is-cancelled { border-left-color: #6b7280; }
.pdf-signature.is-broken { border-color: #b91c1c; border-left-color: #b91c1c; background: #fef2f2; }
.pdf-signature-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: .3rem .6rem; margin-bottom: .3rem; }
.pdf-signature-name { font-size: 1.1em; font-weight: 700; }
.pdf-badge { display: inline-block; border: 1px solid #9ca3af; border-radius: 3px; padding: 0 .35rem; font-size: .82em; color: #374151; }
.pdf-badge.is-reviewer { border-color: #4f46e5; color: #3730a3; }
.pdf-broken { display: inline-block; border: 1.5px solid #b91c1c; background: #b91c1c; color: #fff; border-radius: 3px; padding: 0 .4rem; font-size: .85em; font-weight: 700; letter-spacing: .03em; }
.pdf-intact { font-size: .82em; color: #15803d; }
.pdf-broken-text { color: #991b1b; font-weight: 600; margin: .3rem 0 0; font-size: .9em; }
.pdf-signature dl { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .9rem; margin: 0; font-size: .85em; }
.pdf-signature dt { color: #555; }
.pdf-signature dd { margin: 0; overflow-wrap: anywhere; }
.pdf-signature dd.pdf-comment { white-space: pre-wrap; }
.pdf-history table { width: 100%; font-size: .82em; }
.pdf-history td.pdf-version, .pdf-history th.pdf-version { width: 3.5em; text-align: right; }
.pdf-history td.pdf-when { white-space: nowrap; }
.pdf-history td.pdf-version { vertical-align: middle; }
.pdf-history-entry { break-inside: avoid; }
.pdf-changes-summary { font-weight: 600; }
.pdf-comments-note { color: #555; font-style: italic; }
.pdf-comment-list { list-style: none; padding: 0; }
.pdf-comment-thread { break-inside: avoid; margin: 0 0 10px; padding: 6px 0 6px 10px; border-left: 3px solid #d0a000; }
.pdf-comment-quote { margin: 0 0 4px; color: #555; }
.pdf-comment-meta { margin: 0; font-size: 9pt; color: #555; }
.pdf-comment-text { margin: 0 0 4px; white-space: pre-wrap; }
.pdf-comment-reply { margin-left: 14px; }
.pdf-comment-resolved, .pdf-comment-deleted { margin: 0; font-size: 9pt; color: #555; }
.pdf-changes-list { list-style: none; padding: 0; }
.pdf-change { border-left: 3px solid #888; padding: .2rem 0 .2rem .6rem; margin-bottom: .5rem; break-inside: avoid; }
.pdf-change.is-added { border-left-color: #1a7f37; }
.pdf-change.is-removed { border-left-color: #b42318; }
.pdf-change.is-removed .pdf-change-block { text-decoration: line-through; }
.pdf-change ins { background: #dafbe1; text-decoration: underline; }
.pdf-change del { background: #ffebe9; text-decoration: line-through; }
.pdf-history td.pdf-history-hash { border-top-style: dotted; padding-top: .1rem; padding-bottom: .15rem; }
.pdf-hash-label { color: #555; font-size: .9em; margin-right: .3rem; }
.pdf-changed { display: inline-block; border: 1.5px solid #b45309; color: #92400e; border-radius: 3px; padding: 0 .35rem; font-size: .85em; font-weight: 700; margin-left: .4rem; }
.pdf-shown { color: #555; font-size: .9em; }
.pdf-cover-kind { font-size: .95rem; color: #555; margin: 0 0 .2rem; letter-spacing: .02em; }
.pdf-cover-title { font-size: 1.9rem; margin: 0 0 1.2rem; padding-bottom: .5rem; border-bottom: 2px solid #333; }
.pdf-cover .pdf-facts { font-size: .95em; }
.pdf-description { white-space: pre-wrap; margin: 0 0 1.2rem; }
.pdf-contents { width: 100%; font-size: .85em; }
.pdf-contents td.pdf-number { white-space: nowrap; }
.pdf-contents td.pdf-pages, .pdf-contents th.pdf-pages { white-space: nowrap; text-align: right; }
.pdf-paging { font-size: .82em; color: #555; }
`.trim();

export const PDF_PAGE_STYLE = `${PRINT_STYLE}\n${EXPORT_STYLE}`;

/**
 * The header's and footer's own style: chromium draws them outside the page's document, at its own
 * scale, so they set their font, size and the side margins themselves.
 */
export const marginBoxStyle = (lang: Language) =>
  `
.pdf-margin { width: 100%; margin: 0 ${PAGE_MARGIN.left}; display: flex; justify-content: space-between; gap: 6mm; font-family: ${TEXT_FONTS[lang]}; font-size: 7.5pt; color: #444; }
.pdf-margin .pdf-left { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.pdf-margin .pdf-right { white-space: nowrap; }
.pdf-margin strong { color: #111; }
`.trim();
