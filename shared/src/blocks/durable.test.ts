import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { DELETION_MARKS_FIELD, DurableClocks, DurableTracker } from './durable.js';
import { DURABLE_MESSAGE } from '../collab/protocol.js';

/**
 * A server as the real one confirms: it appends a client's updates in the order they arrive and, for
 * what it stored, confirms per Yjs client the highest clock the stored updates reach.
 */
class StoringServer {
  readonly stored: Uint8Array[] = [];
  private readonly clocks = new Map<number, number>();

  store(update: Uint8Array): void {
    this.stored.push(update);
    for (const [client, clock] of Y.parseUpdateMeta(update).to) this.clocks.set(client, Math.max(this.clocks.get(client) ?? 0, clock));
  }

  message(): string {
    return JSON.stringify({ type: DURABLE_MESSAGE, clocks: Object.fromEntries(this.clocks) });
  }

  /** What a load after a crash would give. */
  reload(): Y.Doc {
    const doc = new Y.Doc();
    if (this.stored.length) Y.applyUpdate(doc, Y.mergeUpdates(this.stored));
    return doc;
  }
}

/** A client document whose outgoing updates queue up until the test lets the server store them. */
function client() {
  const doc = new Y.Doc();
  const tracker = new DurableTracker(doc);
  const outgoing: Uint8Array[] = [];
  doc.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin !== 'remote') outgoing.push(update);
  });
  return { doc, tracker, outgoing };
}

const text = (doc: Y.Doc) => doc.getText('t');
const bold = (doc: Y.Doc) =>
  text(doc)
    .toDelta()
    .filter((d: { attributes?: { bold?: unknown } }) => d.attributes?.bold)
    .map((d: { insert: string }) => d.insert)
    .join('');

describe('DurableTracker', () => {
  it('counts a change that only deletes as saved only once the update holding it is stored', () => {
    const { doc, tracker, outgoing } = client();
    const server = new StoringServer();
    text(doc).insert(0, 'hello world');
    for (const update of outgoing.splice(0)) server.store(update);
    tracker.receive(server.message());
    expect(tracker.isDurable()).toBe(true);

    text(doc).delete(5, 6);
    // The deletion is not stored yet: not saved, although it inserted nothing.
    tracker.receive(server.message());
    expect(tracker.isDurable()).toBe(false);
    expect(outgoing).toHaveLength(2);
    for (const update of outgoing.splice(0)) server.store(update);
    tracker.receive(server.message());
    expect(tracker.isDurable()).toBe(true);
    expect(text(server.reload()).toString()).toBe('hello');
  });

  it('does the same for a mark or an attribute taken off, and lets additions advance the clock themselves', () => {
    const { doc, tracker, outgoing } = client();
    const server = new StoringServer();
    text(doc).insert(0, 'formatted');
    const paragraph = new Y.XmlElement('paragraph');
    doc.getXmlFragment('x').insert(0, [paragraph]);
    for (const update of outgoing.splice(0)) server.store(update);
    tracker.receive(server.message());

    const changes: Array<[string, () => void]> = [
      ['bold on', () => text(doc).format(0, 4, { bold: true })],
      ['attribute set', () => paragraph.setAttribute('textAlign', 'center')],
      ['bold off', () => text(doc).format(0, 4, { bold: null })],
      ['attribute removed', () => paragraph.removeAttribute('textAlign')],
    ];
    for (const [label, change] of changes) {
      change();
      expect(tracker.isDurable(), label).toBe(false);
      for (const update of outgoing.splice(0)) server.store(update);
      tracker.receive(server.message());
      expect(tracker.isDurable(), label).toBe(true);
    }
    const reloaded = server.reload();
    expect(bold(reloaded)).toBe('');
    expect(reloaded.getXmlFragment('x').toArray()[0]).toBeInstanceOf(Y.XmlElement);
    expect((reloaded.getXmlFragment('x').toArray()[0] as Y.XmlElement).getAttribute('textAlign')).toBeUndefined();
  });

  it('marks only local changes, and only with one entry per client beside the content', () => {
    const { doc, tracker, outgoing } = client();
    text(doc).insert(0, 'abc');
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
    text(other).delete(0, 1);
    const before = tracker.currentClock();
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(other), 'remote');
    expect(tracker.currentClock()).toBe(before);
    text(doc).delete(0, 1);
    text(doc).delete(0, 1);
    expect([...doc.getMap(DELETION_MARKS_FIELD).keys()]).toEqual([String(doc.clientID)]);
    expect(outgoing.length).toBe(5);
    tracker.destroy();
    text(doc).insert(0, 'x');
    text(doc).delete(0, 1);
    expect(outgoing.length).toBe(7);
  });

  it('never shows saved what a crash would lose: random edits, stored in random prefixes', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let run = 0; run < 40; run += 1) {
      const { doc, tracker, outgoing } = client();
      const server = new StoringServer();
      for (let step = 0; step < 30; step += 1) {
        const t = text(doc);
        const roll = random();
        if (roll < 0.4 || t.length < 2) t.insert(Math.floor(random() * (t.length + 1)), `w${step} `);
        else if (roll < 0.7) t.delete(Math.floor(random() * (t.length - 1)), 1 + Math.floor(random() * 2));
        else t.format(Math.floor(random() * (t.length - 1)), 2, { bold: random() < 0.5 ? true : null });
        // The server stores some of what arrived, in order, and confirms it.
        const storing = Math.floor(random() * (outgoing.length + 1));
        for (const update of outgoing.splice(0, storing)) server.store(update);
        tracker.receive(server.message());
        if (tracker.isDurable()) {
          const reloaded = server.reload();
          expect(text(reloaded).toDelta(), `run ${run}, step ${step}`).toEqual(text(doc).toDelta());
        }
      }
    }
  });
});

describe('DurableClocks', () => {
  it('merges the confirmations of several server processes, keeping the highest clock of each client', () => {
    const clocks = new DurableClocks();
    expect(clocks.receive(JSON.stringify({ type: DURABLE_MESSAGE, clocks: { '1': 5, '2': 9 } }))).toBe(true);
    expect(clocks.receive(JSON.stringify({ type: DURABLE_MESSAGE, clocks: { '1': 3 } }))).toBe(true);
    expect(clocks.receive('{"type":"hold-ended"}')).toBe(false);
    expect(clocks.receive('not json')).toBe(false);
    expect(clocks.asMessage().clocks).toEqual({ '1': 5, '2': 9 });
    expect(clocks.isDurable(1, 5)).toBe(true);
    expect(clocks.isDurable(1, 6)).toBe(false);
    expect(clocks.isDurable(3, 0)).toBe(true);
  });
});
