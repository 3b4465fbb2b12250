import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';

/**
 * The indexer is background work on the thread that serves live editing, and must never take the event
 * loop from it. Two measures: its work goes in turns of at most TURN_MS (Turns), and after each batch
 * it rests (restAfter): twice the batch's length when the loop is free, longer while the loop is busy.
 * On the capacity bench (1,000 editors, a hundred typing), the indexer's first pass over the fifty notes
 * being typed in took 1.8 s of CPU in 10 ms turns with no rest, and every edit in flight waited behind
 * it: durable p99 went from 357 ms without the indexer to 1.2 s with it.
 */
const TURN_MS = 10;
/** Rest after a batch, per ms of its work: the indexer takes at most a third of a free loop. */
const REST_PER_WORK = 2;
/** A timer this late means the loop had other work waiting: the rest goes on. */
const LATE_MS = 10;
/** The longest rest after one batch, so that the index still moves on a loop that is never free. */
const MAX_REST_MS = 2000;

/** The indexer's work in turns: the edits waiting for their confirmation go in between. */
export class Turns {
  private began = performance.now();

  /** Lets the event loop take its turn if this one has lasted TURN_MS. */
  async next(): Promise<void> {
    if (performance.now() - this.began <= TURN_MS) return;
    await yieldToEventLoop();
    this.began = performance.now();
  }
}

export interface RestClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

const realClock: RestClock = {
  now: () => performance.now(),
  sleep: async (ms, signal) => {
    await sleep(ms, undefined, { signal }).catch(() => undefined);
  },
};

/**
 * Rests after `workedMs` of background work: REST_PER_WORK times as long, then again as long for as
 * long as each sleep ended LATE_MS late or more (the loop was busy), up to MAX_REST_MS in all. Ends at
 * once when `signal` aborts. Answers how long it rested.
 */
export async function restAfter(workedMs: number, signal: AbortSignal, clock: RestClock = realClock): Promise<number> {
  const restMs = Math.min(REST_PER_WORK * workedMs, MAX_REST_MS);
  const began = clock.now();
  for (;;) {
    const asked = clock.now();
    await clock.sleep(restMs, signal);
    const ended = clock.now();
    const late = ended - asked - restMs;
    if (signal.aborted || late < LATE_MS || ended - began + restMs > MAX_REST_MS) return ended - began;
  }
}
