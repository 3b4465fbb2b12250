/**
 * How long a process waits for an update's origin to confirm it stored before storing it itself. The
 * origin usually confirms within milliseconds; only a process that died or a stalled database makes
 * the copy here store it too (Yjs merges the repeat harmlessly).
 */
export const RELAY_STORE_DELAY_MS = 1000;

interface Held {
  update: Uint8Array;
  dueAt: number;
}

/** Updates relayed from other processes, held until their origin confirms them or their delay runs out. */
export class RelayedUpdates {
  private held: Held[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly delayMs: number = RELAY_STORE_DELAY_MS) {}

  get size(): number {
    return this.held.length;
  }

  /** Holds an update; `onDue` runs when the earliest held update's delay has run out. */
  hold(update: Uint8Array, onDue: () => void): void {
    this.held.push({ update, dueAt: Date.now() + this.delayMs });
    this.schedule(onDue);
  }

  private schedule(onDue: () => void): void {
    const first = this.held[0];
    if (this.timer || !first) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        onDue();
        // Later updates still held get their own turn.
        this.schedule(onDue);
      },
      Math.max(0, first.dueAt - Date.now()),
    );
    this.timer.unref();
  }

  /** Drops updates already stored (`isStored`) and hands back those whose delay ran out. */
  takeDue(isStored: (update: Uint8Array) => boolean): Uint8Array[] {
    const now = Date.now();
    const due: Uint8Array[] = [];
    this.held = this.held.filter(({ update, dueAt }) => {
      if (isStored(update)) return false;
      if (dueAt > now) return true;
      due.push(update);
      return false;
    });
    return due;
  }

  /** Every held update is due now (shutdown, end of writing): `onDue` stores what is not yet stored. */
  expireAll(onDue: () => void): void {
    for (const held of this.held) held.dueAt = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    onDue();
  }

  clear(): void {
    this.held = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
