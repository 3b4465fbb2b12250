import type * as Y from 'yjs';
import { DurableTracker } from '@eln/shared';

/**
 * Which of this client's edits the server confirmed stored, merged across durable messages (with
 * several server processes each confirms what it stored); changes that only delete are marked so they
 * too wait for their append. Callers can wait for everything to be stored.
 */
export class SessionDurability {
  private readonly tracker: DurableTracker;
  private readonly waiters = new Set<() => void>();

  constructor(doc: Y.Doc) {
    this.tracker = new DurableTracker(doc);
  }

  /** Takes a stateless message; true when it was a durable confirmation. */
  receive(payload: string): boolean {
    return this.tracker.receive(payload);
  }

  /** Whether every edit this client made so far (insertions, deletions, formatting) is stored by the server. */
  isDurable(): boolean {
    return this.tracker.isDurable();
  }

  /** Wakes the waiters when everything is stored; returns whether it is. */
  check(): boolean {
    const durable = this.isDurable();
    if (durable) for (const resolve of [...this.waiters]) resolve();
    return durable;
  }

  /** Resolves true once every local edit is stored, or false after `timeoutMs`. */
  wait(timeoutMs: number): Promise<boolean> {
    if (this.isDurable()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(onDurable);
        resolve(value);
      };
      const onDurable = () => done(true);
      const timer = setTimeout(() => done(this.isDurable()), timeoutMs);
      this.waiters.add(onDurable);
    });
  }

  destroy(): void {
    this.tracker.destroy();
  }
}
