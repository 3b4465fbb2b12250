import { describe, expect, it } from 'vitest';
import type { Tx } from '../../db/client.js';
import { noteContentCheckOf, writeCheckOf, type DocumentKind } from './documentKinds.js';

const open: DocumentKind = { prefix: 'open', authorize: async () => 'write' };
const lockable: DocumentKind = {
  prefix: 'lockable',
  authorize: async () => 'write',
  writable: async (ids) => ids.map((id) => id !== 'locked'),
};
const tx = {} as Tx;

describe('the store’s write check over document kinds', () => {
  it('asks the kind that owns the name, and refuses names no kind owns', async () => {
    const mayWrite = writeCheckOf([open, lockable]);
    expect(await mayWrite(['lockable.7'], tx)).toEqual([true]);
    expect(await mayWrite(['lockable.locked'], tx)).toEqual([false]);
    // A kind without a lock keeps its documents writable.
    expect(await mayWrite(['open.1'], tx)).toEqual([true]);
    expect(await mayWrite(['unknown.1'], tx)).toEqual([false]);
    expect(await mayWrite(['not a name'], tx)).toEqual([false]);
  });

  it('asks each kind once for all its documents of a group, and answers in the order asked', async () => {
    const asked: string[][] = [];
    const counting: DocumentKind = { ...lockable, writable: async (ids) => (asked.push(ids), ids.map((id) => id !== 'locked')) };
    const mayWrite = writeCheckOf([open, counting]);
    expect(await mayWrite(['lockable.1', 'open.1', 'lockable.locked', 'unknown.1', 'lockable.2'], tx)).toEqual([
      true,
      true,
      false,
      false,
      true,
    ]);
    expect(asked).toEqual([['1', 'locked', '2']]);
  });
});

describe('which documents keep the content rules', () => {
  it('are those of kinds holding a note’s content', () => {
    const applies = noteContentCheckOf([open, { ...lockable, noteContent: true }]);
    expect(applies('lockable.7')).toBe(true);
    expect(applies('open.1')).toBe(false);
    expect(applies('unknown.1')).toBe(false);
    expect(applies('not a name')).toBe(false);
  });
});
