import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { OutgoingMessage } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';
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
  return { doc, table, row, cell, inCell, paragraph, text, codeText };
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
function encodeSections(
  sections: Array<[number, number, Array<Y.Item | Y.GC>]>,
  deleted: Array<[number, number, number]> = [],
): Uint8Array {
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

/** A writer's connection as the guard and the pending-parts watch see it: what the server sends it is kept. */
function connectionTo(doc: GuardDocument) {
  const sent: Uint8Array[] = [];
  const connection = {
    readOnly: false,
    /** How often the guard closed it (refused an update); the writer then reopens, writing again. */
    refusals: 0,
    messageAddress: doc.name,
    webSocket: {},
    context: { user: { userNo: 1 } },
    send: (message: Uint8Array) => sent.push(message),
    sendStateless: () => undefined,
    close: () => {
      connection.refusals += 1;
    },
    /** The state vectors of the sync steps 1 sent to it (the server asking for what it lacks). */
    askedFor(): Uint8Array[] {
      return sent.map((message) => {
        const decoder = decoding.createDecoder(message);
        decoding.readVarString(decoder);
        expect([decoding.readVarUint(decoder), decoding.readVarUint(decoder)]).toEqual([0, 0]);
        return decoding.readVarUint8Array(decoder);
      });
    },
  };
  return connection;
}
type FakeConnection = ReturnType<typeof connectionTo>;

const silent = { warn: () => undefined };
const newGuard = () => new ContentRuleGuard(() => true, { violations: () => [] } as unknown as CatalogueSeals, silent);

async function guardAccepts(
  doc: GuardDocument,
  update: Uint8Array,
  guard = newGuard(),
  connection: FakeConnection = connectionTo(doc),
): Promise<boolean> {
  const message = new OutgoingMessage(doc.name).createSyncMessage().writeUpdate(update).toUint8Array();
  const payload = { connection, document: doc, update: message };
  const refusals = connection.refusals;
  await guard.beforeHandleMessage(payload as unknown as Parameters<ContentRuleGuard['beforeHandleMessage']>[0]);
  if (connection.refusals === refusals) return true;
  // Refused: the writer reopens and writes again (a fresh connection in Hocuspocus).
  connection.readOnly = false;
  return false;
}

/** Offers updates in turn on one connection: each one the guard accepts is applied as Hocuspocus applies it. Answers what was accepted. */
async function offer(
  doc: GuardDocument,
  guard: ContentRuleGuard,
  connection: FakeConnection,
  ...updates: Uint8Array[]
): Promise<boolean[]> {
  const accepted: boolean[] = [];
  for (const update of updates) {
    const ok = await guardAccepts(doc, update, guard, connection);
    if (ok) Y.applyUpdate(doc, update, { source: 'connection', connection });
    accepted.push(ok);
  }
  return accepted;
}

/** A copy of the document with the updates applied. */
function copyWith(doc: Y.Doc, ...updates: Uint8Array[]): Y.Doc {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
  for (const update of updates) Y.applyUpdate(copy, update);
  return copy;
}
/** What applying the updates to a copy of the document makes of the note. */
const applied = (doc: Y.Doc, ...updates: Uint8Array[]) =>
  copyWith(doc, ...updates)
    .getXmlFragment(CONTENT_FIELD)
    .toString();
const appliedJson = (doc: Y.Doc, ...updates: Uint8Array[]) => noteJson(copyWith(doc, ...updates));

describe('a crafted update the guard refuses', () => {
  it('a client section given twice, apart: a fake struct reusing a table row’s ID', async () => {
    const { doc, row } = documentWithTable();
    const rowId = row._item!.id;
    const next = Y.getState(doc.store, R);
    const crafted = encodeSections([
      [R, rowId.clock, [item(rowId, null, CONTENT_FIELD, null, element('paragraph'))]],
      [200, 0, [item(Y.createID(200, 0), null, 'durableMarks', '200', new Y.ContentAny([1]))]],
      [
        R,
        next,
        [
          item(Y.createID(R, next), null, rowId, null, new Y.ContentType(new Y.XmlText())),
          item(Y.createID(R, next + 1), Y.createID(R, next), null, null, new Y.ContentString('evil')),
        ],
      ],
    ]);
    expect(applied(doc, crafted)).toContain('<tablerow>evil');
    expect(await guardAccepts(doc, crafted)).toBe(false);
  });

  it('a client section given twice in a row: a diff of the update would show the later one elsewhere', async () => {
    const { doc } = documentWithTable();
    const crafted = encodeSections([
      [R, 0, [new Y.GC(Y.createID(R, 0), 1)]],
      [A, 0, [item(Y.createID(A, 0), null, 'elsewhere', null, element('paragraph'))]],
      [
        A,
        0,
        [
          item(Y.createID(A, 0), null, CONTENT_FIELD, null, element('paragraph')),
          item(Y.createID(A, 1), Y.createID(A, 0), null, null, element('tableRow')),
        ],
      ],
    ]);
    expect(applied(doc, crafted)).toContain('</paragraph><tablerow>');
    expect(await guardAccepts(doc, crafted)).toBe(false);
    expect(schemaViolation(noteJson(doc))).toBeNull();
  });

  it('structs left pending are dropped: no later update places them (sent by the writer, or relayed from another process)', async () => {
    const waiting = encodeSections([
      [Q, 1, [item(Y.createID(Q, 1), null, 'elsewhere', null, element('paragraph'))]],
      [A, 0, [item(Y.createID(A, 0), Y.createID(Q, 1), null, null, element('tableRow'))]],
    ]);
    const filling = encodeSections([
      [
        Q,
        0,
        [
          item(Y.createID(Q, 0), null, CONTENT_FIELD, null, element('paragraph')),
          item(Y.createID(Q, 1), Y.createID(Q, 0), null, null, element('paragraph')),
        ],
      ],
    ]);
    expect(applied(documentWithTable().doc, waiting, filling)).toContain('</paragraph><tablerow>');

    const { doc } = documentWithTable();
    const writer = connectionTo(doc);
    const guard = newGuard();
    expect(await offer(doc, guard, writer, waiting)).toEqual([true]);
    expect(doc.store.pendingStructs).toBeNull();
    // The writer is asked for what the document lacks (an honest client answers with it).
    expect(writer.askedFor()).toEqual([Y.encodeStateVector(doc)]);
    expect(await offer(doc, guard, connectionTo(doc), filling)).toEqual([true]);
    expect(schemaViolation(noteJson(doc))).toBeNull();
    // The guard's copy dropped them too: a table row at the top is still new to it, and refused.
    const topRow = encodeSections([[500, 0, [item(Y.createID(500, 0), null, CONTENT_FIELD, null, element('tableRow'))]]]);
    expect(await offer(doc, guard, connectionTo(doc), topRow)).toEqual([false]);

    const relayed = documentWithTable().doc;
    const relayGuard = newGuard();
    expect(await offer(relayed, relayGuard, connectionTo(relayed), encodeSections([]))).toEqual([true]);
    Y.applyUpdate(relayed, waiting, { source: 'redis' });
    expect(relayed.store.pendingStructs).toBeNull();
    expect(await offer(relayed, relayGuard, connectionTo(relayed), filling)).toEqual([true]);
    expect(schemaViolation(noteJson(relayed))).toBeNull();
  });

  it('a delete left pending (relayed from another process) is dropped: it cannot empty a later writer’s new table cell', async () => {
    const { doc, row } = documentWithTable();
    const guard = newGuard();
    const { tab, sent, fragment } = tabOf(doc);
    const honestRow = (fragment.get(1) as Y.XmlElement).get(0) as Y.XmlElement;
    expect(honestRow.nodeName).toBe(row.nodeName);
    const cell = new Y.XmlElement('tableCell');
    cell.insert(0, [new Y.XmlElement('paragraph')]);
    honestRow.insert(1, [cell]);
    const addCell = sent.at(-1)!;
    const paragraphId = Y.decodeUpdate(addCell).structs.find(
      (struct) =>
        struct instanceof Y.Item &&
        struct.content instanceof Y.ContentType &&
        (struct.content.type as Y.XmlElement).nodeName === 'paragraph',
    )!.id;
    const deleteAhead = encodeSections([], [[tab.clientID, paragraphId.clock, 1]]);
    expect(applied(doc, deleteAhead, addCell)).toContain('<tablecell></tablecell>');
    // The guard holds its copy of the document (an honest format takes the full check).
    const other = tabOf(doc);
    ((other.fragment.get(0) as Y.XmlElement).get(0) as Y.XmlText).format(0, 1, { bold: true });
    expect(await offer(doc, guard, connectionTo(doc), other.sent.at(-1)!)).toEqual([true]);
    Y.applyUpdate(doc, deleteAhead, { source: 'redis' });
    expect(doc.store.pendingDs).toBeNull();
    expect(await offer(doc, guard, connectionTo(doc), addCell)).toEqual([true]);
    expect(doc.getXmlFragment(CONTENT_FIELD).toString()).toContain('<tablecell><paragraph></paragraph></tablecell>');
    expect(schemaViolation(noteJson(doc))).toBeNull();
  });

  it('a mark in text that may carry none (a code block)', async () => {
    const { doc } = documentWithTable();
    const { sent, fragment } = tabOf(doc);
    ((fragment.get(2) as Y.XmlElement).get(0) as Y.XmlText).format(0, 3, { bold: true });
    expect(schemaViolation(yXmlFragmentToProsemirrorJSON(fragment) as PmNode)).not.toBeNull();
    expect(await guardAccepts(doc, sent.at(-1)!)).toBe(false);
  });

  it('an update whose reading fails part-way leaves no trace in the guard’s copy (a hook node, then deletes)', async () => {
    const { doc, paragraph, cell, inCell } = documentWithTable();
    const guard = newGuard();
    const writer = connectionTo(doc);
    // Refused: no note can hold a hook. The copy of the document must not keep the paragraph it brought into the cell.
    const poison = encodeSections([
      [
        A,
        0,
        [
          item(Y.createID(A, 0), null, paragraph._item!.id, null, new Y.ContentType(new Y.XmlHook('h'))),
          item(Y.createID(A, 1), null, cell._item!.id, null, element('paragraph')),
        ],
      ],
    ]);
    expect(await offer(doc, guard, writer, poison)).toEqual([false]);
    const deleteParagraph = encodeSections([], [[R, paragraph._item!.id.clock, 1]]);
    const emptyCell = encodeSections([], [[R, inCell._item!.id.clock, 1]]);
    expect(await offer(doc, guard, writer, deleteParagraph, emptyCell)).toEqual([true, false]);
    expect(schemaViolation(noteJson(doc))).toBeNull();
    // An honest change after a refusal is judged on a true copy.
    const { sent, fragment } = tabOf(doc);
    (((fragment.get(0) as Y.XmlElement).get(0) as Y.XmlElement).get(0) as Y.XmlElement).insert(1, [new Y.XmlElement('paragraph')]);
    expect(await offer(doc, guard, writer, sent.at(-1)!)).toEqual([true]);
  });

  it('text typed into a text node of a table, a row or a cell (made empty, so the full check saw nothing)', async () => {
    for (const where of ['table', 'row', 'cell'] as const) {
      const parts = documentWithTable();
      const guard = newGuard();
      const writer = connectionTo(parts.doc);
      const emptyText = encodeSections([
        [A, 0, [item(Y.createID(A, 0), null, parts[where]._item!.id, null, new Y.ContentType(new Y.XmlText()))]],
      ]);
      const typed = encodeSections([[A, 1, [item(Y.createID(A, 1), null, Y.createID(A, 0), null, new Y.ContentString('evil'))]]]);
      expect(applied(parts.doc, emptyText, typed)).toContain('evil');
      expect(onlyEditsText(parts.doc, typed)).toBe(false);
      await offer(parts.doc, guard, writer, emptyText, typed);
      expect(schemaViolation(noteJson(parts.doc)), where).toBeNull();
    }
  });

  it('text typed after a mark that covers no text yet, where no mark may stand (a code block)', async () => {
    const { doc, codeText } = documentWithTable();
    const guard = newGuard();
    const lastCharacter = Y.createID(R, codeText._start!.id.clock + codeText.length - 1);
    const bareMark = encodeSections([[A, 0, [item(Y.createID(A, 0), lastCharacter, null, null, new Y.ContentFormat('bold', true))]]]);
    const typed = encodeSections([[A, 1, [item(Y.createID(A, 1), Y.createID(A, 0), null, null, new Y.ContentString('evil'))]]]);
    expect(applied(doc, bareMark, typed)).toContain('<bold>evil</bold>');
    await offer(doc, guard, connectionTo(doc), bareMark, typed);
    expect(schemaViolation(noteJson(doc))).toBeNull();
  });

  it('text typed after marks that cover no text yet and exclude each other (bold and code)', async () => {
    const { doc, text } = documentWithTable();
    const lastCharacter = Y.createID(R, text._start!.id.clock + text.length - 1);
    const bareMarks = encodeSections([
      [
        A,
        0,
        [
          item(Y.createID(A, 0), lastCharacter, null, null, new Y.ContentFormat('bold', true)),
          item(Y.createID(A, 1), Y.createID(A, 0), null, null, new Y.ContentFormat('code', true)),
        ],
      ],
    ]);
    const typed = encodeSections([[A, 2, [item(Y.createID(A, 2), Y.createID(A, 1), null, null, new Y.ContentString('evil'))]]]);
    expect(schemaViolation(appliedJson(doc, bareMarks, typed))).toContain('Invalid collection of marks');
    await offer(doc, newGuard(), connectionTo(doc), bareMarks, typed);
    expect(schemaViolation(noteJson(doc))).toBeNull();
  });

  it('a live type as an attribute’s value (a paragraph’s blockUid, an image’s title: text typed into it later would escape the rules)', async () => {
    const { doc } = documentWithTable();
    const guard = newGuard();
    const writer = connectionTo(doc);
    const uid = tabOf(doc);
    (uid.fragment.get(0) as Y.XmlElement).setAttribute('blockUid', new Y.XmlText('zz') as unknown as string);
    expect(await offer(doc, guard, writer, uid.sent.at(-1)!)).toEqual([false]);
    const titled = tabOf(doc);
    const before = Y.encodeStateVector(titled.tab);
    const image = new Y.XmlElement('image');
    titled.fragment.insert(3, [image]);
    image.setAttribute('blockUid', 'img1');
    image.setAttribute('fileId', 'f1');
    const title = new Y.XmlElement('heading');
    title.insert(0, [new Y.XmlText('a')]);
    image.setAttribute('title', title as unknown as string);
    expect(await offer(doc, guard, writer, Y.encodeStateAsUpdate(titled.tab, before))).toEqual([false]);
    expect(noteJson(doc).content?.[0]?.attrs?.blockUid).toBe('p1');
    expect(doc.getXmlFragment(CONTENT_FIELD).toString()).not.toContain('image');
  });

  it('an attribute or a format named __proto__ (the server’s reading would take it for the prototype; the browser’s would show what it holds)', async () => {
    const { doc, text } = documentWithTable();
    const guard = newGuard();
    const writer = connectionTo(doc);
    const forged = tabOf(doc);
    const cell = ((forged.fragment.get(1) as Y.XmlElement).get(0) as Y.XmlElement).get(0) as Y.XmlElement;
    cell.setAttribute('__proto__', { colspan: 7, dropbox: { dropboxNo: 1, code: 'x', name: 'Forged', seal: 'none' } } as unknown as string);
    expect(await offer(doc, guard, writer, forged.sent.at(-1)!)).toEqual([false]);
    const formatted = tabOf(doc);
    const codeText = (formatted.fragment.get(2) as Y.XmlElement).get(0) as Y.XmlText;
    codeText.insert(codeText.length, ' evil', JSON.parse('{"__proto__": {"bold": true, "code": true}}') as Record<string, unknown>);
    expect(await offer(doc, guard, writer, formatted.sent.at(-1)!)).toEqual([false]);
    expect(doc.getXmlFragment(CONTENT_FIELD).toString()).not.toContain('evil');
    expect(
      Object.getPrototypeOf(
        (((doc.getXmlFragment(CONTENT_FIELD).get(1) as Y.XmlElement).get(0) as Y.XmlElement).get(0) as Y.XmlElement).getAttributes(),
      ),
    ).toBe(Object.prototype);
    // One covering no text, with a value no reader takes for a prototype: refused by its name all the same.
    const lastCharacter = Y.createID(R, text._start!.id.clock + text.length - 1);
    expect(
      await offer(
        doc,
        guard,
        writer,
        encodeSections([[A, 0, [item(Y.createID(A, 0), lastCharacter, null, null, new Y.ContentFormat('__proto__', true))]]]),
      ),
    ).toEqual([false]);
  });

  it('a pasted table whose column widths read as NaN (not JSON, written as null) is accepted', async () => {
    const { doc } = documentWithTable();
    const pasted = tabOf(doc);
    (((pasted.fragment.get(1) as Y.XmlElement).get(0) as Y.XmlElement).get(0) as Y.XmlElement).setAttribute('colwidth', [
      Number.NaN,
    ] as unknown as string);
    expect(await offer(doc, newGuard(), connectionTo(doc), pasted.sent.at(-1)!)).toEqual([true]);
  });

  it('a note that already breaks the schema in one block still may not break it in another', async () => {
    const { doc, codeText } = documentWithTable();
    // Stored before the guard knew better: a bold mark in the code block.
    codeText.format(0, 2, { bold: true });
    expect(schemaViolation(noteJson(doc))).not.toBeNull();
    const { tab, fragment } = tabOf(doc);
    const before = Y.encodeStateVector(tab);
    fragment.insert(0, [new Y.XmlElement('tableRow')]);
    expect(await offer(doc, newGuard(), connectionTo(doc), Y.encodeStateAsUpdate(tab, before))).toEqual([false]);
    // Editing beside the broken block is fine.
    const typing = tabOf(doc);
    const vector = Y.encodeStateVector(typing.tab);
    ((typing.fragment.get(0) as Y.XmlElement).get(0) as Y.XmlText).insert(0, 'ok ');
    expect(await offer(doc, newGuard(), connectionTo(doc), Y.encodeStateAsUpdate(typing.tab, vector))).toEqual([true]);
  });

  it('an update Yjs cannot apply (an origin past its own client’s clock)', async () => {
    const { doc } = documentWithTable();
    const crafted = encodeSections([[A, 0, [item(Y.createID(A, 0), Y.createID(A, 5), null, null, new Y.ContentString('x'))]]]);
    expect(await guardAccepts(doc, crafted)).toBe(false);
  });
});

describe('honest updates', () => {
  it('a keystroke that reaches the server before the paragraph it types in: dropped, and sent again when the server asks', async () => {
    const { doc } = documentWithTable();
    const guard = newGuard();
    const { tab, sent, fragment } = tabOf(doc);
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.setAttribute('blockUid', 'p2');
    const text = new Y.XmlText();
    paragraph.insert(0, [text]);
    fragment.insert(fragment.length, [paragraph]);
    text.insert(0, 'late');
    const [createParagraph, keystroke] = sent.slice(-2);
    const writer = connectionTo(doc);
    expect(await offer(doc, guard, writer, keystroke!)).toEqual([true]);
    expect(doc.store.pendingStructs).toBeNull();
    const [lacking] = writer.askedFor();
    expect(await offer(doc, guard, writer, Y.encodeStateAsUpdate(tab, lacking), createParagraph!)).toEqual([true, true]);
    expect(doc.getXmlFragment(CONTENT_FIELD).toString()).toContain('<paragraph blockUid="p2">late</paragraph>');
    expect(writer.askedFor()).toHaveLength(1);
  });

  it('typing takes the fast path; typing and a change sent twice are accepted', async () => {
    const { doc } = documentWithTable();
    const guard = newGuard();
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
