import * as Y from 'yjs';
import { IncomingMessage, MessageType, type Document, type Extension, type beforeHandleMessagePayload } from '@hocuspocus/server';
import { COLLAB_LIMITS, DOCUMENT_TOO_LARGE } from '@eln/shared';
import { endWriting } from '../connections/endWriting.js';

/** The Hocuspocus message types that carry a y-protocols sync message. */
const SYNC_MESSAGES: ReadonlySet<number> = new Set([MessageType.Sync, MessageType.SyncReply]);
/** y-protocols sync message types that carry an update to apply (step 1 only asks). */
const SYNC_STEP_2 = 1;
const SYNC_UPDATE = 2;
/** Room beyond twice an update's size that the part of it a document lacks could take (see fits). */
const DIFF_SLACK_BYTES = 1024;

/** The Yjs update a websocket message would apply to its document, or null for any other message. */
export function updateCarriedBy(message: Uint8Array): Uint8Array | null {
  try {
    const incoming = new IncomingMessage(message);
    incoming.readVarString(); // the document's address
    if (!SYNC_MESSAGES.has(incoming.readVarUint())) return null;
    const syncType = incoming.readVarUint();
    if (syncType !== SYNC_STEP_2 && syncType !== SYNC_UPDATE) return null;
    return incoming.readVarUint8Array();
  } catch {
    return null; // Hocuspocus refuses what it cannot read
  }
}

/**
 * Refuses updates that would grow a live document past `maxBytes` of encoded Yjs state. The check runs
 * before Hocuspocus applies a message: a refused update is never applied (so never stored), and its
 * connection turns read-only with a hold-ended message whose reason says why, as a lock does. Updates
 * that only delete are always let through, so a full document can still be trimmed.
 *
 * Measuring a document exactly means encoding it, so each document keeps an estimate (its encoded size
 * when measured, plus every update it applied since, from any origin) and is measured again only when
 * the estimate says the limit is near.
 */
export class DocumentSizeLimit implements Extension {
  /** Before other extensions' message hooks, so that none of them sees a refused update as accepted. */
  readonly priority = 200;
  private readonly estimates = new WeakMap<Document, number>();

  constructor(readonly maxBytes: number = COLLAB_LIMITS.documentBytes) {}

  async beforeHandleMessage({ connection, document, update: message }: beforeHandleMessagePayload): Promise<void> {
    if (connection.readOnly) return;
    const update = updateCarriedBy(message);
    if (!update || this.fits(document, update)) return;
    endWriting(connection, DOCUMENT_TOO_LARGE, { limitBytes: this.maxBytes });
  }

  private fits(document: Document, update: Uint8Array): boolean {
    // Far from the limit, the update fits whatever part of it is new: that part is never more than the
    // update itself plus a slice header per client (bounded here generously). This skips the diff
    // below, which costs a state vector and a re-encoding on every keystroke.
    if (this.estimate(document) + 2 * update.byteLength + DIFF_SLACK_BYTES <= this.maxBytes) return true;
    // Only what the document does not have yet adds to it (a reconnecting client re-sends what it has).
    const added = Y.diffUpdate(update, Y.encodeStateVector(document));
    if (this.estimate(document) + added.byteLength <= this.maxBytes) return true;
    if (Y.decodeUpdate(added).structs.length === 0) return true;
    const exact = Y.encodeStateAsUpdate(document).byteLength;
    this.estimates.set(document, exact);
    return exact + added.byteLength <= this.maxBytes;
  }

  private estimate(document: Document): number {
    const known = this.estimates.get(document);
    if (known !== undefined) return known;
    const exact = Y.encodeStateAsUpdate(document).byteLength;
    this.estimates.set(document, exact);
    document.on('update', (applied: Uint8Array) => this.estimates.set(document, (this.estimates.get(document) ?? 0) + applied.byteLength));
    return exact;
  }
}
