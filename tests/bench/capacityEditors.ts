import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { CONTENT_FIELD } from '@eln/shared';
import { answerParent } from './forked.js';
import { ArrivalLog, closePeer, connect, monotonicMs, type Peer } from './peers.js';

/**
 * A process of the capacity and soak benchmarks' clients (capacity.bench.ts, soak.bench.ts), forked apart
 * from the server so that their CPU and memory never count as the server's:
 *
 * - `keepers` hold notes open and nothing else: one bare Hocuspocus connection per note, many notes on
 *   one socket, with no Y.Doc on this side (the server loads each note, answers its sync and token
 *   requests; what it sends is dropped). What they cost the server is an open document's.
 * - `editors` are browser tabs: a provider on its own socket each, with presence (user and mode), idle
 *   but for the typists, which on `go` type one keystroke every `typingIntervalMs` at the end of the
 *   note's first paragraph, each moving their cursor in presence as an editor's does.
 * - `readers` are idle editors of the notes typed in, which measure each keystroke's arrival and its
 *   durable confirmation.
 *
 * A keystroke carries its sending time (`@<ms>;`, process.hrtime's clock, one for the machine).
 */

export interface EditorSeat {
  name: string;
  token: string;
  typing: boolean;
}

export type CapacityJob =
  | { role: 'keepers'; url: string; notes: Array<{ name: string; token: string }>; notesPerSocket: number }
  | { role: 'editors' | 'readers'; url: string; seats: EditorSeat[]; durable: boolean };

export interface TypingResult {
  sent: number;
  propagation: number[];
  durable: number[];
}

export type CapacityRequest =
  | { type: 'open'; job: CapacityJob }
  | { type: 'type'; durationMs: number; typingIntervalMs: number }
  | { type: 'collect'; expected: number; timeoutMs: number }
  | { type: 'close' };
export type CapacityReply =
  { type: 'opened' } | { type: 'result'; result: TypingResult } | { type: 'error'; message: string } | { type: 'closed' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Hocuspocus's message types and its auth message's first field (@hocuspocus/common). */
const MESSAGE = { sync: 0, queryAwareness: 3, auth: 2 } as const;
const AUTH = { token: 0, permissionDenied: 1 } as const;
/** Each socket speaks within Hocuspocus's timeout (60 s without a message closes it). */
const KEEPALIVE_MS = 20_000;
/** Sockets opened at once: a burst of thousands would be the machine's accept queue's test, not the server's. */
const CONNECT_CONCURRENCY = 20;

/** lib0's variable-length encoding, the part Hocuspocus's header needs. */
class Encoder {
  private readonly bytes: number[] = [];
  uint(value: number): this {
    let rest = value;
    while (rest > 0x7f) {
      this.bytes.push((rest & 0x7f) | 0x80);
      rest = Math.floor(rest / 128);
    }
    this.bytes.push(rest);
    return this;
  }
  string(value: string): this {
    const encoded = new TextEncoder().encode(value);
    this.uint(encoded.length);
    for (const byte of encoded) this.bytes.push(byte);
    return this;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

class Decoder {
  private at = 0;
  constructor(private readonly bytes: Uint8Array) {}
  uint(): number {
    let value = 0;
    let factor = 1;
    for (;;) {
      const byte = this.bytes[this.at++]!;
      value += (byte & 0x7f) * factor;
      if (byte < 0x80) return value;
      factor *= 128;
    }
  }
  string(): string {
    const length = this.uint();
    const text = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + length));
    this.at += length;
    return text;
  }
}

const authMessage = (name: string, token: string) => new Encoder().string(name).uint(MESSAGE.auth).uint(AUTH.token).string(token).done();
/** Sync step 1 with an empty state vector: the server answers with the whole note, which says it is loaded. */
const syncStep1 = (name: string) => new Encoder().string(name).uint(MESSAGE.sync).uint(0).uint(1).uint(0).done();
const queryAwareness = (name: string) => new Encoder().string(name).uint(MESSAGE.queryAwareness).done();

/** Runs `work` over `items`, `concurrency` at a time. */
async function inBatches<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** Notes held open by bare connections, `notesPerSocket` on each socket. */
class Keepers {
  private readonly sockets: WebSocket[] = [];
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly job: Extract<CapacityJob, { role: 'keepers' }>) {}

  async open(): Promise<void> {
    const { notes, notesPerSocket } = this.job;
    const groups = Array.from({ length: Math.ceil(notes.length / notesPerSocket) }, (_, i) =>
      notes.slice(i * notesPerSocket, (i + 1) * notesPerSocket),
    );
    await inBatches(groups, 4, (group) => this.openSocket(group));
  }

  private openSocket(notes: Array<{ name: string; token: string }>): Promise<void> {
    const socket = new WebSocket(this.job.url);
    this.sockets.push(socket);
    const tokenOf = new Map(notes.map((note) => [note.name, note.token]));
    const waiting = new Set(tokenOf.keys());
    return new Promise((resolve, reject) => {
      socket.on('error', reject);
      socket.on('open', () => {
        for (const { name, token } of notes) {
          socket.send(authMessage(name, token));
          // Queued by the server until the note is loaded and the connection set up.
          socket.send(syncStep1(name));
        }
        const first = notes[0]!.name;
        const timer = setInterval(() => socket.send(queryAwareness(first)), KEEPALIVE_MS);
        this.timers.push(timer);
      });
      socket.on('message', (data: Buffer) => {
        const decoder = new Decoder(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
        const name = decoder.string();
        const type = decoder.uint();
        if (type === MESSAGE.sync && waiting.delete(name) && !waiting.size) resolve();
        if (type !== MESSAGE.auth) return;
        const auth = decoder.uint();
        if (auth === AUTH.permissionDenied) reject(new Error(`keeper of ${name} refused: ${decoder.string()}`));
        // The server asks for the current token now and then (its session recheck).
        else if (auth === AUTH.token) socket.send(authMessage(name, tokenOf.get(name)!));
      });
    });
  }

  close(): void {
    for (const timer of this.timers) clearInterval(timer);
    for (const socket of this.sockets) socket.terminate();
  }
}

/** Tabs on notes, each on its own socket with presence; the typists type on `type`, the readers measure. */
class Editors {
  private readonly peers: Array<{ peer: Peer; seat: EditorSeat }> = [];
  private readonly log: ArrivalLog;
  /** Set once every tab is open: keystrokes stored by an earlier step arrive with the first sync and are not this step's. */
  private recording = false;

  constructor(private readonly job: Extract<CapacityJob, { role: 'editors' | 'readers' }>) {
    this.log = new ArrivalLog(job.durable);
  }

  async open(): Promise<void> {
    const measuring = this.job.role === 'readers';
    await inBatches(this.job.seats, CONNECT_CONCURRENCY, async (seat) => {
      if (measuring) this.log.watch(seat.name);
      const peer = await connect(
        this.job.url,
        seat.name,
        seat.token,
        measuring ? (payload) => this.log.confirmed(seat.name, payload) : undefined,
      );
      peer.provider.setAwarenessField('user', { userId: `bench-${peer.doc.clientID}`, name: 'Bench editor', color: '#1565c0' });
      peer.provider.setAwarenessField('mode', seat.typing ? 'write' : 'read');
      if (measuring) peer.doc.getXmlFragment(CONTENT_FIELD).observeDeep((events) => this.arrived(seat.name, events));
      this.peers.push({ peer, seat });
    });
    this.recording = true;
  }

  /**
   * A text event names no items (Yjs gives text changes as a delta), so the keystroke's writer and end
   * clock are those of the one client the transaction moved: each keystroke arrives in an update of its own.
   */
  private arrived(name: string, events: Array<Y.YEvent<Y.AbstractType<unknown>>>): void {
    if (!this.recording) return;
    for (const event of events) {
      if (!(event.target instanceof Y.XmlText)) continue;
      const { beforeState, afterState } = event.transaction;
      const moved = [...afterState].filter(([client, clock]) => clock > (beforeState.get(client) ?? 0));
      if (moved.length !== 1) continue;
      const [client, clock] = moved[0]!;
      for (const change of event.delta)
        if (typeof change.insert === 'string')
          for (const marker of change.insert.matchAll(/@(\d+\.\d+);/g)) this.log.arrived(name, client, clock, Number(marker[1]));
    }
  }

  /** Each typist types for `durationMs`, starting at a random moment of its first interval. */
  async type(durationMs: number, intervalMs: number): Promise<number> {
    const typists = this.peers.filter(({ seat }) => seat.typing).map(({ peer }) => peer);
    const counts = await Promise.all(
      typists.map(async (peer) => {
        const paragraph = firstParagraphText(peer.doc);
        await sleep(Math.random() * intervalMs);
        const until = monotonicMs() + durationMs;
        let sent = 0;
        while (monotonicMs() < until) {
          paragraph.insert(paragraph.length, `@${monotonicMs().toFixed(3)};`);
          peer.provider.setAwarenessField('cursor', { anchor: paragraph.length, head: paragraph.length });
          sent += 1;
          await sleep(intervalMs);
        }
        return sent;
      }),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  }

  async collect(expected: number, timeoutMs: number): Promise<TypingResult> {
    await this.log.done(expected, timeoutMs);
    return { sent: 0, propagation: this.log.propagation, durable: this.log.durable };
  }

  close(): void {
    for (const { peer } of this.peers) closePeer(peer);
  }
}

/** The text of the note's first paragraph (the benchmark's notes all have one with text). */
function firstParagraphText(doc: Y.Doc): Y.XmlText {
  for (const block of doc.getXmlFragment(CONTENT_FIELD).toArray())
    if (block instanceof Y.XmlElement && block.nodeName === 'paragraph' && block.get(0) instanceof Y.XmlText)
      return block.get(0) as Y.XmlText;
  throw new Error('the note has no paragraph with text to type in');
}

let clients: Keepers | Editors | null = null;

answerParent<CapacityRequest, CapacityReply>('close', async (request) => {
  if (request.type === 'open') {
    clients = request.job.role === 'keepers' ? new Keepers(request.job) : new Editors(request.job);
    await clients.open();
    return { type: 'opened' };
  }
  if (request.type === 'type') {
    if (!(clients instanceof Editors)) throw new Error('only editors type');
    return {
      type: 'result',
      result: { sent: await clients.type(request.durationMs, request.typingIntervalMs), propagation: [], durable: [] },
    };
  }
  if (request.type === 'collect') {
    if (!(clients instanceof Editors)) throw new Error('only readers measure');
    return { type: 'result', result: await clients.collect(request.expected, request.timeoutMs) };
  }
  clients?.close();
  return null;
});
