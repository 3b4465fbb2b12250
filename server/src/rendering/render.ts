import type { AnyExtension } from '@tiptap/core';
import type { Mark as PmMark, Node as PmNodeInstance } from '@tiptap/pm/model';
import type { MarkProps as StaticMarkProps, NodeProps as StaticNodeProps } from '@tiptap/static-renderer/json/html-string';
import { renderToHTMLString } from '@tiptap/static-renderer/pm/html-string';
import { blocksToDoc, type Language, type PmNode, type SavedBlock } from '@eln/shared';
import { noteExtensions } from '@eln/shared/editor';
import {
  renderCell,
  renderChart,
  renderDate,
  renderFile,
  renderImage,
  renderMention,
  renderSchemaBlock,
  renderTable,
  type BlockContext,
  type FileSource,
} from './blocks.js';
import { el, openTag, text } from './html.js';
import { message } from './messages.js';
import { PRINT_STYLE } from './printStyle.js';

export type { FileSource } from './blocks.js';

export interface FragmentOptions {
  lang: Language;
  /**
   * Where images and files are found. The default knows none: the app's own links are signed and expire
   * within the hour, which neither a PDF nor an archive outlives, so a caller that has the bytes says how
   * to reach them (a data URI, a path inside an archive); without one, images show a placeholder and
   * files their name without a link.
   */
  fileSource?: FileSource;
}

export interface DocumentOptions extends FragmentOptions {
  /** The note's title: the page's <title> and its heading. */
  title: string;
}

const noFiles: FileSource = () => null;

let extensions: AnyExtension[] | null = null;
/** The editor's own extensions (the shared schema); text blocks and marks render as the editor writes them. */
const noteSchemaExtensions = (): AnyExtension[] => (extensions ??= noteExtensions());

type NodeProps = StaticNodeProps<PmNodeInstance, string | string[]>;
type MarkProps = StaticMarkProps<PmMark, string | string[], PmNodeInstance>;

const joined = (children: string | string[] | undefined): string => [children ?? ''].flat().join('');

/** A colour the editor's palette or a writer could set; anything else (say `url(...)`) is dropped. */
const SAFE_COLOR = /^(#[0-9a-f]{3,8}|(rgb|hsl)a?\([\d\s.,%/+-]+\)|[a-z]{3,20})$/i;

/** How each node and mark the renderer draws itself prints; the others print as the schema writes them. */
function mappings(ctx: BlockContext) {
  const cell = ({ node, parent, children }: NodeProps) => renderCell(node, parent, joined(children), ctx);
  return {
    nodeMapping: {
      doc: ({ children }: NodeProps) => [children ?? []].flat().join('\n'),
      // `children` renders the rows when read, so the table marks its head rows first.
      table: (props: NodeProps) => renderTable(props.node, () => [props.children ?? []].flat(), ctx),
      tableRow: ({ children }: NodeProps) => el('tr', {}, joined(children)),
      tableCell: cell,
      tableHeader: cell,
      chart: ({ node }: NodeProps) => renderChart(node, ctx),
      image: ({ node }: NodeProps) => renderImage(node, ctx),
      fileAttachment: ({ node }: NodeProps) => renderFile(node, ctx),
      date: ({ node }: NodeProps) => renderDate(node, ctx),
      schemaBlock: ({ node }: NodeProps) => renderSchemaBlock(node, ctx),
      mention: ({ node }: NodeProps) => renderMention(node),
    },
    markMapping: {
      textStyle: ({ mark, children }: MarkProps) => {
        const color = typeof mark.attrs.color === 'string' ? mark.attrs.color.trim() : '';
        return SAFE_COLOR.test(color) ? el('span', { style: `color: ${color}` }, joined(children)) : joined(children);
      },
    },
    // A node or mark of an older schema keeps its text rather than failing the whole note.
    unhandledNode: ({ children }: NodeProps) => joined(children),
    unhandledMark: ({ children }: MarkProps) => joined(children),
  };
}

/**
 * The document's blocks as one HTML fragment: the shared schema renders text, lists, quotes, code and
 * marks as the editor does; tables, charts, images, files and dates are drawn here for print (a chart
 * as its data table). Blocks are separated by a newline, so that the same version gives the same bytes
 * and a fixture's diff is readable.
 */
export function renderDocFragment(doc: PmNode, options: FragmentOptions): string {
  const ctx: BlockContext = { lang: options.lang, fileSource: options.fileSource ?? noFiles, doc, headRows: new Set() };
  const body = (doc.content ?? []).length
    ? renderToHTMLString({ content: doc, extensions: noteSchemaExtensions(), options: mappings(ctx) })
    : el('p', { class: 'eln-empty' }, text(message('empty', options.lang)));
  return `${el('div', { class: 'eln-note-body' }, `\n${body}\n`)}\n`;
}

/** A saved version's blocks as an HTML fragment (see `renderDocFragment`). */
export function renderVersionFragment(blocks: readonly SavedBlock[], options: FragmentOptions): string {
  return renderDocFragment(blocksToDoc(blocks), options);
}

/**
 * A saved version as a whole, self-contained HTML page: its language, its title as heading, a small
 * print stylesheet and no outside resources of its own; what the PDF export prints and the .eln archive
 * keeps.
 */
export function renderVersionHtml(blocks: readonly SavedBlock[], options: DocumentOptions): string {
  return [
    '<!DOCTYPE html>',
    openTag('html', { lang: options.lang }),
    '<head>',
    el('meta', { charset: 'utf-8' }),
    el('title', {}, text(options.title)),
    el('style', {}, PRINT_STYLE),
    '</head>',
    '<body>',
    el(
      'article',
      { class: 'eln-note' },
      '\n',
      el('h1', { class: 'eln-note-title' }, text(options.title)),
      '\n',
      renderVersionFragment(blocks, options),
    ),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
