import { describe, expect, it } from 'vitest';
import { restAfter, type RestClock } from './background.js';

/** A clock whose sleeps end as late as `lateness` says, one value per sleep (then on time). */
function clockWith(lateness: number[]): RestClock & { sleeps: number[] } {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms + (lateness.shift() ?? 0);
    },
  };
}

describe('the indexer rests after each batch', () => {
  const free = new AbortController().signal;

  it('twice the batch’s work when the event loop is free', async () => {
    const clock = clockWith([]);
    expect(await restAfter(30, free, clock)).toBe(60);
    expect(clock.sleeps).toEqual([60]);
  });

  it('again while its sleeps end late (the loop is busy), and stops once one ends on time', async () => {
    const clock = clockWith([25, 40, 3]);
    expect(await restAfter(30, free, clock)).toBe(60 * 3 + 25 + 40 + 3);
    expect(clock.sleeps).toEqual([60, 60, 60]);
  });

  it('no longer than two seconds in all on a loop that is never free', async () => {
    const clock = clockWith(Array.from({ length: 100 }, () => 50));
    const rested = await restAfter(100, free, clock);
    expect(rested).toBeLessThanOrEqual(2000);
    expect(clock.sleeps.length).toBe(8);
  });

  it('at most two seconds after a batch that took longer than one', async () => {
    const clock = clockWith([]);
    expect(await restAfter(5000, free, clock)).toBe(2000);
  });

  it('not at all once the indexer stops', async () => {
    const stopping = new AbortController();
    const clock = clockWith([30, 30, 30]);
    const original = clock.sleep;
    clock.sleep = async (ms, signal) => {
      await original(ms, signal);
      stopping.abort();
    };
    await restAfter(30, stopping.signal, clock);
    expect(clock.sleeps).toEqual([60]);
  });
});
