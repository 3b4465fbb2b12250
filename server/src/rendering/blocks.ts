import type { Node as PmNodeInstance } from '@tiptap/pm/model';
import {
  cellDropboxOf,
  readSchemaBlock,
  formatBytes,
  formatIsoDate,
  isCalendarDate,
  mentionAttrsOf,
  mentionText,
  type CellDropbox,
  type Language,
  type PmNode,
} from '@eln/shared';
import { chartAttrsOf, chartCells, findTable, type ChartAttrs } from '@eln/shared/editor';
import { fillIn, SHARED_MESSAGES } from '@eln/shared/i18n';
import { el, text } from './html.js';
import { message } from './messages.js';

/** Where an image's or a file's bytes are found: a URL or data URI, or null when the caller has none. */
export type FileSource = (fileId: string) => string | null;

export interface BlockContext {
  lang: Language;
  fileSource: FileSource;
  /** The whole document, for charts to find their table. */
  doc: PmNode;
  /** The rows each table puts in its <thead>, marked by the table before its cells render. */
  headRows: Set<PmNodeInstance>;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const uidOf = (node: PmNodeInstance): string | null => str(node.attrs.blockUid) || null;

/**
 * A chart as what it shows: its name and label, then its data as a table (categories down, series
 * across), each cell as written in the table it reads (the browser's chart plots the same cells).
 */
export function renderChart(node: PmNodeInstance, ctx: BlockContext): string {
  const attrs = chartAttrsOf(node.attrs);
  const caption = el(
    'figcaption',
    {},
    el('span', { class: 'eln-chart-name' }, text(attrs.name)),
    attrs.label ? el('span', { class: 'eln-chart-label' }, text(attrs.label)) : '',
  );
  return el(
    'figure',
    { class: 'eln-chart', 'data-block-uid': attrs.blockUid, 'data-chart-type': attrs.chartType },
    caption,
    chartTable(attrs, ctx),
  );
}

function chartTable(attrs: ChartAttrs, ctx: BlockContext): string {
  const table = findTable(ctx.doc, attrs.tableUid);
  const data = table ? chartCells(table, attrs.from, attrs.to, attrs.direction, attrs.dataName) : null;
  const { content } = SHARED_MESSAGES[ctx.lang];
  if (!data) return el('p', { class: 'eln-missing' }, text(content.chartMissing));
  const caption =
    message('chartData', ctx.lang, { type: content.chartTypes[attrs.chartType] }) + (attrs.yLabel ? ` · ${attrs.yLabel}` : '');
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col' }, text(attrs.xLabel)),
    ...data.series.map((s) => el('th', { scope: 'col' }, text(s.name))),
  );
  const rows = data.labels.map((label, i) =>
    el('tr', {}, el('th', { scope: 'row' }, text(label)), ...data.series.map((s) => el('td', {}, text(s.texts[i] ?? '')))),
  );
  return el('table', { class: 'eln-chart-data' }, el('caption', {}, text(caption)), el('thead', {}, head), el('tbody', {}, ...rows));
}

/** An image with its title as caption and alternative text; a placeholder when its bytes are not at hand. */
export function renderImage(node: PmNodeInstance, ctx: BlockContext): string {
  const title = str(node.attrs.title);
  const alt = title || SHARED_MESSAGES[ctx.lang].content.untitledImage;
  const src = ctx.fileSource(str(node.attrs.fileId));
  const picture = src
    ? el('img', { src, alt })
    : el('div', { class: 'eln-missing', role: 'img', 'aria-label': alt }, text(message('imageMissing', ctx.lang)));
  return el('figure', { class: 'eln-image', 'data-block-uid': uidOf(node) }, picture, title ? el('figcaption', {}, text(title)) : '');
}

/** A file: its kind, its name (a link when the caller has one) and its size. */
export function renderFile(node: PmNodeInstance, ctx: BlockContext): string {
  const name = str(node.attrs.name);
  const extension = str(node.attrs.extension).toUpperCase();
  const size = typeof node.attrs.size === 'number' ? node.attrs.size : Number(node.attrs.size) || 0;
  const src = ctx.fileSource(str(node.attrs.fileId));
  const label = src ? el('a', { href: src, class: 'eln-file-name' }, text(name)) : el('span', { class: 'eln-file-name' }, text(name));
  const meta = `${SHARED_MESSAGES[ctx.lang].content.attachment} · ${extension ? `${extension} · ` : ''}${formatBytes(size, ctx.lang)}`;
  return el('p', { class: 'eln-file', 'data-block-uid': uidOf(node) }, label, ' ', el('span', { class: 'eln-file-meta' }, text(meta)));
}

/** A schema block: the copied entries as a field/value table, captioned with the schema, its type and revision. */
export function renderSchemaBlock(node: PmNodeInstance, ctx: BlockContext): string {
  const { content } = SHARED_MESSAGES[ctx.lang];
  const block = readSchemaBlock(node.attrs);
  if (!block) return el('p', { class: 'eln-missing', 'data-block-uid': uidOf(node) }, text(content.schemaInvalid));
  // As the editor's heading: type › schema, then its revision.
  const caption = `${block.typeTitle} › ${block.title} · ${fillIn(content.schemaRevision, { revision: block.revision })}`;
  const head = el('tr', {}, el('th', { scope: 'col' }, text(content.schemaField)), el('th', { scope: 'col' }, text(content.schemaValue)));
  const rows = block.entries.map((entry) => el('tr', {}, el('th', { scope: 'row' }, text(entry.field)), el('td', {}, text(entry.value))));
  const body = rows.length ? el('tbody', {}, ...rows) : el('tbody', {}, el('tr', {}, el('td', { colspan: 2 }, text(content.schemaEmpty))));
  return el('table', { class: 'eln-schema', 'data-block-uid': uidOf(node) }, el('caption', {}, text(caption)), el('thead', {}, head), body);
}

/** A date as the reader's language writes it, machine-readable in `datetime` when it is a real day. */
export function renderDate(node: PmNodeInstance, ctx: BlockContext): string {
  const value = str(node.attrs.value);
  const shown = text(formatIsoDate(value, ctx.lang));
  return el(
    'p',
    { class: 'eln-date', 'data-block-uid': uidOf(node) },
    isCalendarDate(value) ? el('time', { datetime: value }, shown) : shown,
  );
}

/**
 * A table: its leading rows of header cells in <thead>, the others in <tbody>; spans kept; a header cell
 * heads its column in the head and its row in the body; a cell's dropbox named under its content.
 */
export function renderTable(node: PmNodeInstance, renderRows: () => string[], ctx: BlockContext): string {
  let headRows = 0;
  while (headRows < node.childCount && isHeaderRow(node.child(headRows))) {
    ctx.headRows.add(node.child(headRows));
    headRows += 1;
  }
  const rows = renderRows();
  const head = headRows ? el('thead', {}, ...rows.slice(0, headRows)) : '';
  const body = headRows < rows.length ? el('tbody', {}, ...rows.slice(headRows)) : '';
  return el('table', { class: 'eln-table', 'data-block-uid': uidOf(node) }, head, body);
}

function isHeaderRow(row: PmNodeInstance): boolean {
  let all = row.childCount > 0;
  row.forEach((cell) => {
    if (cell.type.name !== 'tableHeader') all = false;
  });
  return all;
}

/** A cell's dropbox: the chosen name as the cell's value, then which list and code it came from. */
function dropboxNote(dropbox: CellDropbox | null, lang: Language): string {
  if (!dropbox) return '';
  // Worded as the editor's cell says it (its chip's title), except a list named without a chosen code.
  const { content } = SHARED_MESSAGES[lang];
  const params = { title: dropbox.title, code: dropbox.code ?? '' };
  const caption = (words: string) => el('p', { class: 'eln-dropbox' }, text(words));
  const listOnly = message('dropbox', lang, params);
  if (dropbox.dropboxNo === null) return caption(listOnly);
  if (dropbox.code === null || dropbox.name === null) return caption(fillIn(content.dropboxUnchosen, params));
  // Only the first row's code must be filled in (spec §5): a row without one prints without it.
  return (
    el('p', { class: 'eln-dropbox-value' }, text(dropbox.name)) + caption(dropbox.code ? fillIn(content.dropboxChosen, params) : listOnly)
  );
}

export function renderCell(cell: PmNodeInstance, row: PmNodeInstance | undefined, content: string, ctx: BlockContext): string {
  const span = (value: unknown) => (typeof value === 'number' && value > 1 ? value : null);
  const header = cell.type.name === 'tableHeader';
  const note = dropboxNote(cellDropboxOf(cell.attrs.dropbox), ctx.lang);
  const scope = header ? (row && ctx.headRows.has(row) ? 'col' : 'row') : null;
  return el(header ? 'th' : 'td', { scope, colspan: span(cell.attrs.colspan), rowspan: span(cell.attrs.rowspan) }, content, note);
}

/**
 * A mention as the version keeps it: `@` and the name it was written with (the record printed, not
 * today's name), with the person's ID beside it for whoever reads the page's source.
 */
export function renderMention(node: PmNodeInstance): string {
  const mention = mentionAttrsOf({ type: node.type.name, attrs: node.attrs });
  if (!mention) return '';
  return el('span', { class: 'eln-mention', 'data-user-id': mention.userId }, text(mentionText(mention)));
}
