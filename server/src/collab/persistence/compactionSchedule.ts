/** How long a document must go without a stored update before its due compaction runs. */
export const COMPACTION_QUIET_MS = 1000;
/** Past this many times the compaction threshold, a document is compacted even mid-burst. */
const FORCE_FACTOR = 10;

/**
 * When a document that is due for compaction is compacted. A compaction is a transaction of its own
 * that reads, merges (on the event loop) and rewrites the document's updates; run in the middle of a
 * burst it competes with the appends that confirm edits, for database connections and the event loop.
 * So it waits until the document is quiet, unless its updates pile up far past the threshold (a
 * document written without pause is still compacted, a bounded amount at a time).
 */
export class CompactionSchedule {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly compactEvery: number,
    private readonly run: (documentName: string) => void,
    private readonly quietMs: number = COMPACTION_QUIET_MS,
  ) {}

  /** After a stored batch: `sinceCompaction` updates are stored since the document's last compaction. */
  stored(documentName: string, sinceCompaction: number): void {
    if (sinceCompaction < this.compactEvery) return;
    this.cancel(documentName);
    if (sinceCompaction >= this.compactEvery * FORCE_FACTOR) {
      this.run(documentName);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(documentName);
      this.run(documentName);
    }, this.quietMs);
    timer.unref();
    this.timers.set(documentName, timer);
  }

  cancel(documentName: string): void {
    clearTimeout(this.timers.get(documentName));
    this.timers.delete(documentName);
  }
}
