import type { Extension, Document, Hocuspocus, onChangePayload, onLoadDocumentPayload, beforeUnloadDocumentPayload, connectedPayload } from '@hocuspocus/server';
import { isTransactionOrigin } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import * as Y from 'yjs';
import { DURABLE_MESSAGE, type DurableMessage } from '@eln/shared';
import type { DocumentStore } from './documentStore.js';

interface Queue {
  pending: Uint8Array[];
  flushing: Promise<void> | null;
  /** Per Yjs client, the clock up to which its edits are stored. */
  durableClocks: Map<number, number>;
  sinceCompaction: number;
}

export interface DurablePersistenceOptions {
  /** Compact a document after this many appended updates. */
  compactEvery?: number;
  /** First and largest wait between attempts when the store fails. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
}

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

  constructor(
    private readonly store: DocumentStore,
    private readonly log: FastifyBaseLogger,
    options: DurablePersistenceOptions = {},
  ) {
    this.compactEvery = options.compactEvery ?? 200;
    this.retryDelayMs = options.retryDelayMs ?? 100;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 5000;
  }

  private queueOf(documentName: string): Queue {
    let queue = this.queues.get(documentName);
    if (!queue) {
      queue = { pending: [], flushing: null, durableClocks: new Map(), sinceCompaction: 0 };
      this.queues.set(documentName, queue);
    }
    return queue;
  }

  async onLoadDocument({ documentName, document, instance }: onLoadDocumentPayload): Promise<Uint8Array | undefined> {
    this.instance = instance;
    // A failed load throws: Hocuspocus then refuses the connection, and nothing is ever written back.
    const state = await this.store.load(documentName);
    const queue = this.queueOf(documentName);
    this.documents.set(documentName, document);
    if (!state) return undefined;
    for (const [client, clock] of Y.decodeStateVector(Y.encodeStateVectorFromUpdate(state))) queue.durableClocks.set(client, clock);
    return state;
  }

  async connected({ connection, documentName }: connectedPayload): Promise<void> {
    // A newcomer learns what is already durable, so edits it sent before a reconnect count as saved.
    connection.sendStateless(this.durableMessage(documentName));
  }

  async onChange({ documentName, document, update, transactionOrigin }: onChangePayload): Promise<void> {
    // Updates relayed from other processes through Redis are stored by the process that received them.
    if (isTransactionOrigin(transactionOrigin) && transactionOrigin.source === 'redis') return;
    if (isTransactionOrigin(transactionOrigin) && transactionOrigin.source === 'local' && transactionOrigin.skipStoreHooks) return;
    this.documents.set(documentName, document);
    const queue = this.queueOf(documentName);
    queue.pending.push(update);
    queue.flushing ??= this.flush(documentName, queue);
  }

  private async flush(documentName: string, queue: Queue): Promise<void> {
    let delay = this.retryDelayMs;
    try {
      while (queue.pending.length) {
        const batch = queue.pending.splice(0);
        try {
          await this.store.append(documentName, batch);
        } catch (error) {
          queue.pending.unshift(...batch);
          this.log.error({ err: error, documentName, updates: batch.length }, 'storing document updates failed; retrying');
          await sleep(delay);
          delay = Math.min(delay * 2, this.maxRetryDelayMs);
          continue;
        }
        delay = this.retryDelayMs;
        for (const update of batch) {
          for (const [client, clock] of Y.parseUpdateMeta(update).to) {
            if ((queue.durableClocks.get(client) ?? 0) < clock) queue.durableClocks.set(client, clock);
          }
        }
        queue.sinceCompaction += batch.length;
        this.documents.get(documentName)?.broadcastStateless(this.durableMessage(documentName));
      }
    } finally {
      queue.flushing = null;
    }
    if (queue.sinceCompaction >= this.compactEvery) void this.compact(documentName, queue);
    // The last client may have left while updates were unstored; the unload it asked for was vetoed.
    const document = this.documents.get(documentName);
    if (document && this.instance && document.getConnectionsCount() === 0) void this.instance.unloadDocument(document);
  }

  private async compact(documentName: string, queue: Queue): Promise<void> {
    queue.sinceCompaction = 0;
    try {
      await this.store.compact(documentName);
    } catch (error) {
      this.log.warn({ err: error, documentName }, 'compaction failed; it will be tried again later');
    }
  }

  private durableMessage(documentName: string): string {
    const message: DurableMessage = { type: DURABLE_MESSAGE, clocks: Object.fromEntries(this.queueOf(documentName).durableClocks) };
    return JSON.stringify(message);
  }

  /** Whether a document still has updates that are not stored. */
  hasUnstored(documentName: string): boolean {
    const queue = this.queues.get(documentName);
    return Boolean(queue && (queue.pending.length || queue.flushing));
  }

  async beforeUnloadDocument({ documentName }: beforeUnloadDocumentPayload): Promise<void> {
    // Vetoing the unload keeps unstored edits in memory; the flush unloads the document when done.
    if (this.hasUnstored(documentName)) throw new Error(`${documentName} has unstored updates`);
  }

  async afterUnloadDocument({ documentName }: { documentName: string }): Promise<void> {
    const queue = this.queues.get(documentName);
    this.documents.delete(documentName);
    if (queue && !queue.pending.length && !queue.flushing) {
      this.queues.delete(documentName);
      if (queue.sinceCompaction > 0) await this.compact(documentName, queue);
    }
  }

  /** Waits until every document's updates are stored: on shutdown, before the database closes. */
  async flushAll(): Promise<void> {
    while ([...this.queues.values()].some((q) => q.pending.length || q.flushing)) {
      await Promise.all([...this.queues.values()].map((q) => q.flushing));
      await sleep(1);
    }
  }

  /** Waits until one document's updates are stored. */
  async flushDocument(documentName: string): Promise<void> {
    const queue = this.queues.get(documentName);
    while (queue && (queue.pending.length || queue.flushing)) {
      await queue.flushing;
      await sleep(1);
    }
  }
}
