import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { docToBlocks, docToSavedBlocks } from '../blocks/convert.js';
import type { Block, PmNode, SavedBlock } from '../blocks/model.js';
import { blockAnswer, savedBlockAnswer, tempSaveAnswer } from './notes.js';

const SEAL = 'S'.repeat(43);

const cell = (text: string, attrs: Record<string, unknown> = {}, type = 'tableCell'): PmNode => ({
  type,
  attrs: { colspan: 1, rowspan: 1, colwidth: null, ...attrs },
  content: [{ type: 'paragraph', content: text ? [{ type: 'text', text }] : [] }],
});

const savedDoc: PmNode = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { blockUid: 'h1', level: 2 }, content: [{ type: 'text', text: 'Aim' }] },
    { type: 'paragraph', attrs: { blockUid: 'p1' }, content: [{ type: 'text', text: 'To be removed.' }] },
  ],
};
const currentDoc: PmNode = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { blockUid: 'h1', level: 2 }, content: [{ type: 'text', text: 'Aim, revised' }] },
    {
      type: 'table',
      attrs: { blockUid: 't1' },
      content: [
        { type: 'tableRow', content: [cell('Sample', {}, 'tableHeader'), cell('pH', {}, 'tableHeader')] },
        {
          type: 'tableRow',
          content: [
            cell('A', { dropbox: { dropboxNo: 4, title: 'Samples', code: 'S1', name: 'Serum', seal: SEAL } }),
            cell('B', { dropbox: 'SAMPLES' }),
          ],
        },
      ],
    },
    // A block without an ID of its own gets a stand-in.
    { type: 'paragraph', content: [{ type: 'text', text: 'No ID yet' }] },
  ],
};

describe('the block answers', () => {
  it('describe the block model exactly', () => {
    expectTypeOf<z.infer<typeof savedBlockAnswer>>().toEqualTypeOf<SavedBlock>();
    expectTypeOf<z.infer<typeof blockAnswer>>().toEqualTypeOf<Block>();
  });

  it('accept the blocks the server derives, every status, tables and dropboxes included', () => {
    const saved = docToSavedBlocks(savedDoc, 'LABNOTE');
    const blocks = docToBlocks(currentDoc, 'LABNOTE', saved);
    expect(blocks.map((block) => block.blockStatus)).toEqual(['EDIT', 'ADD', 'ADD', 'DELETE']);
    for (const block of saved) expect(savedBlockAnswer.parse(block)).toEqual(block);
    for (const block of blocks) expect(blockAnswer.parse(block)).toEqual(block);
    const statuses = blocks.map(({ blockUid, blockStatus }) => ({ blockUid, blockStatus }));
    expect(tempSaveAnswer.safeParse({ blockStatuses: statuses, changed: true, savedAt: new Date().toISOString() }).success).toBe(true);
  });

  it('refuse what the model does not have', () => {
    const [block] = docToBlocks(currentDoc, 'LABNOTE');
    expect(blockAnswer.safeParse({ ...block, extra: 1 }).success).toBe(false);
    expect(savedBlockAnswer.safeParse(block).success).toBe(false);
  });
});
