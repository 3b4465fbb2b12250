import type { PmNode } from '@eln/shared';
import { initialUpdate } from '../../server/src/seed/demoTemplates.js';
import { labBlock, languageOf, seededRandom } from './labText.js';

/** A lab note's body for the capacity and soak benchmarks, without the server's app (bare Hocuspocus builds it too). */

const BLOCKS = 20;
const TABLE_SIZE = 10;

/** The same IDs for the same seed: bare Hocuspocus builds a note's body at each load. */
const blockUid = (prefix: string, seed: number, index: number) =>
  `${prefix}${String(seed).padStart(10, '0')}${String(index).padStart(5, '0')}`;
const text = (value: string) => (value ? [{ type: 'text', text: value }] : []);

/** A note's body as its editor writes it: 19 blocks of lab text (the first a paragraph) and a 10 × 10 table in the middle. */
export function realisticBody(seed: number): PmNode {
  const random = seededRandom(seed);
  const language = languageOf(random);
  const blocks: PmNode[] = [];
  for (let i = 0; blocks.length < BLOCKS - 1; i += 1) {
    const { heading, body } = labBlock(random, language);
    if (heading && blocks.length)
      blocks.push({ type: 'heading', attrs: { blockUid: blockUid('h', seed, i), level: 2 }, content: text(heading) });
    else if (body) blocks.push({ type: 'paragraph', attrs: { blockUid: blockUid('p', seed, i) }, content: text(body) });
  }
  const cell = (row: number, column: number) => ({
    type: row === 0 ? 'tableHeader' : 'tableCell',
    attrs: { colspan: 1, rowspan: 1, colwidth: null, dropbox: null },
    content: [{ type: 'paragraph', content: text(row === 0 ? `Sample ${column + 1}` : `${((row * 7 + column * 3 + seed) % 97) / 10}`) }],
  });
  const table = {
    type: 'table',
    attrs: { blockUid: blockUid('t', seed, BLOCKS) },
    content: Array.from({ length: TABLE_SIZE }, (_, row) => ({
      type: 'tableRow',
      content: Array.from({ length: TABLE_SIZE }, (__, column) => cell(row, column)),
    })),
  };
  blocks.splice(BLOCKS / 2, 0, table);
  return { type: 'doc', content: blocks };
}

/** The body's first stored update (as the editor's first sync stores it). */
export const realisticBodyUpdate = (seed: number) => initialUpdate(realisticBody(seed));
