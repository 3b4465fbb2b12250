/** When a batch's groups are handled (see Batches); both default to 0, every group at once. */
export interface BatchTiming {
  /** How long an idle batch waits, after its first item, for the items arriving with it. */
  gatherMs?: number;
  /**
   * The least time from one group's start to the next one's: under a steady stream, the items that
   * arrive meanwhile wait for it and go as one larger group. An item alone waits for it only if the group
   * before it started less than this long ago.
   */
  spacingMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Work that arrives one item at a time, handled a group at a time: the first item is handled at once
 * (or, given `gatherMs`, once that window has gathered the items arriving with it), and the items that
 * arrive while a group is being handled, or as it settles, make the next group (started no sooner than
 * `spacingMs` after the one before it). Under a burst, a thousand items cost a few statements instead of
 * a thousand queueing for the pool's connections; alone, an item waits for nothing but the window (and
 * the spacing, if the group before it started less than `spacingMs` ago). It needs the real
 * `setImmediate` (see drain): a test faking timers must leave it alone (vitest's `useFakeTimers` fakes
 * it unless told `toFake`).
 */
export class Batches<Item> {
  private waiting: Item[] = [];
  /** Set before the first group is handled (synchronously, inside `add`), so an `add` made meanwhile waits its turn. */
  private draining = false;
  /** When the last group started (`performance.now()`), for `spacingMs`. */
  private lastGroupAt = Number.NEGATIVE_INFINITY;

  /** `handle` settles each of its items itself, and must not throw. */
  constructor(
    private readonly handle: (group: Item[]) => Promise<void>,
    private readonly timing: BatchTiming = {},
  ) {}

  add(item: Item): void {
    this.waiting.push(item);
    if (this.draining) return;
    this.draining = true;
    void this.drain();
  }

  private async drain(): Promise<void> {
    try {
      if (this.timing.gatherMs) await sleep(this.timing.gatherMs);
      for (;;) {
        if (!this.waiting.length) {
          // The items a group's settlement adds straight away (a queue's next item, sent the moment its
          // previous one is done) join the next group rather than wait for a new window: the callbacks
          // of every settled item have run by the next turn of the event loop, however many promise
          // steps they take. Under a burst items are waiting already.
          await new Promise((resolve) => setImmediate(resolve));
          if (!this.waiting.length) return;
        }
        const untilSpaced = this.lastGroupAt + (this.timing.spacingMs ?? 0) - performance.now();
        if (untilSpaced > 0) await sleep(untilSpaced);
        this.lastGroupAt = performance.now();
        await this.handle(this.waiting.splice(0));
      }
    } finally {
      this.draining = false;
    }
  }
}

/** PostgreSQL takes at most 65,535 parameters a statement; rows of a few columns stay far below it. */
const ROWS_PER_STATEMENT = 1000;

/**
 * Rows inserted into one table in batches (see Batches): each `add` resolves once the statement that
 * carried its row has run, or rejects with its error. A row given twice in one batch is inserted once
 * (`insert` is expected to skip rows already there, e.g. `on conflict do nothing`), and the rows go in
 * `key` order, so that two batches (of two server processes) take the table's unique keys in one order.
 */
export class InsertBatches<Row> {
  private readonly batches = new Batches<{ row: Row; resolve: () => void; reject: (error: unknown) => void }>(async (group) => {
    const rows = [...new Map(group.map(({ row }) => [this.key(row), row])).entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, row]) => row);
    try {
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT)
        await this.insert(rows.slice(start, start + ROWS_PER_STATEMENT));
    } catch (error) {
      for (const { reject } of group) reject(error);
      return;
    }
    for (const { resolve } of group) resolve();
  });

  constructor(
    private readonly insert: (rows: Row[]) => Promise<unknown>,
    private readonly key: (row: Row) => string,
  ) {}

  add(row: Row): Promise<void> {
    return new Promise((resolve, reject) => this.batches.add({ row, resolve, reject }));
  }
}
