import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { OutgoingMessage } from '@hocuspocus/server';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import { CONTENT_FIELD, type PmNode } from '@eln/shared';
import { schemaViolation } from '@eln/shared/editor';
import type { CatalogueSeals } from './catalogueSeals.js';
import { ContentRuleGuard } from './contentRuleGuard.js';
import { onlyEditsText } from './textOnlyUpdate.js';

/**
 * Crafted updates a writer could send over the socket (found by review): each describes something other
 * than what applying it does (a client's section given twice, of which Yjs applies only the last; structs
 * or deletes Yjs keeps pending until a later update fills the gap; a mark where the text may carry
 * none). The guard judges what applying the update does, pending parts included.
 */
const R = 100;
const A = 300;
const Q = 400;

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
  const code = new Y.XmlElement('codeBlock');
  code.setAttribute('blockUid', 'c1');
  const codeText = new Y.XmlText('let x');
  code.insert(0, [codeText]);
  doc.getXmlFragment(CONTENT_FIELD).insert(0, [paragraph, table, code]);
  return { doc, row, text, codeText };
}

/** A tab holding the document, and the updates it sends. */
function tabOf(doc: Y.Doc) {
  const tab = new Y.Doc();
  Y.applyUpdate(tab, Y.encodeStateAsUpdate(doc));
  const sent: Uint8Array[] = [];
  tab.on('update', (update: Uint8Array) => sent.push(update));
  return { tab, sent, fragment: tab.getXmlFragment(CONTENT_FIELD) };
}

const noteJson = (doc: Y.Doc) => yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(CONTENT_FIELD)) as PmNode;

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

/** Offers updates in turn as a connection would: each one the guard accepts is applied. Answers what was accepted. */
async function offer(doc: GuardDocument, guard: ContentRuleGuard, ...updates: Uint8Array[]): Promise<boolean[]> {
  const accepted: boolean[] = [];
  for (const update of updates) {
    const ok = await guardAccepts(doc, update, guard);
    if (ok) Y.applyUpdate(doc, update);
    accepted.push(ok);
  }
  return accepted;
}

const newGuard = () => new ContentRuleGuard(() => true, { violations: () => [] } as unknown as CatalogueSeals);
/** An update the guard refuses (a table row at the top of the note): refusing it drops the guard's copy of the document. */
const refusedRow = (client: number) => encodeSections([[client, 0, [item(Y.createID(client, 0), null, CONTENT_FIELD, null, element('tableRow'))]]]);

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

  it('a client section given twice in a row: a diff of the update would show the later one elsewhere', async () => {
    const { doc } = documentWithTable();
    const crafted = encodeSections([
      [R, 0, [new Y.GC(Y.createID(R, 0), 1)]],
      [A, 0, [item(Y.createID(A, 0), null, 'elsewhere', null, element('paragraph'))]],
      [A, 0, [item(Y.createID(A, 0), null, CONTENT_FIELD, null, element('paragraph')), item(Y.createID(A, 1), Y.createID(A, 0), null, null, element('tableRow'))]],
    ]);
    expect(applied(doc, crafted)).toContain('</paragraph><tablerow>');
    expect(await guardAccepts(doc, crafted)).toBe(false);
    expect(schemaViolation(noteJson(doc))).toBeNull();
  });

  it('structs kept pending, placed by a later update: judged when they land', async () => {
    const { doc } = documentWithTable();
    const guard = newGuard();
    const waiting = encodeSections([
      [Q, 1, [item(Y.createID(Q, 1), null, 'elsewhere', null, element('paragraph'))]],
      [A, 0, [item(Y.createID(A, 0), Y.createID(Q, 1), null, null, element('tableRow'))]],
    ]);
    const filling = encodeSections([[Q, 0, [item(Y.createID(Q, 0), null, CONTENT_FIELD, null, element('paragraph')), item(Y.createID(Q, 1), Y.createID(Q, 0), null, null, element('paragraph'))]]]);
    expect(applied(doc, waiting, filling)).toContain('</paragraph><tablerow>');
    // In between, a refused update makes the guard build its copy of the document again.
    const [, refused, filled] = await offer(doc, guard, waiting, refusedRow(500), filling);
    expect(refused).toBe(false);
    expect(filled).toBe(false);
    expect(schemaViolation(noteJson(doc))).toBeNull();
  });

  it('a delete kept pending (relayed from another process), applied with a later writer’s honest change: judged with it', async () => {
    const { doc, row, text } = documentWithTable();
    const guard = newGuard();
    const { tab, sent, fragment } = tabOf(doc);
    // An honest format takes the full check: the guard now holds its copy of the document.
    ((fragment.get(0) as Y.XmlElement).get(0) as Y.XmlText).format(0, 1, { bold: true });
    expect(await offer(doc, guard, sent.at(-1)!)).toEqual([true]);
    expect(text.toDelta()[0].attributes).toEqual({ bold: true });
    const honestRow = (fragment.get(1) as Y.XmlElement).get(0) as Y.XmlElement;
    expect(honestRow.nodeName).toBe(row.nodeName);
    const cell = new Y.XmlElement('tableCell');
    const paragraph = new Y.XmlElement('paragraph');
    cell.insert(0, [paragraph]);
    honestRow.insert(1, [cell]);
    const addCell = sent.at(-1)!;
    const paragraphId = Y.decodeUpdate(addCell).structs.find((struct) => struct instanceof Y.Item && struct.content instanceof Y.ContentType && (struct.content.type as Y.XmlElement).nodeName === 'paragraph')!.id;
    const deleteAhead = encodeSections([], [[tab.clientID, paragraphId.clock, 1]]);
    expect(applied(doc, deleteAhead, addCell)).toContain('<tablecell></tablecell>');
    const alone = documentWithTable().doc;
    Y.applyUpdate(alone, sent.at(-2)!);
    expect(await offer(alone, newGuard(), addCell)).toEqual([true]);
    // Another process accepted the delete (kept pending there) and relays it: no update event carries it.
    Y.applyUpdate(doc, deleteAhead);
    expect(doc.store.pendingDs).not.toBeNull();
    // The honest change would land with the pending delete: refused, and the note keeps fitting.
    expect(await offer(doc, guard, addCell)).toEqual([false]);
    expect(schemaViolation(noteJson(doc))).toBeNull();
  });

  it('a mark in text that may carry none (a code block)', async () => {
    const { doc } = documentWithTable();
    const { sent, fragment } = tabOf(doc);
    ((fragment.get(2) as Y.XmlElement).get(0) as Y.XmlText).format(0, 3, { bold: true });
    expect(schemaViolation(yXmlFragmentToProsemirrorJSON(fragment) as PmNode)).not.toBeNull();
    expect(await guardAccepts(doc, sent.at(-1)!)).toBe(false);
  });

  it('an update Yjs cannot apply (an origin past its own client’s clock)', async () => {
    const { doc } = documentWithTable();
    const crafted = encodeSections([[A, 0, [item(Y.createID(A, 0), Y.createID(A, 5), null, null, new Y.ContentString('x'))]]]);
    expect(await guardAccepts(doc, crafted)).toBe(false);
  });

});

describe('honest updates', () => {
  it('a keystroke that reaches the server before the paragraph it types in: kept pending, then judged with it', async () => {
    const { doc } = documentWithTable();
    const guard = newGuard();
    const { sent, fragment } = tabOf(doc);
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.setAttribute('blockUid', 'p2');
    const text = new Y.XmlText();
    paragraph.insert(0, [text]);
    fragment.insert(fragment.length, [paragraph]);
    text.insert(0, 'late');
    const [createParagraph, keystroke] = sent.slice(-2);
    expect(await offer(doc, guard, keystroke!, createParagraph!)).toEqual([true, true]);
    expect(doc.getXmlFragment(CONTENT_FIELD).toString()).toContain('<paragraph blockUid="p2">late</paragraph>');
    expect(doc.store.pendingStructs).toBeNull();
  });

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
