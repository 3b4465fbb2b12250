import { describe, expect, it } from 'vitest';
import { diffBlockLists, type SavedBlock } from '@eln/shared';
import { changeStops, diffRows, keyStep, nextStop } from './diffRows';

const paragraph = (blockUid: string, text: string, blockOdr: number): SavedBlock => ({
  type: 'text',
  blockUid,
  noteType: 'LABNOTE',
  blockClass: 'paragraph',
  blockTable: null,
  content: JSON.stringify({ type: 'paragraph', attrs: { blockUid }, content: [{ type: 'text', text }] }),
  blockOdr,
});

/** a b c d e → a B c e f: b changed, d removed, f added; a, c and e unchanged. */
const { changes } = diffBlockLists(
  ['a', 'b', 'c', 'd', 'e'].map((uid, i) => paragraph(uid, uid, i + 1)),
  ['a', 'B', 'c', 'e', 'f'].map((text, i) => paragraph(['a', 'b', 'c', 'e', 'f'][i]!, text, i + 1)),
);

describe('the rows of a comparison', () => {
  it('are every block, in order, when unchanged ones are shown', () => {
    const rows = diffRows(changes, false);
    expect(rows.map((row) => (row.kind === 'change' ? `${row.change.kind}:${row.change.blockUid}` : 'folded'))).toEqual([
      'unchanged:a',
      'changed:b',
      'unchanged:c',
      'removed:d',
      'unchanged:e',
      'added:f',
    ]);
  });

  it('fold each run of unchanged blocks into one row, which the reader can unfold', () => {
    const named = (rows: ReturnType<typeof diffRows>) =>
      rows.map((row) => (row.kind === 'change' ? `${row.change.kind}:${row.index}` : `folded ${row.count} from ${row.key}`));
    expect(named(diffRows(changes, true))).toEqual([
      'folded 1 from unchanged:a',
      'changed:1',
      'folded 1 from unchanged:c',
      'removed:3',
      'folded 1 from unchanged:e',
      'added:5',
    ]);
    expect(named(diffRows(changes, true, new Set(['unchanged:c'])))).toContain('unchanged:2');
  });
});

describe('stepping through the changes', () => {
  const stops = changeStops(changes);

  it('stops at every change and at no unchanged block', () => {
    expect(stops).toEqual([1, 3, 5]);
  });

  it('goes to the first or last change from none, then one by one, and stays at either end', () => {
    expect(nextStop(stops, null, 1)).toBe(1);
    expect(nextStop(stops, null, -1)).toBe(5);
    expect(nextStop(stops, 1, 1)).toBe(3);
    expect(nextStop(stops, 5, 1)).toBe(5);
    expect(nextStop(stops, 1, -1)).toBe(1);
    expect(nextStop([], null, 1)).toBeNull();
  });

  it('takes j, n and ↓ forward, k, p and ↑ back, and no other key', () => {
    expect(['j', 'n', 'ArrowDown', 'k', 'p', 'ArrowUp', 'J', 'Enter'].map(keyStep)).toEqual([1, 1, 1, -1, -1, -1, null, null]);
  });
});
