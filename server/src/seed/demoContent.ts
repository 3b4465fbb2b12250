import type { PmNode } from '@eln/shared';

/** Builders of the demo's note and template content, as the editor would have written it (blockUids included). */

let uids = 0;
export const uid = (prefix: string) => `${prefix}demo${String((uids += 1)).padStart(11, '0')}`;
const text = (value: string): PmNode => ({ type: 'text', text: value });
export const paragraph = (value = ''): PmNode => ({
  type: 'paragraph',
  attrs: { blockUid: uid('p') },
  content: value ? [text(value)] : [],
});
export const heading = (value: string, level = 2): PmNode => ({
  type: 'heading',
  attrs: { blockUid: uid('h'), level },
  content: [text(value)],
});
/**
 * Stands for a dropbox cell's list and chosen row (by the dropbox's title and the row's code) until the
 * seed has made the dropbox and knows its number (`withDemoCatalogues`).
 */
export interface DemoDropboxChoice {
  demoDropbox: string;
  code: string;
}
export type DemoCell = string | { text: string; dropbox: DemoDropboxChoice };

const cell = (type: 'tableCell' | 'tableHeader', value: DemoCell): PmNode => {
  const shown = typeof value === 'string' ? value : value.text;
  return {
    type,
    attrs: { colspan: 1, rowspan: 1, colwidth: null, dropbox: typeof value === 'string' ? null : value.dropbox },
    content: [{ type: 'paragraph', content: shown ? [text(shown)] : [] }],
  };
};
export const table = (blockUid: string, header: string[], rows: DemoCell[][]): PmNode => ({
  type: 'table',
  attrs: { blockUid },
  content: [
    { type: 'tableRow', content: header.map((h) => cell('tableHeader', h)) },
    ...rows.map((r) => ({ type: 'tableRow', content: r.map((v) => cell('tableCell', v)) })),
  ],
});
/** A dropbox cell of the demo: the row `code` of the dropbox titled `title`. */
export const choice = (title: string, code: string, value = ''): DemoCell => ({ text: value, dropbox: { demoDropbox: title, code } });
/** A schema block of the demo: the schema titled `schemaTitle` of the type coded `typeCode`, resolved by the seed. */
export const schemaBlock = (typeCode: string, schemaTitle: string): PmNode => ({
  type: 'schemaBlock',
  attrs: { blockUid: uid('s'), demoSchema: { typeCode, schemaTitle } },
});
export const chart = (tableUid: string, attrs: Record<string, unknown>): PmNode => ({
  type: 'chart',
  attrs: {
    blockUid: uid('k'),
    chartType: 'bar',
    xLabel: '',
    yLabel: '',
    dataName: '',
    label: '',
    direction: 'vertical',
    tableUid,
    ...attrs,
  },
});
export const doc = (...content: PmNode[]): PmNode => ({ type: 'doc', content });
/** Stands for the file of the demo's picture until the seed has uploaded it to the note. */
export const DEMO_IMAGE_FILE = 'demo-image-file';
export const image = (title: string): PmNode => ({ type: 'image', attrs: { blockUid: uid('i'), fileId: DEMO_IMAGE_FILE, title } });
