import * as Y from 'yjs';
import { answerParent } from './forked.js';
import { ArrivalLog, closePeer, connect, monotonicMs, type Peer } from './peers.js';

/**
 * A process of simulated editors for the live-editing benchmark (collab.bench.ts), forked apart from
 * the server so that the editors' CPU never counts as the server's latency. A `writers` process opens
 * the writers of its notes and, on `go`, has each push timestamped entries in rounds. The one `readers`
 * process opens one reader per note and does nothing else, so what it measures is the server's time:
 * when each entry arrives (propagation) and when the server's durable message covers it (the same
 * message every connection of the note gets, the writer's included).
 *
 * Times are `process.hrtime` (CLOCK_MONOTONIC), one clock for every process on the machine.
 */

export interface NoteAccess {
  name: string;
  tokens: string[];
}

export interface EditorsJob {
  role: 'readers' | 'writers';
  url: string;
  notes: NoteAccess[];
  /** The shared array the entries go into: one per run, so each run's count is its own. */
  arrayName: string;
  editsPerWriter: number;
  roundPauseMs: number;
  /** Readers: how many entries to wait for, and whether to wait for durable confirmations too (bare Hocuspocus sends none). */
  expected: number;
  durable: boolean;
  timeoutMs: number;
}

export interface EditorsResult {
  /** Writers: entries sent, and when the first was. */
  sent: number;
  firstSentAt: number;
  /** Readers: per entry, ms from sent to arrived, and to confirmed stored; when the last was done. */
  propagation: number[];
  durable: number[];
  lastDoneAt: number;
}

export type ParentMessage = { type: 'job'; job: EditorsJob } | { type: 'go' } | { type: 'close' };
export type ChildMessage =
  { type: 'ready' } | { type: 'result'; result: EditorsResult } | { type: 'error'; message: string } | { type: 'closed' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const emptyResult = (): EditorsResult => ({ sent: 0, firstSentAt: 0, propagation: [], durable: [], lastDoneAt: 0 });

/** One reader per note: records each entry's arrival and confirmation. */
class Readers {
  private readonly peers: Peer[] = [];
  private readonly log: ArrivalLog;

  constructor(private readonly job: EditorsJob) {
    this.log = new ArrivalLog(job.durable);
  }

  async open(): Promise<void> {
    for (const note of this.job.notes) {
      this.log.watch(note.name);
      const peer = await connect(this.job.url, note.name, note.tokens[0]!, (payload) => this.log.confirmed(note.name, payload));
      peer.doc.getArray<string>(this.job.arrayName).observe((event) => this.arrived(note.name, event));
      this.peers.push(peer);
    }
  }

  private arrived(name: string, event: Y.YArrayEvent<string>): void {
    for (const item of event.changes.added) {
      const values = item.content.getContent() as string[];
      values.forEach((value, index) => this.log.arrived(name, item.id.client, item.id.clock + index + 1, Number(value.split('@')[1])));
    }
  }

  async measure(): Promise<EditorsResult> {
    const { job, log } = this;
    await log.done(job.expected, job.timeoutMs);
    return { ...emptyResult(), propagation: log.propagation, durable: log.durable, lastDoneAt: log.lastDoneAt };
  }

  close(): void {
    for (const peer of this.peers) closePeer(peer);
  }
}

/** The writers of some notes: on `go`, each pushes its entries, one message each, in rounds. */
class Writers {
  private readonly peers: Peer[] = [];

  constructor(private readonly job: EditorsJob) {}

  async open(): Promise<void> {
    for (const note of this.job.notes) {
      // One note's writers connect together, as a team opening a note does.
      this.peers.push(...(await Promise.all(note.tokens.map((token) => connect(this.job.url, note.name, token)))));
    }
  }

  async measure(): Promise<EditorsResult> {
    const { job } = this;
    const result = emptyResult();
    result.firstSentAt = monotonicMs();
    for (let round = 0; round < job.editsPerWriter; round += 1) {
      for (const writer of this.peers) {
        writer.doc.getArray<string>(job.arrayName).push([`${writer.doc.clientID}.${round}@${monotonicMs()}`]);
        result.sent += 1;
        // Each edit goes out on its own, as keystrokes of different people do.
        await new Promise((resolve) => setImmediate(resolve));
      }
      await sleep(job.roundPauseMs);
    }
    return result;
  }

  close(): void {
    for (const peer of this.peers) closePeer(peer);
  }
}

let editors: Readers | Writers | null = null;

answerParent<ParentMessage, ChildMessage>('close', async (message) => {
  if (message.type === 'job') {
    editors = message.job.role === 'readers' ? new Readers(message.job) : new Writers(message.job);
    await editors.open();
    return { type: 'ready' };
  }
  if (message.type === 'go') return { type: 'result', result: await editors!.measure() };
  editors?.close();
  return null;
});
