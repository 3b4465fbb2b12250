import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { onlyNewStructs } from './contentRuleGuard.js';

/** The guard skips its diff against the document only for updates holding nothing the document has. */
describe('onlyNewStructs', () => {
  const updatesOf = (doc: Y.Doc) => {
    const updates: Uint8Array[] = [];
    doc.on('update', (update: Uint8Array) => updates.push(update));
    return updates;
  };

  it('answers yes for an update of structs the document lacks, and no once it holds one of them', () => {
    const server = new Y.Doc();
    const writer = new Y.Doc();
    const sent = updatesOf(writer);
    writer.getArray('entries').push(['first']);
    writer.getArray('entries').push(['second']);
    expect(onlyNewStructs(server, sent[0]!)).toBe(true);
    Y.applyUpdate(server, sent[0]!);
    // The next keystroke is new; the first one sent again, or both merged (a reconnect's sync), is not.
    expect(onlyNewStructs(server, sent[1]!)).toBe(true);
    expect(onlyNewStructs(server, sent[0]!)).toBe(false);
    expect(onlyNewStructs(server, Y.mergeUpdates([sent[0]!, sent[1]!]))).toBe(false);
    // Another writer's structs beside a new one of this writer: one known struct of either makes it no.
    Y.applyUpdate(server, sent[1]!);
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(writer));
    const otherSent = updatesOf(other);
    other.getArray('entries').push(['third']);
    writer.getArray('entries').push(['fourth']);
    const both = Y.mergeUpdates([sent[2]!, otherSent[0]!]);
    expect(onlyNewStructs(server, both)).toBe(true);
    Y.applyUpdate(server, otherSent[0]!);
    expect(onlyNewStructs(server, both)).toBe(false);
  });

  it('answers yes for an update that only deletes (it carries no struct to compare)', () => {
    const server = new Y.Doc();
    const writer = new Y.Doc();
    const sent = updatesOf(writer);
    writer.getArray('entries').push(['gone soon']);
    Y.applyUpdate(server, sent[0]!);
    writer.getArray('entries').delete(0, 1);
    expect(onlyNewStructs(server, sent[1]!)).toBe(true);
  });
});
