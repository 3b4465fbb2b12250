import * as Y from 'yjs';
import { DURABLE_MESSAGE, type DurableMessage } from '../collab/protocol.js';

/**
 * A shared map beside the note's content where each client marks its changes that only delete
 * (see DurableTracker). Nothing reads it; its entries only advance their writer's clock.
 */
export const DELETION_MARKS_FIELD = 'durableMarks';

/** Origin of the marking transactions, so that marking never marks itself. */
const MARK_ORIGIN = Symbol('durable-mark');

export function parseDurableMessage(payload: string): DurableMessage | null {
  try {
    const value = JSON.parse(payload) as Partial<DurableMessage>;
    return value.type === DURABLE_MESSAGE && value.clocks && typeof value.clocks === 'object' ? (value as DurableMessage) : null;
  } catch {
    return null;
  }
}

/** Whether all of one client's edits so far (its current clock) are stored. */
export function isDurable(message: DurableMessage | null, clientId: number, currentClock: number): boolean {
  if (currentClock === 0) return true;
  return (message?.clocks[String(clientId)] ?? 0) >= currentClock;
}

/**
 * Keeps the highest stored clock per client across durable messages. With several server processes
 * each confirms what it stored itself, so a client must merge the messages, never keep only the last.
 */
export class DurableClocks {
  private readonly clocks = new Map<string, number>();

  /** Takes a stateless payload; answers whether it was a durable message. */
  receive(payload: string): boolean {
    const message = parseDurableMessage(payload);
    if (!message) return false;
    for (const [client, clock] of Object.entries(message.clocks)) {
      if ((this.clocks.get(client) ?? 0) < clock) this.clocks.set(client, clock);
    }
    return true;
  }

  storedClock(clientId: number): number {
    return this.clocks.get(String(clientId)) ?? 0;
  }

  /** Whether all of one client's edits up to its current clock are stored. */
  isDurable(clientId: number, currentClock: number): boolean {
    return currentClock === 0 || this.storedClock(clientId) >= currentClock;
  }

  asMessage(): DurableMessage {
    return { type: DURABLE_MESSAGE, clocks: Object.fromEntries(this.clocks) };
  }
}

/**
 * Whether this client's edits to a document are stored. The server confirms, per Yjs client, the clock
 * up to which the updates it appended reach; a clock counts inserted items, so a change that only
 * deletes (text removed, a mark or an attribute taken off) would leave it unchanged and look stored
 * at once. The tracker therefore follows each such local change, in the same flush of updates, with
 * a one-entry write to DELETION_MARKS_FIELD: the deletion's update goes out before the mark's, the
 * server stores a connection's updates in order, so the mark's clock is confirmed only once the
 * deletion is stored. Insertions, marks added and attributes set advance the clock themselves.
 * Confirmations come from what each server process stored or loaded, so they hold across reconnects
 * and several processes.
 */
export class DurableTracker {
  private readonly clocks = new DurableClocks();
  private marks = 0;

  constructor(private readonly doc: Y.Doc) {
    doc.on('afterTransaction', this.markDeletion);
  }

  private readonly markDeletion = (transaction: Y.Transaction): void => {
    if (!transaction.local || transaction.origin === MARK_ORIGIN || transaction.deleteSet.clients.size === 0) return;
    const id = this.doc.clientID;
    if ((transaction.afterState.get(id) ?? 0) !== (transaction.beforeState.get(id) ?? 0)) return;
    // Runs before the change's update is emitted, so the clock has moved by the time anyone asks.
    this.marks += 1;
    this.doc.transact(() => this.doc.getMap<number>(DELETION_MARKS_FIELD).set(String(id), this.marks), MARK_ORIGIN);
  };

  /** Takes a stateless payload; answers whether it was a durable message. */
  receive(payload: string): boolean {
    return this.clocks.receive(payload);
  }

  /** Whether every change this client made so far is stored. */
  isDurable(): boolean {
    return this.clocks.isDurable(this.doc.clientID, this.currentClock());
  }

  /** This client's clock now: a change made so far is stored once a confirmation reaches it. */
  currentClock(): number {
    return Y.getState(this.doc.store, this.doc.clientID);
  }

  storedClock(clientId: number = this.doc.clientID): number {
    return this.clocks.storedClock(clientId);
  }

  /** The merged confirmations, as one message. */
  asMessage(): DurableMessage {
    return this.clocks.asMessage();
  }

  destroy(): void {
    this.doc.off('afterTransaction', this.markDeletion);
  }
}
