import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { COLLAB_PATH, CONTENT_FIELD, DurableTracker, MENTION_NODE, newBlockUid, type DurableMessage } from '@eln/shared';

/** A real provider in Node, as a browser tab would hold one, with what tests need to watch it. */
export interface LiveClient {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  /** The latest durable confirmation received. */
  durable: () => DurableMessage | null;
  /** Every stateless message received, parsed. */
  stateless: () => unknown[];
  /** Whether everything this client has written so far is confirmed stored. */
  allDurable: () => boolean;
  /** The reasons with which the server closed this client's document connection, in order. */
  closeReasons: () => string[];
  destroy: () => void;
}

export type ConnectOutcome = { kind: 'synced'; client: LiveClient } | { kind: 'refused'; reason: string };

/** `doc`: an editor's document reconnecting (to another process), with everything it already holds. */
export async function connectLive(
  baseUrl: string,
  name: string,
  token: string,
  timeoutMs = 10_000,
  doc: Y.Doc = new Y.Doc(),
): Promise<ConnectOutcome> {
  const socket = new HocuspocusProviderWebsocket({ url: `${baseUrl.replace(/^http/, 'ws')}${COLLAB_PATH}`, WebSocketPolyfill: WebSocket });
  const durable = new DurableTracker(doc);
  let seenDurable = false;
  const received: unknown[] = [];
  const closes: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer for ${name}`)), timeoutMs);
    const provider = new HocuspocusProvider({
      websocketProvider: socket,
      name,
      document: doc,
      token,
      onStateless: ({ payload }) => {
        if (durable.receive(payload)) seenDurable = true;
        try {
          received.push(JSON.parse(payload));
        } catch {
          received.push(payload);
        }
      },
      onClose: ({ event }) => {
        closes.push(event.reason);
      },
      onSynced: () => {
        clearTimeout(timer);
        resolve({
          kind: 'synced',
          client: {
            doc,
            provider,
            durable: () => (seenDurable ? durable.asMessage() : null),
            stateless: () => received,
            allDurable: () => durable.isDurable(),
            closeReasons: () => closes,
            destroy: () => {
              durable.destroy();
              provider.destroy();
              socket.destroy();
            },
          },
        });
      },
      onAuthenticationFailed: ({ reason }) => {
        clearTimeout(timer);
        provider.destroy();
        socket.destroy();
        resolve({ kind: 'refused', reason });
      },
    });
    provider.attach();
  });
}

export async function connectWriter(baseUrl: string, name: string, token: string, doc?: Y.Doc): Promise<LiveClient> {
  const outcome = await connectLive(baseUrl, name, token, 10_000, doc);
  if (outcome.kind !== 'synced') throw new Error(`${name} refused: ${outcome.reason}`);
  return outcome.client;
}

/** Appends a paragraph to the editor's content, as Tiptap would store it. */
export function appendParagraph(doc: Y.Doc, text: string, blockUid: string = newBlockUid()): string {
  const paragraph = new Y.XmlElement('paragraph');
  paragraph.setAttribute('blockUid', blockUid);
  paragraph.insert(0, [new Y.XmlText(text)]);
  const fragment = doc.getXmlFragment(CONTENT_FIELD);
  fragment.insert(fragment.length, [paragraph]);
  return blockUid;
}

/** Appends a file block showing an uploaded file, as the editor inserts one. */
export function appendFileBlock(
  doc: Y.Doc,
  file: { fileId: string; name: string; size: number; extension: string },
  blockUid: string = newBlockUid(),
): string {
  const block = new Y.XmlElement('fileAttachment');
  block.setAttribute('blockUid', blockUid);
  // The editor keeps a file's size as a number; the element's typing knows text attributes only.
  for (const [name, value] of Object.entries(file)) block.setAttribute(name, value as string);
  const fragment = doc.getXmlFragment(CONTENT_FIELD);
  fragment.insert(fragment.length, [block]);
  return blockUid;
}

/** The place of the top-level block of this uid. */
function blockIndex(doc: Y.Doc, blockUid: string): number {
  const index = doc
    .getXmlFragment(CONTENT_FIELD)
    .toArray()
    .findIndex((node) => node instanceof Y.XmlElement && node.getAttribute('blockUid') === blockUid);
  if (index < 0) throw new Error(`no block ${blockUid}`);
  return index;
}

/** The top-level block of this uid. */
export function blockElement(doc: Y.Doc, blockUid: string): Y.XmlElement {
  return doc.getXmlFragment(CONTENT_FIELD).get(blockIndex(doc, blockUid)) as Y.XmlElement;
}

/** Removes the top-level block of this uid. */
export function removeBlock(doc: Y.Doc, blockUid: string): void {
  doc.getXmlFragment(CONTENT_FIELD).delete(blockIndex(doc, blockUid), 1);
}

/** Replaces a paragraph's text (or, with `paragraph`, that of a paragraph inside the block, such as a table cell's). */
export function setParagraphText(doc: Y.Doc, blockUid: string, text: string, paragraph: Y.XmlElement = blockElement(doc, blockUid)): void {
  doc.transact(() => {
    paragraph.delete(0, paragraph.length);
    paragraph.insert(0, [new Y.XmlText(text)]);
  });
}

/**
 * Types a mention of a person at the end of a paragraph (the top-level block of this uid, or `paragraph`,
 * say a table cell's), as the editor inserts one from its `@` suggestions: the inline `mention` node with
 * the person's ID and name, then a space.
 */
export function appendMention(
  doc: Y.Doc,
  blockUid: string,
  person: { userId: string; label: string },
  paragraph: Y.XmlElement = blockElement(doc, blockUid),
): void {
  const mention = new Y.XmlElement(MENTION_NODE);
  mention.setAttribute('userId', person.userId);
  mention.setAttribute('label', person.label);
  doc.transact(() => paragraph.insert(paragraph.length, [mention, new Y.XmlText(' ')]));
}

/** Deletes the mentions of this person from a paragraph, as backspacing over them does. */
export function removeMentions(doc: Y.Doc, userId: string, paragraph: Y.XmlElement): void {
  doc.transact(() => {
    for (let index = paragraph.length - 1; index >= 0; index -= 1) {
      const node = paragraph.get(index);
      if (node instanceof Y.XmlElement && node.nodeName === MENTION_NODE && node.getAttribute('userId') === userId)
        paragraph.delete(index, 1);
    }
  });
}

/** Moves a block as the editor does: the same node, with its ID, deleted and inserted at place `to`. */
export function moveBlock(doc: Y.Doc, blockUid: string, to: number): void {
  const fragment = doc.getXmlFragment(CONTENT_FIELD);
  const from = blockIndex(doc, blockUid);
  const copy = (fragment.get(from) as Y.XmlElement).clone();
  doc.transact(() => {
    fragment.delete(from, 1);
    fragment.insert(to, [copy]);
  });
}

/** Appends a table of rows x columns cells (text "r,c"). */
export function appendTable(doc: Y.Doc, rows: number, columns: number, blockUid: string = newBlockUid()): string {
  const table = new Y.XmlElement('table');
  table.setAttribute('blockUid', blockUid);
  for (let r = 0; r < rows; r += 1) {
    const row = new Y.XmlElement('tableRow');
    for (let c = 0; c < columns; c += 1) {
      const cell = new Y.XmlElement('tableCell');
      const paragraph = new Y.XmlElement('paragraph');
      paragraph.insert(0, [new Y.XmlText(`${r},${c}`)]);
      cell.insert(0, [paragraph]);
      row.insert(c, [cell]);
    }
    table.insert(r, [row]);
  }
  const fragment = doc.getXmlFragment(CONTENT_FIELD);
  fragment.insert(fragment.length, [table]);
  return blockUid;
}

export function paragraphTexts(doc: Y.Doc): string[] {
  return doc
    .getXmlFragment(CONTENT_FIELD)
    .toArray()
    .filter((node): node is Y.XmlElement => node instanceof Y.XmlElement && node.nodeName === 'paragraph')
    .map((p) =>
      p
        .toArray()
        .map((t) => (t instanceof Y.XmlText ? plainText(t) : ''))
        .join(''),
    );
}

/** A text's characters without its marks (XmlText.toString would wrap marked runs in tags). */
export function plainText(text: Y.XmlText): string {
  return (text.toDelta() as Array<{ insert?: unknown }>).map((op) => (typeof op.insert === 'string' ? op.insert : '')).join('');
}

/** Polls until the check passes; fails with what it was waiting for. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

let markers = 0;
/**
 * Waits until everything `client` sent so far has been handled by the server: the server handles one
 * connection's messages in order, so once an awareness change sent now reaches `observer`, every
 * earlier message from `client` (edits included, refused or not) has been dealt with.
 */
export async function roundTrip(client: LiveClient, observer: LiveClient): Promise<void> {
  markers += 1;
  const marker = `m${markers}`;
  client.provider.setAwarenessField('marker', marker);
  await eventually(
    () => [...(observer.provider.awareness?.getStates().values() ?? [])].some((state) => state.marker === marker),
    `marker ${marker} to reach the observer`,
  );
}

/** A shared map beside a note's content: edits there change no block, so a signature's check passes. */
export const SIDE_MAP = 'margin';

export interface Typing {
  stop(): Promise<void>;
  /** Every tag typed so far, in order. */
  typed(): string[];
  /** The tags whose edits the server confirmed stored. */
  confirmed(): string[];
}

/**
 * Types tagged edits every few milliseconds until stopped: paragraphs, or entries of the side map
 * (which leave the blocks as saved, so a signature goes through while they keep coming).
 */
export function startTyping(client: LiveClient, prefix: string, into: 'paragraphs' | 'side map'): Typing {
  const edits: Array<{ tag: string; clock: number }> = [];
  let typing = true;
  const done = (async () => {
    for (let seq = 0; typing; seq += 1) {
      const tag = `${prefix}-${seq}`;
      if (into === 'paragraphs') appendParagraph(client.doc, tag);
      else client.doc.getMap(SIDE_MAP).set(tag, seq);
      edits.push({ tag, clock: Y.getState(client.doc.store, client.doc.clientID) });
      await new Promise((resolve) => setTimeout(resolve, 1 + Math.floor(Math.random() * 4)));
    }
  })();
  return {
    async stop() {
      typing = false;
      await done;
    },
    typed: () => edits.map((edit) => edit.tag),
    confirmed: () => {
      const durable = client.durable()?.clocks[String(client.doc.clientID)] ?? 0;
      return edits.filter((edit) => edit.clock <= durable).map((edit) => edit.tag);
    },
  };
}

/** The tags of a document state's paragraphs and side-map entries. */
export function tagsOfState(state: Uint8Array | null): Set<string> {
  const doc = new Y.Doc();
  if (state) Y.applyUpdate(doc, state);
  return new Set([...paragraphTexts(doc), ...doc.getMap(SIDE_MAP).keys()]);
}
