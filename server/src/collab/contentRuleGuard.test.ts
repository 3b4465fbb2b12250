import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { OutgoingMessage } from '@hocuspocus/server';
import { CONTENT_FIELD } from '@eln/shared';
import type { CatalogueSeals } from './catalogueSeals.js';
import { ContentRuleGuard, onlyNewStructs } from './contentRuleGuard.js';
import { onlyEditsText } from './textOnlyUpdate.js';

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

/**
 * A crafted update that names one client's section twice: Yjs applies only the last, and a fake struct
 * in the first (reusing the ID of a table row the document has) claimed that the text the last one adds
 * under that row sits in a paragraph. The fast path must not believe it (it did, once the guard stopped
 * diffing every update against the document): the update goes to the full check and is refused.
 */
describe('a client section given twice', () => {
  const R = 100;

  function documentWithTable() {
    const doc = new Y.Doc() as Y.Doc & { name: string };
    doc.clientID = R;
    doc.name = 'labnote.1';
    const row = new Y.XmlElement('tableRow');
    const cell = new Y.XmlElement('tableCell');
    const inCell = new Y.XmlElement('paragraph');
    inCell.insert(0, [new Y.XmlText('x')]);
    cell.insert(0, [inCell]);
    row.insert(0, [cell]);
    const table = new Y.XmlElement('table');
    table.setAttribute('blockUid', 't1');
    table.insert(0, [row]);
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.setAttribute('blockUid', 'p1');
    paragraph.insert(0, [new Y.XmlText('hi')]);
    doc.getXmlFragment(CONTENT_FIELD).insert(0, [paragraph, table]);
    return { doc, row };
  }

  /** Sections in order: [client, first clock, items]; written as Yjs writes an update (V1). */
  function encodeSections(sections: Array<[number, number, Y.Item[]]>): Uint8Array {
    const encoder = new Y.UpdateEncoderV1();
    // writeClient and writeLen both write a variable-length unsigned integer.
    encoder.writeLen(sections.length);
    for (const [client, clock, items] of sections) {
      encoder.writeLen(items.length);
      encoder.writeClient(client);
      encoder.writeLen(clock);
      for (const item of items) item.write(encoder, 0);
    }
    encoder.writeLen(0); // an empty delete set
    return encoder.toUint8Array();
  }

  type ItemArgs = ConstructorParameters<typeof Y.Item>;
  // A struct at the top of a document names its root type by key, as an encoded update does (Yjs types only the decoded forms).
  const item = (id: Y.ID, parent: ItemArgs[5] | string, parentSub: string | null, content: ItemArgs[7]) => new Y.Item(id, null, null, null, null, parent as ItemArgs[5], parentSub, content);

  it('is not taken as typing, and the guard refuses it', async () => {
    const { doc, row } = documentWithTable();
    const rowId = row._item!.id;
    const next = Y.getState(doc.store, R);
    const crafted = encodeSections([
      [R, rowId.clock, [item(rowId, CONTENT_FIELD, null, new Y.ContentType(new Y.XmlElement('paragraph')))]],
      [200, 0, [item(Y.createID(200, 0), 'durableMarks', '200', new Y.ContentAny([1]))]],
      [R, next, [item(Y.createID(R, next), rowId, null, new Y.ContentType(new Y.XmlText())), item(Y.createID(R, next + 1), Y.createID(R, next), null, new Y.ContentString('evil'))]],
    ]);
    // What it really does: text straight inside the row, which the schema does not allow.
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
    Y.applyUpdate(copy, crafted);
    expect(copy.getXmlFragment(CONTENT_FIELD).toString()).toContain('<tablerow>evil');

    expect(onlyEditsText(doc, crafted)).toBe(false);
    const refusals: string[] = [];
    const guard = new ContentRuleGuard(() => true, { violations: () => [] } as unknown as CatalogueSeals);
    const message = new OutgoingMessage(doc.name).createSyncMessage().writeUpdate(crafted).toUint8Array();
    const payload = { connection: { readOnly: false, sendStateless: (text: string) => refusals.push(text) }, document: doc, update: message };
    await expect(guard.beforeHandleMessage(payload as unknown as Parameters<ContentRuleGuard['beforeHandleMessage']>[0])).rejects.toThrow();
    expect(refusals.map((text) => (JSON.parse(text) as { rule: string }).rule)).toEqual(['schema']);
  });
});
