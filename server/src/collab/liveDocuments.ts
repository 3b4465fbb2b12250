import type { Connection, Hocuspocus } from '@hocuspocus/server';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import type { PmNode } from '@eln/shared';
import type { CollabContext } from './collab.js';
import type { DocumentStore } from './documentStore.js';
import type { DurablePersistence } from './durablePersistence.js';

/** The editor's content lives in this XML fragment of the Y.Doc (Tiptap's default). */
export const CONTENT_FIELD = 'default';

/** A stateless message telling a client its write access has ended (hold cleared, note locked). */
export const HOLD_ENDED_MESSAGE = 'hold-ended';

/**
 * What the API needs of live documents: their current content (from memory when open, else from the
 * store), and control over who may still write to them.
 */
export class LiveDocuments {
  constructor(
    readonly hocuspocus: Hocuspocus<CollabContext>,
    readonly persistence: DurablePersistence,
    private readonly store: DocumentStore,
  ) {}

  /** The document's state as one Yjs update: what is in memory when it is open, else what is stored. */
  async state(documentName: string): Promise<Uint8Array> {
    const open = this.hocuspocus.documents.get(documentName);
    if (open) return Y.encodeStateAsUpdate(open);
    return (await this.store.load(documentName)) ?? Y.encodeStateAsUpdate(new Y.Doc());
  }

  /** The document's content as ProseMirror JSON. */
  async content(documentName: string): Promise<PmNode> {
    const open = this.hocuspocus.documents.get(documentName);
    if (open) return yXmlFragmentToProsemirrorJSON(open.getXmlFragment(CONTENT_FIELD)) as PmNode;
    return contentOfState(await this.state(documentName));
  }

  connections(documentName: string): Connection<CollabContext>[] {
    return [...(this.hocuspocus.documents.get(documentName)?.getConnections() ?? [])];
  }

  /**
   * Turns matching write connections read-only: their pending edits are stored first, then the server
   * refuses anything more from them and tells their clients, which disable editing.
   */
  async endWriting(documentName: string, which: (connection: Connection<CollabContext>) => boolean, reason: string): Promise<number> {
    await this.persistence.flushDocument(documentName);
    let ended = 0;
    for (const connection of this.connections(documentName)) {
      if (connection.readOnly || !which(connection)) continue;
      connection.readOnly = true;
      connection.sendStateless(JSON.stringify({ type: HOLD_ENDED_MESSAGE, reason }));
      ended += 1;
    }
    return ended;
  }

  /** Ends every connection to a document (deleted note). */
  close(documentName: string): void {
    this.hocuspocus.closeConnections(documentName);
  }
}

/** The content of a document state (one Yjs update) as ProseMirror JSON. */
export function contentOfState(state: Uint8Array): PmNode {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  return yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(CONTENT_FIELD)) as PmNode;
}
