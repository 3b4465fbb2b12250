import { describe, expect, it } from 'vitest';
import type { SavedBlock } from '@eln/shared';
import { diffBlocks } from './blockDiff';

const block = (blockUid: string, text: string, blockOdr: number): SavedBlock => ({
  type: 'text',
  blockUid,
  noteType: 'TEMPLATE',
  blockClass: 'paragraph',
  blockTable: null,
  content: JSON.stringify({ type: 'paragraph', attrs: { blockUid }, content: [{ type: 'text', text }] }),
  blockOdr,
});

const kinds = (changes: ReturnType<typeof diffBlocks>) => changes.map((c) => `${c.kind}:${(c.after ?? c.before)!.blockUid}`);

describe('diffBlocks', () => {
  it('marks added, removed, changed and unchanged blocks by their blockUid, removed ones where they stood', () => {
    const before = [block('a', 'Objective', 0), block('b', 'Old step', 1), block('c', 'Weigh', 2), block('d', 'Dispose', 3)];
    const after = [block('a', 'Objective', 0), block('c', 'Weigh 5 g', 1), block('e', 'New safety step', 2), block('d', 'Dispose', 3)];
    expect(kinds(diffBlocks(before, after))).toEqual(['unchanged:a', 'removed:b', 'changed:c', 'added:e', 'unchanged:d']);
  });

  it('answers only unchanged blocks for the same content, and handles empty versions', () => {
    const blocks = [block('a', 'One', 0), block('b', 'Two', 1)];
    expect(diffBlocks(blocks, blocks).every((c) => c.kind === 'unchanged')).toBe(true);
    expect(kinds(diffBlocks([], blocks))).toEqual(['added:a', 'added:b']);
    expect(kinds(diffBlocks(blocks, []))).toEqual(['removed:a', 'removed:b']);
  });

  it('keeps a moved block once, as unchanged, and the removed blocks in their old order', () => {
    const before = [block('a', 'A', 0), block('b', 'B', 1), block('c', 'C', 2)];
    const after = [block('c', 'C', 0), block('a', 'A', 1)];
    expect(kinds(diffBlocks(before, after))).toEqual(['removed:b', 'unchanged:c', 'unchanged:a']);
  });
});
