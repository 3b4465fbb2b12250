import type { PmNode } from '@eln/shared';

/** Builders of the demo's note and template content, as the editor would have written it (blockUids included). */

let uids = 0;
export const uid = (prefix: string) => `${prefix}demo${String((uids += 1)).padStart(11, '0')}`;
const text = (value: string): PmNode => ({ type: 'text', text: value });
export const paragraph = (value = ''): PmNode => ({ type: 'paragraph', attrs: { blockUid: uid('p') }, content: value ? [text(value)] : [] });
export const heading = (value: string, level = 2): PmNode => ({ type: 'heading', attrs: { blockUid: uid('h'), level }, content: [text(value)] });
const cell = (type: 'tableCell' | 'tableHeader', value: string): PmNode => ({
  type,
  attrs: { colspan: 1, rowspan: 1, colwidth: null, dropbox: null },
  content: [{ type: 'paragraph', content: value ? [text(value)] : [] }],
});
export const table = (blockUid: string, header: string[], rows: string[][]): PmNode => ({
  type: 'table',
  attrs: { blockUid },
  content: [
    { type: 'tableRow', content: header.map((h) => cell('tableHeader', h)) },
    ...rows.map((r) => ({ type: 'tableRow', content: r.map((v) => cell('tableCell', v)) })),
  ],
});
export const chart = (tableUid: string, attrs: Record<string, unknown>): PmNode => ({
  type: 'chart',
  attrs: { blockUid: uid('k'), chartType: 'bar', xLabel: '', yLabel: '', dataName: '', label: '', direction: 'vertical', tableUid, ...attrs },
});
export const doc = (...content: PmNode[]): PmNode => ({ type: 'doc', content });
/** Stands for the file of the demo's picture until the seed has uploaded it to the note. */
export const DEMO_IMAGE_FILE = 'demo-image-file';
export const image = (title: string): PmNode => ({ type: 'image', attrs: { blockUid: uid('i'), fileId: DEMO_IMAGE_FILE, title } });
