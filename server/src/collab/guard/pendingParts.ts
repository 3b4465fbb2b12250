import * as Y from 'yjs';
import { isTransactionOrigin, OutgoingMessage, type Connection, type Document } from '@hocuspocus/server';

const watched = new WeakSet<Y.Doc>();

/** Drops the structs and deletes Yjs keeps pending in a document (their predecessors missing). */
export function dropPending(doc: Y.Doc): void {
  doc.store.pendingStructs = null;
  doc.store.pendingDs = null;
}

/** Whether Yjs keeps structs or deletes of a document pending. */
export const holdsPending = (doc: Y.Doc) => doc.store.pendingStructs !== null || doc.store.pendingDs !== null;

/**
 * Keeps nothing pending in a live document. Yjs keeps the parts of an update whose predecessors it
 * lacks and places them when a later update fills the gap, in that update's transaction: an update that
 * another process judged (pending parts travel in no update event) or that was judged before them. A
 * writer could so park a table row that a later, innocent update places where no rule allows it. Pending
 * parts are never stored either (only update events are), so after every transaction they are dropped,
 * and the connection whose update left them is sent a sync step 1: an honest client (whose update
 * overtook earlier ones, e.g. typed while offline) answers with everything the document lacks, the
 * dropped parts included, in one update that the guard judges and that applies at once.
 */
export function keepNothingPending(document: Document): void {
  if (watched.has(document)) return;
  watched.add(document);
  dropPending(document);
  document.on('afterTransaction', (transaction: Y.Transaction) => {
    if (!holdsPending(document)) return;
    dropPending(document);
    const origin: unknown = transaction.origin;
    if (isTransactionOrigin(origin) && origin.source === 'connection') askForState(origin.connection, document);
  });
}

function askForState(connection: Connection, document: Document): void {
  connection.send(new OutgoingMessage(connection.messageAddress).createSyncMessage().writeFirstSyncStepFor(document).toUint8Array());
}
