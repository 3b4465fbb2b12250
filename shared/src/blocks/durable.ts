/** The stateless message by which the server confirms that edits are stored. */
export const DURABLE_MESSAGE = 'durable';

export interface DurableMessage {
  type: typeof DURABLE_MESSAGE;
  /** For each Yjs client ID, the clock up to which its edits are stored in the database. */
  clocks: Record<string, number>;
}

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
