import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { DurableClocks } from '@eln/shared';
import { monotonicMs } from './forked.js';

export { monotonicMs };

/** Simulated editors of the bench helper processes (liveEditors.ts, capacityEditors.ts): one provider on its own socket each. */

export interface Peer {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
}

/** Connects an editor to a live document and resolves once it is synced. */
export function connect(url: string, name: string, token: string, onStateless: (payload: string) => void = () => undefined): Promise<Peer> {
  const doc = new Y.Doc();
  const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`connect ${name} timed out`)), 120_000);
    const provider: HocuspocusProvider = new HocuspocusProvider({
      websocketProvider: socket,
      name,
      document: doc,
      token,
      onStateless: ({ payload }) => onStateless(payload),
      onSynced: () => {
        clearTimeout(timer);
        resolve({ doc, socket, provider });
      },
      onAuthenticationFailed: ({ reason }) => reject(new Error(`${name}: ${reason}`)),
    });
    provider.attach();
  });
}

export function closePeer(peer: Peer): void {
  peer.provider.destroy();
  peer.socket.destroy();
  peer.doc.destroy();
}

/**
 * What a reader of several notes measures: per entry, ms from sent to arrived (propagation) and to
 * covered by the server's durable message (the same message every connection of the note gets).
 */
export class ArrivalLog {
  readonly propagation: number[] = [];
  readonly durable: number[] = [];
  lastDoneAt = 0;
  /** Per note, entries arrived and not yet confirmed, by writer: [clock after the entry, sent at]. */
  private readonly unconfirmed = new Map<string, Map<number, Array<[number, number]>>>();
  private readonly clocks = new Map<string, DurableClocks>();

  constructor(private readonly durableWanted: boolean) {}

  /** Watches a note; the durable messages of its connection go to `confirmed`. */
  watch(name: string): void {
    this.unconfirmed.set(name, new Map());
    this.clocks.set(name, new DurableClocks());
  }

  /** An entry of `client` sent at `sentAt`, whose last item's clock is `clock - 1`, arrived now. */
  arrived(name: string, client: number, clock: number, sentAt: number): void {
    const now = monotonicMs();
    this.propagation.push(now - sentAt);
    if (!this.durableWanted) {
      this.lastDoneAt = now;
      return;
    }
    const byWriter = this.unconfirmed.get(name)!;
    const waiting = byWriter.get(client) ?? [];
    waiting.push([clock, sentAt]);
    byWriter.set(client, waiting);
    this.settle(name, client);
  }

  confirmed(name: string, payload: string): void {
    if (!this.clocks.get(name)!.receive(payload)) return;
    for (const client of this.unconfirmed.get(name)!.keys()) this.settle(name, client);
  }

  private settle(name: string, client: number): void {
    const stored = this.clocks.get(name)!.storedClock(client);
    const waiting = this.unconfirmed.get(name)!.get(client) ?? [];
    const now = monotonicMs();
    while (waiting.length && waiting[0]![0] <= stored) {
      this.durable.push(now - waiting.shift()![1]);
      this.lastDoneAt = now;
    }
  }

  /** Waits until `expected` entries are done (arrived, and confirmed when durability is wanted), or the time is up. */
  async done(expected: number, timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    while ((this.propagation.length < expected || (this.durableWanted && this.durable.length < expected)) && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
