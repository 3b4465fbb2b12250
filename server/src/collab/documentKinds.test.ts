import { describe, expect, it } from 'vitest';
import type { Tx } from '../db/client.js';
import { noteContentCheckOf, writeCheckOf, type DocumentKind } from './documentKinds.js';

const open: DocumentKind = { prefix: 'open', authorize: async () => 'write' };
const lockable: DocumentKind = { prefix: 'lockable', authorize: async () => 'write', writable: async (id) => id !== 'locked' };
const tx = {} as Tx;

describe('the store’s write check over document kinds', () => {
  it('asks the kind that owns the name, and refuses names no kind owns', async () => {
    const mayWrite = writeCheckOf([open, lockable]);
    expect(await mayWrite('lockable.7', tx)).toBe(true);
    expect(await mayWrite('lockable.locked', tx)).toBe(false);
    // A kind without a lock keeps its documents writable.
    expect(await mayWrite('open.1', tx)).toBe(true);
    expect(await mayWrite('unknown.1', tx)).toBe(false);
    expect(await mayWrite('not a name', tx)).toBe(false);
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
