/**
 * commands/: how the API acts on live documents, on every server process.
 *
 * LiveDocuments (this file) is the API's handle on live documents: their current content, and the live
 * commands (liveControl.ts) that end writing, close a document, check users' connections again or mark
 * a copy stale. A change queues its commands inside its own transaction; with several processes they
 * travel through a log in the database, Redis only ringing the bell (commandLog.ts), so that they arrive
 * if and only if the change commits, and every live process confirms them before the change answers.
 */
import type { Connection, Hocuspocus, LocalTransactionOrigin } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import * as Y from 'yjs';
import { COLLAB_REFUSALS, CONTENT_FIELD, ERR, type PmNode } from '@eln/shared';
import { AppError } from '../../http/errors.js';
import type { Db, Tx } from '../../db/client.js';
import type { CollabAuthorization } from '../connections/authorization.js';
import { contentSnapshot, snapshotOfState, type ContentSnapshot } from '../documents/contentSnapshots.js';
import { endWriting } from '../connections/endWriting.js';
import type { CollabContext } from '../connections/context.js';
import type { DocumentStore } from '../persistence/documentStore.js';
import type { DurablePersistence } from '../persistence/durablePersistence.js';
import { singleProcessChannel, type LiveCommand, type LiveControlChannel } from './liveControl.js';

/** Live commands a change queues inside its transaction; they take effect once it commits. */
export interface QueuedLiveCommands {
  /**
   * Turns write connections read-only, everyone's or one user's (userNo): their pending edits are
   * stored, then the server refuses anything more from them and tells their clients, which disable
   * editing.
   */
  endWriting(documentName: string, userNo: number | null, reason: string): void;
  /**
   * Checks every open connection of these users again, as the periodic session check would: a
   * connection whose session ended or whose user may no longer open its document is closed, one that
   * may only read now turns read-only.
   */
  recheckUsers(userNos: number[]): void;
  /** Ends every connection to a document (deleted note). */
  close(documentName: string): void;
  /**
   * Sends every connection of the document, on every process, a stateless message: what its readers see
   * beside the content changed (its comments). Each process sends it to its own connections only, not
   * through the live-document relay, so that nobody hears it twice.
   */
  tell(documentName: string, message: string): void;
}

/** When the store is read a second time after a Redis reconnect. */
const CATCH_UP_AGAIN_MS = 2000;

/**
 * What the API needs of live documents: their current content (from memory when open, else from the
 * store), and control over who may still write to them, on every server process.
 */
export class LiveDocuments {
  /** Direct connections of replaceContent still letting go of their documents (see there). */
  private readonly closing = new Set<Promise<void>>();
  /** Who else checks users again when their sessions, users or memberships change (the notification streams). */
  private readonly recheckListeners: Array<(userNos: number[]) => void> = [];

  constructor(
    readonly hocuspocus: Hocuspocus<CollabContext>,
    readonly persistence: DurablePersistence,
    private readonly store: DocumentStore,
    private readonly authorization: CollabAuthorization,
    private readonly log: FastifyBaseLogger,
    private readonly channel: LiveControlChannel = singleProcessChannel,
  ) {
    // A copy refused here was shared through Redis with the other processes' copies: they go stale too.
    persistence.onRefused = (documentName) => void this.channel.publish({ kind: 'stale', documentName });
  }

  /** Also tells `listener` of every `recheck-users` command this process applies, its own and other processes'. */
  onRecheckUsers(listener: (userNos: number[]) => void): void {
    this.recheckListeners.push(listener);
  }

  /** Starts applying the commands other server processes send. */
  async start(): Promise<void> {
    await this.channel.start((command) => this.apply(command));
  }

  /**
   * The document's state as one Yjs update: what is in memory when it is open (and not stale: holding
   * updates the store refused), else what is stored.
   */
  async state(documentName: string): Promise<Uint8Array> {
    const open = this.trustedCopy(documentName);
    if (open) return Y.encodeStateAsUpdate(open);
    return (await this.store.load(documentName)) ?? Y.encodeStateAsUpdate(new Y.Doc());
  }

  /**
   * The document itself while it is open here (and trusted), to read and never to change; else its
   * stored state.
   */
  async document(documentName: string): Promise<Y.Doc | Uint8Array> {
    return this.trustedCopy(documentName) ?? (await this.state(documentName));
  }

  /** The document's content now, as its blocks: kept per unchanged block while the document is open. */
  async snapshot(documentName: string): Promise<ContentSnapshot> {
    const open = this.trustedCopy(documentName);
    if (open) return contentSnapshot(open);
    return snapshotOfState(await this.state(documentName));
  }

  /**
   * Makes another state's content (a saved version's) the document's content, in one Yjs transaction
   * of the server's own, and answers the document's state right after, once that change is stored. The
   * document is opened here through a direct connection: every editor connected to this process sees
   * the change at once; with several processes, Hocuspocus's Redis extension first brings this copy up
   * to date with the others' and then relays the change to their editors, as it does an editor's. The
   * server's Yjs client is no user's, so the blocks it writes name no author. 9006 when the copy here
   * holds updates the store refused, or the store refuses this one (the document was locked meanwhile).
   */
  async replaceContent(documentName: string, source: Uint8Array): Promise<Uint8Array> {
    return this.changeContent(documentName, source, 'replace');
  }

  /**
   * Appends the blocks of another state's content (blocks a script sent) at the end of the document, as
   * replaceContent changes it: one Yjs transaction of the server's own through a direct connection, stored
   * before this answers. `fits` sees the document's state size before and the blocks' size, and refuses
   * (throws) before anything changes.
   */
  async appendContent(documentName: string, source: Uint8Array, fits?: (stateBytes: number) => void): Promise<Uint8Array> {
    return this.changeContent(documentName, source, 'append', fits);
  }

  private async changeContent(
    documentName: string,
    source: Uint8Array,
    how: 'replace' | 'append',
    fits?: (stateBytes: number) => void,
  ): Promise<Uint8Array> {
    if (this.persistence.isStale(documentName)) throw new AppError(ERR.conflict);
    const blocks = contentBlocksOf(source);
    const connection = await this.hocuspocus.openDirectConnection(documentName);
    try {
      const document = connection.document;
      if (!document) throw new Error(`${documentName}: the direct connection has no document`);
      fits?.(Y.encodeStateAsUpdate(document).byteLength);
      const before = Y.encodeStateVector(document);
      // Stored below rather than by the persistence's onChange, so that this waits for exactly this change.
      const origin: LocalTransactionOrigin = { source: 'local', skipStoreHooks: true };
      document.transact(() => {
        const content = document.getXmlFragment(CONTENT_FIELD);
        if (how === 'replace') content.delete(0, content.length);
        content.insert(how === 'replace' ? 0 : content.length, blocks);
      }, origin);
      const state = Y.encodeStateAsUpdate(document);
      if (!(await this.persistence.storeOwnUpdate(documentName, Y.encodeStateAsUpdate(document, before)))) throw new AppError(ERR.conflict);
      return state;
    } finally {
      // Not waited for: with several processes, Hocuspocus's Redis extension keeps the document a second
      // longer, so that the others' copies have the change before this one unloads; it is stored already.
      const closed = connection
        .disconnect()
        .catch((error: unknown) => this.log.warn({ err: error, documentName }, 'closing a direct connection failed'))
        .finally(() => this.closing.delete(closed));
      this.closing.add(closed);
    }
  }

  private trustedCopy(documentName: string): Y.Doc | undefined {
    return this.persistence.isStale(documentName) ? undefined : this.hocuspocus.documents.get(documentName);
  }

  connections(documentName: string): Connection<CollabContext>[] {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- Hocuspocus types its documents' connections without their context (`any`); every connection of this Hocuspocus<CollabContext> carries one
    return [...(this.hocuspocus.documents.get(documentName)?.getConnections() ?? [])];
  }

  /**
   * Runs a change in one transaction with the live commands that follow from it (a lock, a deletion, a
   * sign-out, cleared holds…): they are logged in that transaction, so they reach every process if and
   * only if the change commits, even if this process dies just after. Here they are applied after the
   * commit, and the change answers only once every other live process has confirmed them too (or can
   * no longer apply an edit without reading them first; see LiveControlChannel.confirm): no connection
   * they end writes anything after the answer.
   */
  async transaction<T>(db: Db, change: (tx: Tx, live: QueuedLiveCommands) => Promise<T>): Promise<T> {
    let queued: LiveCommand[] = [];
    const result = await db.transaction(async (tx) => {
      queued = [];
      const answer = await change(tx, {
        endWriting: (documentName, userNo, reason) => queued.push({ kind: 'end-writing', documentName, userNo, reason }),
        recheckUsers: (userNos) => userNos.length > 0 && queued.push({ kind: 'recheck-users', userNos }),
        close: (documentName) => queued.push({ kind: 'close', documentName }),
        tell: (documentName, message) => queued.push({ kind: 'tell', documentName, message }),
      });
      for (const command of queued) await this.channel.record(tx, command);
      return answer;
    });
    if (!queued.length) return result;
    const confirmed = this.channel.confirm();
    try {
      for (const command of queued) await this.apply(command);
    } finally {
      await confirmed;
    }
    return result;
  }

  /**
   * Applies what is stored to every open document here: after this process was cut off from Redis,
   * edits other processes relayed meanwhile (and stored) are missing until someone types. Read again a
   * little later too, as the live-document relay resubscribes on its own connection.
   */
  catchUpFromStore(): void {
    const readAll = () => {
      for (const [documentName, document] of this.hocuspocus.documents) {
        if (this.persistence.isStale(documentName)) continue;
        void this.store
          .load(documentName)
          .then((state) => state && Y.applyUpdate(document, state, { source: 'local', skipStoreHooks: true }))
          .catch(() => undefined);
      }
    };
    readAll();
    setTimeout(readAll, CATCH_UP_AGAIN_MS).unref();
  }

  async stop(): Promise<void> {
    await Promise.all(this.closing);
    await this.channel.close();
  }

  /**
   * Applies a command to this process's connections. What ends their writing is done before the first
   * await: a read of the command log begins each command it finds and then counts as applied (the
   * process confirms, and its lease starts again), though a note's pending edits may still be being
   * stored.
   */
  private async apply(command: LiveCommand): Promise<void> {
    if (command.kind === 'recheck-users') {
      for (const listener of this.recheckListeners) listener(command.userNos);
      await this.recheckConnectionsOf(command.userNos);
      return;
    }
    if (command.kind === 'stale') {
      this.persistence.markStale(command.documentName);
      return;
    }
    if (command.kind === 'tell') {
      for (const connection of this.connections(command.documentName)) connection.sendStateless(command.message);
      return;
    }
    if (command.kind === 'close') {
      // The reason tells open editors the note is gone (rather than a reset to reconnect from).
      for (const connection of this.connections(command.documentName)) {
        // Read-only first: messages it already queued are still handled after the close.
        connection.readOnly = true;
        connection.close({ code: 4404, reason: COLLAB_REFUSALS.document });
      }
      return;
    }
    const { documentName, userNo, reason } = command;
    const ending = this.connections(documentName).filter(
      (connection) => !connection.readOnly && (userNo === null || connection.context.user?.userNo === userNo),
    );
    // Nothing more is taken from them from now on; what they sent before is stored, and then their
    // clients are told (so the last "saved" they see comes before the notice).
    for (const connection of ending) connection.readOnly = true;
    await this.persistence.flushDocument(documentName);
    for (const connection of ending) endWriting(connection, reason);
  }

  private async recheckConnectionsOf(userNos: number[]): Promise<void> {
    this.authorization.beginRecheck(userNos);
    const connections = [...this.hocuspocus.documents.values()]
      .flatMap((document): Connection<CollabContext>[] => document.getConnections())
      .filter((connection) => connection.context.user && userNos.includes(connection.context.user.userNo));
    await Promise.all(connections.map((connection) => this.authorization.recheck(connection)));
  }
}

/** Copies of the top-level blocks of a document state's content, to insert into another document. */
function contentBlocksOf(state: Uint8Array): Array<Y.XmlElement | Y.XmlText> {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  return doc
    .getXmlFragment(CONTENT_FIELD)
    .toArray()
    .flatMap((node) => (node instanceof Y.XmlElement || node instanceof Y.XmlText ? [node.clone()] : []));
}

/** The content of a document state (one Yjs update) as ProseMirror JSON, read as the content guard reads it. */
export function contentOfState(state: Uint8Array): PmNode {
  return snapshotOfState(state).json();
}
