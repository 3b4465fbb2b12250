/**
 * persistence/: live documents that keep everything a user was told is saved.
 *
 * DurablePersistence (this file, a Hocuspocus extension) appends every accepted update to the store and
 * confirms it to its sender only once stored, per Yjs client (durableClocks.ts); compacts a document's
 * updates once it is quiet (compactionSchedule.ts); and stores updates relayed from other server
 * processes when their origin does not confirm them in time (relayedUpdates.ts). The store
 * (documentStore.ts) appends in group commits (groupCommit.ts): one transaction for the updates of many
 * documents, in which each document's kind (documents/) says whether it may still be written. A document
 * the store refuses (locked) goes stale here: nothing more of it is stored or confirmed.
 */
import type {
  Connection,
  Extension,
  Document,
  Hocuspocus,
  onChangePayload,
  onLoadDocumentPayload,
  beforeUnloadDocumentPayload,
  connectedPayload,
  onDisconnectPayload,
} from '@hocuspocus/server';
import { isTransactionOrigin } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import * as Y from 'yjs';
import { DURABLE_MESSAGE, type DurableMessage } from '@eln/shared';
import type { AppendOutcome, DocumentStore } from './documentStore.js';
import { CompactionSchedule } from './compactionSchedule.js';
import { endWriting } from '../connections/endWriting.js';
import { DurableClocks } from './durableClocks.js';
import { RelayedUpdates } from './relayedUpdates.js';

/** An update waiting to be stored, and the connection that sent it (none when relayed from another process). */
interface PendingUpdate {
  update: Uint8Array;
  sender: Connection | null;
}

interface Queue {
  pending: PendingUpdate[];
  flushing: Promise<void> | null;
  /**
   * Updates put in `pending` so far, and those taken out for good (stored, refused, or dropped when the
   * copy went stale), both counted from the queue's start. The queue stores them in order, so the first
   * `settled` updates ever enqueued are done; the one exception, harmless, is a stale copy's dropped
   * updates, counted while an earlier batch may still be on its way: that batch was sent before a lock
   * that will refuse it or after which it is read (see markStale).
   */
  enqueued: number;
  settled: number;
  /** Callers of flushDocument, each waiting until `settled` reaches the count enqueued at its call. */
  settledWaiters: Array<{ upTo: number; resolve: () => void }>;
  /** Per Yjs client, the clock up to which its edits are stored with no gap. */
  durableClocks: DurableClocks;
  /** Updates other processes relayed, stored here too unless their origin confirms them first. */
  relayed: RelayedUpdates;
  sinceCompaction: number;
  /**
   * The store refused the document's updates (it was locked: signed, finished, deleted). The copy in
   * memory may hold updates that will never be stored, so until it unloads nothing more from it is
   * stored or confirmed, its connections are read-only, and the API reads the document from the store.
   */
  stale: boolean;
}

export interface DurablePersistenceOptions {
  /** Compact a document after this many appended updates. */
  compactEvery?: number;
  /** First and largest wait between attempts when the store fails. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
}

/** How long after the last client left an idle document is asked again to unload (see onDisconnect). */
const IDLE_UNLOAD_DELAY_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Durable live documents. Stock Hocuspocus confirms an update once it is in memory and stores the
 * document seconds later, so a crash loses what users saw as sent. Here every update from a writer is
 * appended to the database (batched while the previous commit runs) and only then confirmed, by a
 * stateless message carrying each client's durable clock. A failed append is retried until it
 * succeeds, and a document with unstored updates is never unloaded.
 */
export class DurablePersistence implements Extension {
  readonly extensionName = 'durable-persistence';
  private readonly queues = new Map<string, Queue>();
  private instance: Hocuspocus | null = null;
  private readonly documents = new Map<string, Document>();
  private readonly compactEvery: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;
  /** Due compactions wait for a quiet moment (see CompactionSchedule). */
  private readonly compaction: CompactionSchedule;
  /** Per connection, the Yjs clients whose updates it sent and this process stored (see audience). */
  private readonly writesAs = new WeakMap<Connection, Set<number>>();
  /** Set while this process broadcasts its own durable message (see hearPeersConfirm). */
  private telling = false;
  /** Called when the store refused a document's updates, so that other processes learn it too. */
  onRefused: ((documentName: string) => void) | null = null;

  constructor(
    private readonly store: DocumentStore,
    private readonly log: FastifyBaseLogger,
    options: DurablePersistenceOptions = {},
  ) {
    this.compactEvery = options.compactEvery ?? 200;
    this.retryDelayMs = options.retryDelayMs ?? 100;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 5000;
    this.compaction = new CompactionSchedule(this.compactEvery, (documentName) => {
      const queue = this.queues.get(documentName);
      // A document unloaded meanwhile was compacted then (afterUnloadDocument).
      if (queue) void this.compact(documentName, queue);
    });
  }

  private queueOf(documentName: string): Queue {
    let queue = this.queues.get(documentName);
    if (!queue) {
      queue = {
        pending: [],
        enqueued: 0,
        settled: 0,
        settledWaiters: [],
        flushing: null,
        durableClocks: new DurableClocks(),
        relayed: new RelayedUpdates(),
        sinceCompaction: 0,
        stale: false,
      };
      this.queues.set(documentName, queue);
    }
    return queue;
  }

  async onLoadDocument({ documentName, document, instance }: onLoadDocumentPayload): Promise<Uint8Array | undefined> {
    this.instance = instance;
    // A failed load throws: Hocuspocus then refuses the connection, and nothing is ever written back.
    const state = await this.store.load(documentName);
    const queue = this.queueOf(documentName);
    // A fresh load is exactly what is stored: a refused copy from before is gone.
    queue.stale = false;
    this.documents.set(documentName, document);
    this.hearPeersConfirm(documentName, document);
    if (!state) return undefined;
    // Applied here rather than handed back: the document's state vector right after is exactly the
    // stored state's contiguous part (structs behind a clock gap stay pending and count for nothing).
    Y.applyUpdate(document, state);
    queue.durableClocks = DurableClocks.ofLoaded(document);
    const gap = DurableClocks.gapIn(document);
    if (gap) this.log.error({ documentName, ...gap }, 'stored document has a clock gap: edits after it cannot be applied and are missing');
    return undefined;
  }

  async connected({ connection, connectionConfig, documentName }: connectedPayload): Promise<void> {
    // A newcomer learns what is already durable, so edits it sent before a reconnect count as saved.
    connection.sendStateless(this.durableMessage(documentName));
    if (this.queues.get(documentName)?.stale && !connection.readOnly) {
      // Joined a refused copy (authorised just before the lock): it writes nothing more.
      connectionConfig.readOnly = true;
      endWriting(connection, 'access');
    }
  }

  async onChange({ documentName, document, update, transactionOrigin }: onChangePayload): Promise<void> {
    if (isTransactionOrigin(transactionOrigin) && transactionOrigin.source === 'local' && transactionOrigin.skipStoreHooks) return;
    this.documents.set(documentName, document);
    const queue = this.queueOf(documentName);
    // Never stored, never confirmed: the document is locked and this copy is on its way out.
    if (queue.stale) return;
    if (isTransactionOrigin(transactionOrigin) && transactionOrigin.source === 'redis') {
      // Relayed from another process, which stores it; but that process may die first, and then
      // nobody else would (its writer, reconnecting here, has nothing to send). So it is stored here
      // too unless that process's durable message confirms it within the relay delay.
      queue.relayed.hold(update, () => this.storeRelayed(documentName, queue));
      return;
    }
    const sender =
      isTransactionOrigin(transactionOrigin) && transactionOrigin.source === 'connection' ? transactionOrigin.connection : null;
    this.enqueue(documentName, queue, [{ update, sender }]);
  }

  /**
   * Durable messages of other processes reach this one through Redis and are relayed to its clients by
   * Document.relayStateless, which runs no hook: it is wrapped so that this process learns from them
   * which relayed updates their origin has stored.
   */
  private hearPeersConfirm(documentName: string, document: Document): void {
    const relay = document.relayStateless.bind(document);
    document.relayStateless = (payload, filter) => {
      // This process's own messages (broadcastStateless relays them here too) teach it nothing.
      if (!this.telling) this.learnDurable(documentName, payload);
      // To every connection here: the writer of what another process stored may be known here by other
      // clients' items only (see tell).
      relay(payload, filter);
    };
  }

  /** Relayed updates whose delay ran out: those not yet known stored go into the queue. */
  private storeRelayed(documentName: string, queue: Queue): void {
    const due = queue.relayed.takeDue((update) => queue.durableClocks.covers(update));
    if (queue.stale || !due.length) {
      void this.unloadIfIdle(documentName);
      return;
    }
    this.enqueue(
      documentName,
      queue,
      due.map((update) => ({ update, sender: null })),
    );
  }

  /**
   * Another process's durable message, relayed through Redis: its clocks are stored with no gap, so
   * relayed updates they cover need not be stored here. Anything else is ignored.
   */
  learnDurable(documentName: string, payload: string): void {
    const queue = this.queues.get(documentName);
    if (!queue) return;
    let message: Partial<DurableMessage>;
    try {
      message = JSON.parse(payload) as Partial<DurableMessage>;
    } catch {
      return;
    }
    if (message.type !== DURABLE_MESSAGE || !message.clocks || typeof message.clocks !== 'object') return;
    const joined = new Set<number>();
    for (const [client, clock] of Object.entries(message.clocks))
      if (Number.isFinite(clock) && queue.durableClocks.claim(Number(client), clock)) joined.add(Number(client));
    // Updates stored here behind a gap that the claim filled now count: their writer learns it now, not
    // at its next stored edit (it may make none, waiting for its "saved" mark). Claims only raise
    // clocks, so the processes' answers to each other end.
    this.tell(documentName, joined, 'everyone');
  }

  /**
   * Sends the durable clocks of `clients` to the connections that write as them (and to other
   * processes, through Redis when scaled out). A writer only asks whether its own edits are stored, so
   * with fifty editors in a note a commit of one editor's keystroke is one message, not fifty. Updates
   * that reached the store another way (relayed from another process, or behind a gap another process
   * filled) are told to every connection: their writer may be connected here by a connection known only
   * by other clients' items it passed on (a tab that reconnected to this process).
   */
  private tell(documentName: string, clients: ReadonlySet<number>, senders: readonly Connection[] | 'everyone'): void {
    const document = this.documents.get(documentName);
    if (!document || !clients.size) return;
    const message = this.durableMessage(documentName, clients);
    const audience = this.audience(clients);
    this.telling = true;
    try {
      document.broadcastStateless(
        message,
        senders === 'everyone' ? undefined : (connection) => senders.includes(connection) || audience(connection),
      );
    } finally {
      this.telling = false;
    }
  }

  /**
   * The connections a durable message naming `clients` is for: those that sent updates of one of them
   * (learnt as this process stores them), and those whose writer is not known yet, which are told
   * everything as before: a tab that reconnected while its last edits were being stored hears about
   * them on its new connection. Awareness is not used: a tab's awareness ID is dropped with its old
   * connection and taken again only after its next change or two.
   */
  private audience(clients: ReadonlySet<number>): (connection: Connection) => boolean {
    return (connection) => {
      const sent = this.writesAs.get(connection);
      if (!sent?.size) return true;
      for (const client of clients) if (sent.has(client)) return true;
      return false;
    };
  }

  /**
   * Remembers a connection's writer from a stored update of one client's items (an editor's own, as
   * ClientAuthors takes them): an update with several clients' items may pass on what the server lacked
   * (a reconnect's sync), and would make the connection known by clients that are not its own.
   */
  private recordWriter(sender: Connection, clients: readonly number[]): void {
    if (clients.length !== 1) return;
    let known = this.writesAs.get(sender);
    if (!known) this.writesAs.set(sender, (known = new Set()));
    known.add(clients[0]!);
  }

  private enqueue(documentName: string, queue: Queue, updates: PendingUpdate[]): void {
    queue.pending.push(...updates);
    queue.enqueued += updates.length;
    queue.flushing ??= this.flush(documentName, queue);
  }

  /** `count` more of the queue's updates are done with; wakes the flushDocument callers that waited for them. */
  private settle(queue: Queue, count: number): void {
    queue.settled += count;
    const due = queue.settledWaiters.filter((waiter) => waiter.upTo <= queue.settled);
    if (!due.length) return;
    queue.settledWaiters = queue.settledWaiters.filter((waiter) => waiter.upTo > queue.settled);
    for (const waiter of due) waiter.resolve();
  }

  private async flush(documentName: string, queue: Queue): Promise<void> {
    let delay = this.retryDelayMs;
    try {
      while (queue.pending.length) {
        const batch = queue.pending.splice(0);
        let outcome: AppendOutcome;
        try {
          outcome = await this.store.append(
            documentName,
            batch.map((pending) => pending.update),
          );
        } catch (error) {
          queue.pending.unshift(...batch);
          this.log.error({ err: error, documentName, updates: batch.length }, 'storing document updates failed; retrying');
          await sleep(delay);
          delay = Math.min(delay * 2, this.maxRetryDelayMs);
          continue;
        }
        delay = this.retryDelayMs;
        this.settle(queue, batch.length);
        if (outcome === 'refused') {
          this.markStale(documentName);
          this.onRefused?.(documentName);
          break;
        }
        const clients = new Set<number>();
        let senders: Connection[] | 'everyone' = [];
        for (const { update, sender } of batch) {
          const inUpdate = [...queue.durableClocks.stored(update)];
          for (const client of inUpdate) clients.add(client);
          if (!sender) senders = 'everyone';
          else {
            this.recordWriter(sender, inUpdate);
            if (senders !== 'everyone' && !senders.includes(sender)) senders.push(sender);
          }
        }
        queue.sinceCompaction += batch.length;
        this.tell(documentName, clients, senders);
      }
    } finally {
      queue.flushing = null;
    }
    this.compaction.stored(documentName, queue.sinceCompaction);
    void this.unloadIfIdle(documentName);
  }

  /**
   * Hocuspocus unloads a document when its last client leaves, but skips it for good when its own store
   * of the document is running at that moment. Every update here is already stored (or being stored),
   * so a copy nobody uses is asked to unload again once that has settled: it must not stay in memory.
   */
  async onDisconnect({ documentName, clientsCount }: onDisconnectPayload): Promise<void> {
    if (clientsCount > 0) return;
    setTimeout(() => void this.unloadIfIdle(documentName), IDLE_UNLOAD_DELAY_MS).unref();
  }

  /**
   * The last client may have left while updates were unstored; the unload it asked for was vetoed.
   * That vetoed unload may still be settling when the flush ends (Hocuspocus then hands back the same
   * attempt), so the document is asked again once it has: otherwise it would stay loaded for good.
   */
  private async unloadIfIdle(documentName: string): Promise<void> {
    const document = this.documents.get(documentName);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      // Only this copy: once unloaded, a later load of the same name is another document.
      if (!document || this.documents.get(documentName) !== document || !this.instance) return;
      if (document.isLoading || document.getConnectionsCount() > 0 || this.hasUnstored(documentName)) return;
      try {
        await this.instance.unloadDocument(document);
      } catch (error) {
        this.log.warn({ err: error, documentName }, 'unloading a document failed');
        return;
      }
    }
  }

  private async compact(documentName: string, queue: Queue): Promise<void> {
    this.compaction.cancel(documentName);
    queue.sinceCompaction = 0;
    try {
      await this.store.compact(documentName);
    } catch (error) {
      this.log.warn({ err: error, documentName }, 'compaction failed; it will be tried again later');
    }
  }

  /**
   * The durable clocks of a document: of every client (for a connection that just joined), or of the
   * clients whose updates a flush just stored. Receivers merge messages (DurableClocks.receive), so a
   * flush tells only what it moved: with fifty editors in a note, each message names the few clients of
   * its batch instead of all fifty, and every connection of the note gets one per commit.
   */
  private durableMessage(documentName: string, clients?: ReadonlySet<number>): string {
    const clocks = this.queueOf(documentName).durableClocks.entries();
    const named = clients
      ? [...clients].flatMap((client) => (clocks.has(client) ? [[client, clocks.get(client)!] as const] : []))
      : [...clocks];
    const message: DurableMessage = { type: DURABLE_MESSAGE, clocks: Object.fromEntries(named) };
    return JSON.stringify(message);
  }

  /**
   * The document is locked and its copy here may hold refused updates (see Queue.stale): drops what
   * is pending, stores and confirms nothing more from it, and turns its connections read-only.
   */
  markStale(documentName: string): void {
    const queue = this.queues.get(documentName);
    if (!queue) return;
    queue.stale = true;
    this.settle(queue, queue.pending.splice(0).length);
    queue.relayed.clear();
    for (const connection of this.documents.get(documentName)?.getConnections() ?? [])
      if (!connection.readOnly) endWriting(connection, 'access');
  }

  /**
   * Stores an update the server made itself, in a transaction whose origin keeps onChange from queueing
   * it (`local`, skipStoreHooks): onChange runs after the other extensions' hooks, so a caller waiting
   * for the store could not tell when it is queued. Resolves once it is stored: true, or false when the
   * store refused it (the document is locked) or the copy here went stale before.
   */
  async storeOwnUpdate(documentName: string, update: Uint8Array): Promise<boolean> {
    const queue = this.queueOf(documentName);
    if (queue.stale) return false;
    this.enqueue(documentName, queue, [{ update, sender: null }]);
    await this.flushDocument(documentName);
    return !queue.stale;
  }

  /** Whether the document's copy in memory may hold refused updates: read it from the store instead. */
  isStale(documentName: string): boolean {
    return this.queues.get(documentName)?.stale ?? false;
  }

  /** Whether a document still has updates that are not stored. */
  hasUnstored(documentName: string): boolean {
    const queue = this.queues.get(documentName);
    return Boolean(queue && (queue.pending.length || queue.flushing || queue.relayed.size));
  }

  async beforeUnloadDocument({ documentName }: beforeUnloadDocumentPayload): Promise<void> {
    // Vetoing the unload keeps unstored edits in memory; the flush unloads the document when done.
    if (this.hasUnstored(documentName)) throw new Error(`${documentName} has unstored updates`);
  }

  async afterUnloadDocument({ documentName }: { documentName: string }): Promise<void> {
    const queue = this.queues.get(documentName);
    this.documents.delete(documentName);
    if (queue && !queue.pending.length && !queue.flushing && !queue.relayed.size) {
      this.queues.delete(documentName);
      if (queue.sinceCompaction > 0) await this.compact(documentName, queue);
    }
  }

  /** Waits until every document's updates that reached this process before the call are stored (see flushDocument). */
  async flushAll(): Promise<void> {
    await Promise.all([...this.queues.keys()].map((documentName) => this.flushDocument(documentName)));
  }

  /**
   * Waits until no document has an update left to store: on shutdown, once the connections are closed
   * (while editors type on, that moment might never come), before the database closes.
   */
  async drainAll(): Promise<void> {
    // Relayed updates not yet confirmed by their origin are stored now rather than after their delay.
    for (const [documentName, queue] of this.queues)
      if (queue.relayed.size) queue.relayed.expireAll(() => this.storeRelayed(documentName, queue));
    // Not waiting for relayed updates that arrive later: other processes' editors may type on for good.
    while ([...this.queues.values()].some((q) => q.pending.length > 0 || q.flushing !== null)) {
      await Promise.all([...this.queues.values()].flatMap((q) => (q.flushing ? [q.flushing] : [])));
      await sleep(1);
    }
  }

  /**
   * Waits until the document's updates that reached this process before the call are stored (or
   * refused, the document being locked). Not until its queue is empty: with someone typing on, and
   * commits slower than their keystrokes, that moment would never come, and a signature or a save
   * would wait for as long as the typing went on. Updates arriving later are stored as usual; a caller
   * that must exclude them locks the note (see DocumentKind.writable).
   */
  async flushDocument(documentName: string): Promise<void> {
    const queue = this.queues.get(documentName);
    if (!queue) return;
    // Relayed updates held now are stored now; those relayed later are not waited for (see drainAll).
    if (queue.relayed.size) queue.relayed.expireAll(() => this.storeRelayed(documentName, queue));
    const upTo = queue.enqueued;
    if (queue.settled >= upTo) return;
    await new Promise<void>((resolve) => queue.settledWaiters.push({ upTo, resolve }));
  }
}
