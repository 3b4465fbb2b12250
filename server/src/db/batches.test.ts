import { afterEach, describe, expect, it, vi } from 'vitest';
import { Batches, InsertBatches } from './batches.js';

/** An insert that holds each statement until released, recording the rows of each. */
function heldInsert() {
  const statements: string[][] = [];
  const releases: Array<(error?: Error) => void> = [];
  const insert = (rows: string[]) =>
    new Promise<void>((resolve, reject) => {
      statements.push(rows);
      releases.push((error) => (error ? reject(error) : resolve()));
    });
  return { statements, releases, insert };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
/** Past the turn a batch waits after each group (see Batches.drain), and then past ours. */
const settle = async () => {
  await nextTurn();
  await nextTurn();
};

describe('rows inserted in batches', () => {
  it('inserts the first row at once and those that arrive meanwhile in one statement, each once, in key order', async () => {
    const { statements, releases, insert } = heldInsert();
    const batches = new InsertBatches<string>(insert, (row) => row);
    const done: string[] = [];
    const add = (row: string) => batches.add(row).then(() => done.push(row));
    const first = add('m');
    expect(statements).toEqual([['m']]);
    const later = ['z', 'b', 'z', 'a'].map(add);
    await settle();
    expect(statements).toEqual([['m']]);
    releases[0]!();
    await first;
    await settle();
    expect(statements).toEqual([['m'], ['a', 'b', 'z']]);
    expect(done).toEqual(['m']);
    releases[1]!();
    await Promise.all(later);
    expect(done.sort()).toEqual(['a', 'b', 'm', 'z', 'z']);
  });

  it('rejects every row of a failed statement, and goes on with the next batch', async () => {
    const { statements, releases, insert } = heldInsert();
    const batches = new InsertBatches<string>(insert, (row) => row);
    const first = batches.add('first');
    const failing = [batches.add('x'), batches.add('y')];
    releases[0]!();
    await first;
    await settle();
    releases[1]!(new Error('no room'));
    await expect(Promise.all(failing)).rejects.toThrow('no room');
    await expect(failing[1]).rejects.toThrow('no room');
    const after = batches.add('again');
    await settle();
    expect(statements).toEqual([['first'], ['x', 'y'], ['again']]);
    releases[2]!();
    await expect(after).resolves.toBeUndefined();
  });

  it('splits a batch into statements of at most 1,000 rows', async () => {
    const statements: number[] = [];
    const batches = new InsertBatches<string>(
      async (rows) => void statements.push(rows.length),
      (row) => row,
    );
    void batches.add('first');
    await Promise.all(Array.from({ length: 2500 }, (_, i) => batches.add(`row ${String(i).padStart(4, '0')}`)));
    expect(statements).toEqual([1, 1000, 1000, 500]);
  });
});

describe('work handled a group at a time', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes an item added as the previous group settles into the next group at once, without a new gathering window', async () => {
    // Only the window's timer is faked: the group after it must start without it ever firing again.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const groups: string[][] = [];
    const batches = new Batches<{ name: string; done: () => void }>(
      async (group) => {
        groups.push(group.map(({ name }) => name));
        for (const { done } of group) done();
      },
      { gatherMs: 50 },
    );
    const add = (name: string) => new Promise<void>((resolve) => batches.add({ name, done: resolve }));
    // As a document's flush does: its next item is added a few promise steps after the previous one is done.
    const chain = add('first').then(async () => {
      await Promise.resolve();
      await Promise.resolve();
      return add('next');
    });
    expect(groups).toEqual([]);
    await vi.advanceTimersByTimeAsync(50);
    expect(groups).toEqual([['first']]);
    await settle();
    expect(groups).toEqual([['first'], ['next']]);
    await chain;
    // Once idle (a turn after its last group), an item waits for the window again.
    await nextTurn();
    void add('later');
    await settle();
    expect(groups).toEqual([['first'], ['next']]);
    await vi.advanceTimersByTimeAsync(50);
    expect(groups).toEqual([['first'], ['next'], ['later']]);
  });

  it('starts a group no sooner than the spacing after the one before it, gathering what arrives meanwhile', async () => {
    // The window's timer and the clock are faked; setImmediate stays real (see Batches).
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const groups: Array<{ names: string[]; at: number }> = [];
    const batches = new Batches<{ name: string; done: () => void }>(
      async (group) => {
        groups.push({ names: group.map(({ name }) => name), at: performance.now() });
        for (const { done } of group) done();
      },
      { spacingMs: 20 },
    );
    const add = (name: string) => new Promise<void>((resolve) => batches.add({ name, done: resolve }));
    const started = performance.now();
    const first = add('first');
    // Nothing to gather and no group before it: handled at once.
    expect(groups.map(({ names }) => names)).toEqual([['first']]);
    await first;
    await vi.advanceTimersByTimeAsync(5);
    const burst = [add('a'), add('b')];
    await settle();
    await vi.advanceTimersByTimeAsync(10);
    burst.push(add('c'));
    await vi.advanceTimersByTimeAsync(4);
    expect(groups.map(({ names }) => names)).toEqual([['first']]);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all(burst);
    expect(groups.map(({ names }) => names)).toEqual([['first'], ['a', 'b', 'c']]);
    expect(groups[1]!.at - started).toBe(20);
    // Long after the last group (and once the batch is idle, a turn after it), an item waits for nothing.
    await vi.advanceTimersByTimeAsync(100);
    await settle();
    const alone = add('alone');
    expect(groups.map(({ names }) => names)).toEqual([['first'], ['a', 'b', 'c'], ['alone']]);
    await alone;
  });

  it('with a gathering window too, keeps items 20 ms apart from waiting for the spacing, and closer ones wait the difference', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const started = performance.now();
    const advanceTo = (ms: number) => vi.advanceTimersByTimeAsync(started + ms - performance.now());
    const groupsAt: number[] = [];
    const batches = new Batches<() => void>(
      async (group) => {
        groupsAt.push(performance.now() - started);
        for (const done of group) done();
      },
      { gatherMs: 5, spacingMs: 20 },
    );
    // One item at a time, as a lone typist's keystrokes, each handled and the batch idle before the next.
    const add = () => new Promise<void>((resolve) => batches.add(resolve));
    for (const at of [0, 20, 40]) {
      await advanceTo(at);
      const handled = add();
      await advanceTo(at + 5);
      await handled;
      await settle();
    }
    expect(groupsAt).toEqual([5, 25, 45]);
    // 15 ms after the one before: its window ends 5 ms short of the spacing, and it waits that long.
    await advanceTo(55);
    const close = add();
    await advanceTo(64);
    expect(groupsAt).toEqual([5, 25, 45]);
    await advanceTo(65);
    await close;
    expect(groupsAt).toEqual([5, 25, 45, 65]);
  });
});
