import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { OutgoingMessage } from '@hocuspocus/server';
import { CONTENT_FIELD } from '@eln/shared';
import type { CatalogueSeals } from './catalogueSeals.js';
import { ContentRuleGuard } from './contentRuleGuard.js';
import { onlyEditsText } from './textOnlyUpdate.js';

/**
 * A crafted update a writer could send over the socket (found by review): it describes, in a client's
 * section given twice (Yjs applies only the last), something other than what applying it does. The
 * guard reduces each update to what the document lacks before judging it, and refuses this one.
 */
const R = 100;

type GuardDocument = Y.Doc & { name: string };

function documentWithTable() {
  const doc = new Y.Doc() as GuardDocument;
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
  const text = new Y.XmlText('hi');
  paragraph.insert(0, [text]);
  doc.getXmlFragment(CONTENT_FIELD).insert(0, [paragraph, table]);
  return { doc, row, text };
}

/** Sections in order: [client, first clock, structs], and deleted ranges [client, clock, length]; written as Yjs writes an update (V1). */
function encodeSections(sections: Array<[number, number, Array<Y.Item | Y.GC>]>, deleted: Array<[number, number, number]> = []): Uint8Array {
  const encoder = new Y.UpdateEncoderV1();
  // writeClient and writeLen both write a variable-length unsigned integer.
  encoder.writeLen(sections.length);
  for (const [client, clock, structs] of sections) {
    encoder.writeLen(structs.length);
    encoder.writeClient(client);
    encoder.writeLen(clock);
    for (const struct of structs) struct.write(encoder, 0);
  }
  encoder.writeLen(deleted.length);
  for (const [client, clock, length] of deleted) {
    encoder.writeLen(client);
    encoder.writeLen(1);
    encoder.writeLen(clock);
    encoder.writeLen(length);
  }
  return encoder.toUint8Array();
}

type ItemArgs = ConstructorParameters<typeof Y.Item>;
// A struct at the top of a document names its root type by key, as an encoded update does (Yjs types only the decoded forms).
const item = (id: Y.ID, origin: Y.ID | null, parent: ItemArgs[5] | string | null, parentSub: string | null, content: ItemArgs[7]) =>
  new Y.Item(id, null, origin, null, null, parent as ItemArgs[5], parentSub, content);
const element = (name: string) => new Y.ContentType(new Y.XmlElement(name));

async function guardAccepts(doc: GuardDocument, update: Uint8Array, guard = new ContentRuleGuard(() => true, { violations: () => [] } as unknown as CatalogueSeals)): Promise<boolean> {
  const message = new OutgoingMessage(doc.name).createSyncMessage().writeUpdate(update).toUint8Array();
  const payload = { connection: { readOnly: false, sendStateless: () => undefined }, document: doc, update: message };
  try {
    await guard.beforeHandleMessage(payload as unknown as Parameters<ContentRuleGuard['beforeHandleMessage']>[0]);
    return true;
  } catch {
    return false;
  }
}

/** What applying the update to a copy of the document makes of the note. */
function applied(doc: Y.Doc, ...updates: Uint8Array[]): string {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
  for (const update of updates) Y.applyUpdate(copy, update);
  return copy.getXmlFragment(CONTENT_FIELD).toString();
}

describe('a crafted update the guard refuses', () => {
  it('a client section given twice, apart: a fake struct reusing a table row’s ID', async () => {
    const { doc, row } = documentWithTable();
    const rowId = row._item!.id;
    const next = Y.getState(doc.store, R);
    const crafted = encodeSections([
      [R, rowId.clock, [item(rowId, null, CONTENT_FIELD, null, element('paragraph'))]],
      [200, 0, [item(Y.createID(200, 0), null, 'durableMarks', '200', new Y.ContentAny([1]))]],
      [R, next, [item(Y.createID(R, next), null, rowId, null, new Y.ContentType(new Y.XmlText())), item(Y.createID(R, next + 1), Y.createID(R, next), null, null, new Y.ContentString('evil'))]],
    ]);
    expect(applied(doc, crafted)).toContain('<tablerow>evil');
    expect(await guardAccepts(doc, crafted)).toBe(false);
  });

});

describe('honest updates', () => {
  it('typing takes the fast path; typing and a change sent twice are accepted', async () => {
    const { doc } = documentWithTable();
    const guard = new ContentRuleGuard(() => true, { violations: () => [] } as unknown as CatalogueSeals);
    const tab = new Y.Doc();
    Y.applyUpdate(tab, Y.encodeStateAsUpdate(doc));
    const sent: Uint8Array[] = [];
    tab.on('update', (update: Uint8Array) => sent.push(update));
    const text = (tab.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement).get(0) as Y.XmlText;
    for (const character of 'typed') {
      text.insert(text.length, character);
      const update = sent.at(-1)!;
      expect(onlyEditsText(doc, update)).toBe(true);
      expect(await guardAccepts(doc, update, guard)).toBe(true);
      Y.applyUpdate(doc, update);
    }
    // A change the document already holds, sent again, changes nothing.
    expect(await guardAccepts(doc, Y.mergeUpdates(sent), guard)).toBe(true);
    text.delete(0, 2);
    expect(onlyEditsText(doc, sent.at(-1)!)).toBe(true);
  });
});
