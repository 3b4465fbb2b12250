import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import {
  api,
  COLLAB_PATH,
  COLLAB_REFUSALS,
  CONTENT_FIELD,
  CONTENT_REFUSED_MESSAGE,
  newBlockUid,
  noteDocumentName,
  type ContentRule,
  type PmNode,
} from '@eln/shared';
import { startTestServer, type Caller, type TestServer } from '../../testing/harness.js';
import { appendParagraph, appendTable, connectWriter, eventually, plainText, type LiveClient } from '../../testing/live.js';
import { OutgoingMessage } from '@hocuspocus/server';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import { DatabaseDocumentStore } from '../persistence/documentStore.js';
import { contentOfState } from '../commands/liveDocuments.js';

/**
 * The content rules on live updates, spoken to by raw Yjs clients (a provider and hand-built XML
 * elements, no editor): a refused update is not applied, not stored, not seen by the other editor; its
 * sender is told the rule and block, closed, and reopens to the stored state.
 */
let server: TestServer;
let url: string;
let writerToken: string;
let colleagueToken: string;
let projectNo: number;
let caller: Caller;
const clients: LiveClient[] = [];
const track = (client: LiveClient) => {
  clients.push(client);
  return client;
};

beforeAll(async () => {
  server = await startTestServer();
  url = await server.listen();
  const writer = await server.createUser({ name: 'Writer Rules' });
  const colleague = await server.createUser({ name: 'Colleague Rules' });
  writerToken = (await server.signIn(writer.userId, writer.password)).accessToken;
  colleagueToken = (await server.signIn(colleague.userId, colleague.password)).accessToken;
  caller = await server.as(writer);
  const project = await caller(api.projects.create, {
    title: 'Content rules',
    signatureList: { department: '', user: `${writer.userId},${colleague.userId}` },
  });
  projectNo = project.body.data.projectNo;
});
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});
afterAll(async () => {
  await server?.stop();
});

async function newNote(title: string): Promise<string> {
  const created = await caller(api.notes.create, { projectNo, title });
  return noteDocumentName(created.body.data.labNoteNo);
}

const content = (doc: Y.Doc) => yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(CONTENT_FIELD)) as PmNode;
const fragment = (doc: Y.Doc) => doc.getXmlFragment(CONTENT_FIELD);

function element(name: string, attrs: Record<string, unknown>, children: Array<Y.XmlElement | Y.XmlText> = []): Y.XmlElement {
  const node = new Y.XmlElement(name);
  // Object values (a chart's cell references) are stored as they are, as y-prosemirror stores them.
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value as string);
  node.insert(0, children);
  return node;
}
const cell = (
  name = 'tableCell',
  attrs: Record<string, unknown> = {},
  inner: Y.XmlElement = element('paragraph', {}, [new Y.XmlText('x')]),
) => element(name, { colspan: 1, rowspan: 1, ...attrs }, [inner]);

async function storedContent(name: string): Promise<PmNode> {
  await server.services.live.persistence.flushDocument(name);
  return contentOfState((await new DatabaseDocumentStore(server.database).load(name)) ?? Y.encodeStateAsUpdate(new Y.Doc()));
}

const refusalOf = (client: LiveClient) => client.stateless().find((m) => (m as { type?: string }).type === CONTENT_REFUSED_MESSAGE);

/**
 * Two editors on a note with one stored paragraph; the sender makes `edit`. Expects it refused for
 * `rule` in `blockUid`, the other editor and the store untouched, and a reopened sender equal to them.
 */
async function expectRefused(name: string, edit: (doc: Y.Doc) => string | null, rule: ContentRule): Promise<void> {
  const sender = track(await connectWriter(url, name, writerToken));
  const other = track(await connectWriter(url, name, colleagueToken));
  if (fragment(sender.doc).length === 0) appendParagraph(sender.doc, 'Stored before');
  await eventually(() => sender.allDurable() && fragment(other.doc).length === fragment(sender.doc).length, 'the first edits everywhere');
  const before = content(other.doc);
  expect(await storedContent(name)).toEqual(before);

  const blockUid = edit(sender.doc);
  await eventually(() => sender.closeReasons().includes(COLLAB_REFUSALS.contentRefused), 'the sender to be closed as refused');
  expect(refusalOf(sender)).toEqual({ type: CONTENT_REFUSED_MESSAGE, rule, blockUid });
  expect(sender.allDurable()).toBe(false);

  // The other editor keeps writing; its edit lands after the refused one would have, and nothing of that shows.
  appendParagraph(other.doc, 'Other editor after');
  await eventually(() => other.allDurable(), 'the other editor to be stored');
  const expected = { type: 'doc', content: [...(before.content ?? []), content(other.doc).content!.at(-1)!] };
  expect(content(other.doc)).toEqual(expected);
  expect(await storedContent(name)).toEqual(expected);
  // The sender reopens with a fresh document: it has the stored state, the same as the other editor's.
  sender.destroy();
  const reopened = track(await connectWriter(url, name, writerToken));
  expect(content(reopened.doc)).toEqual(expected);
}

describe('content rules on live updates', () => {
  it('refuses a 31-column table', async () => {
    await expectRefused(await newNote('Wide table'), (doc) => appendTable(doc, 1, 31), 'tableSize');
  });

  it('refuses a table inside a table', async () => {
    await expectRefused(
      await newNote('Nested table'),
      (doc) => {
        const uid = newBlockUid();
        const inner = element('table', {}, [element('tableRow', {}, [cell()])]);
        fragment(doc).push([element('table', { blockUid: uid }, [element('tableRow', {}, [cell('tableCell', {}, inner)])])]);
        return uid;
      },
      'tableInTable',
    );
  });

  it('refuses a 31-character image title', async () => {
    await expectRefused(
      await newNote('Long title'),
      (doc) => {
        const uid = newBlockUid();
        fragment(doc).push([element('image', { blockUid: uid, fileId: 'f1', title: 'x'.repeat(31) })]);
        return uid;
      },
      'imageTitle',
    );
  });

  it('refuses a mention that names no person’s ID', async () => {
    await expectRefused(
      await newNote('Mention of no one'),
      (doc) => {
        const uid = newBlockUid();
        fragment(doc).push([
          element('paragraph', { blockUid: uid }, [new Y.XmlText('Ask '), element('mention', { userId: 'not an id', label: 'X' })]),
        ]);
        return uid;
      },
      'mention',
    );
  });

  it('refuses a node the editor schema does not know', async () => {
    await expectRefused(
      await newNote('Foreign node'),
      (doc) => {
        fragment(doc).push([element('script', {}, [new Y.XmlText('alert(1)')])]);
        return null;
      },
      'schema',
    );
  });

  it('refuses a mark the editor schema does not know, even on typed text (no fast path for it)', async () => {
    await expectRefused(
      await newNote('Foreign mark'),
      (doc) => {
        const paragraph = fragment(doc).get(0) as Y.XmlElement;
        (paragraph.get(0) as Y.XmlText).format(0, 3, { blink: {} });
        // The schema is judged block by block: the refusal names the paragraph.
        return paragraph.getAttribute('blockUid') as string;
      },
      'schema',
    );
  });

  const unitsCopy = { dropboxNo: 7, title: 'Units', code: 'mg', name: 'milligram' };
  /** A copy as the server hands it out (`/v1/dropbox/cell`, `/v1/schema/block`): sealed with its key. */
  const sealed = (copy: object, kind: 'dropboxCell' | 'schemaBlock' = 'dropboxCell') => server.services.catalogueSeals.seal(kind, copy);
  const reagent = {
    schemasTypeNo: 1,
    schemaNo: 2,
    typeTitle: 'Reagents',
    title: 'Sodium chloride',
    revision: 1,
    entries: [{ field: 'CAS', value: '7647-14-5' }],
  };

  it('refuses a dropbox in a header cell, chosen row or not', async () => {
    const units = sealed(unitsCopy);
    for (const [index, dropbox] of [units, sealed({ ...unitsCopy, code: null, name: null })].entries()) {
      await expectRefused(
        await newNote(`Header dropbox ${index}`),
        (doc) => {
          const uid = newBlockUid();
          fragment(doc).push([element('table', { blockUid: uid }, [element('tableRow', {}, [cell('tableHeader', { dropbox }), cell()])])]);
          return uid;
        },
        'dropboxHeader',
      );
    }
  });

  it('refuses a cell dropbox that is not one dropbox with at most one chosen row', async () => {
    const units = sealed(unitsCopy);
    for (const [index, dropbox] of [{ ...units, name: null }, { ...units, dropboxNo: 'seven' }, [units, units]].entries()) {
      await expectRefused(
        await newNote(`Bad dropbox ${index}`),
        (doc) => {
          const uid = newBlockUid();
          fragment(doc).push([element('table', { blockUid: uid }, [element('tableRow', {}, [cell('tableCell', { dropbox }), cell()])])]);
          return uid;
        },
        'dropboxValue',
      );
    }
  });

  it('refuses catalogue copies the server did not seal: made-up, changed, sealed for another kind, or the older title-only form', async () => {
    const units = sealed(unitsCopy);
    const forgedCells: unknown[] = [
      { ...unitsCopy, seal: 'A'.repeat(43) },
      { ...units, name: 'kilogram' },
      { ...units, code: 'kg' },
      sealed(unitsCopy, 'schemaBlock'),
      'Units',
    ];
    for (const [index, dropbox] of forgedCells.entries()) {
      await expectRefused(
        await newNote(`Forged dropbox ${index}`),
        (doc) => {
          const uid = newBlockUid();
          fragment(doc).push([element('table', { blockUid: uid }, [element('tableRow', {}, [cell('tableCell', { dropbox }), cell()])])]);
          return uid;
        },
        'catalogueCopy',
      );
    }
    const block = sealed(reagent, 'schemaBlock');
    const forgedBlocks = [
      { ...block, entries: [{ field: 'CAS', value: '0000-00-0' }] },
      { ...block, revision: 2 },
      { ...reagent, seal: 'A'.repeat(43) },
      sealed(reagent),
    ];
    for (const [index, attrs] of forgedBlocks.entries()) {
      await expectRefused(
        await newNote(`Forged schema ${index}`),
        (doc) => {
          const uid = newBlockUid();
          fragment(doc).push([element('schemaBlock', { blockUid: uid, ...attrs })]);
          return uid;
        },
        'catalogueCopy',
      );
    }
  });

  it('refuses a schema block inside a table cell, or with entries a schema could not hold', async () => {
    await expectRefused(
      await newNote('Nested schema'),
      (doc) => {
        const uid = newBlockUid();
        fragment(doc).push([
          element('table', { blockUid: uid }, [
            element('tableRow', {}, [cell('tableCell', {}, element('schemaBlock', sealed(reagent, 'schemaBlock')))]),
          ]),
        ]);
        return uid;
      },
      'schemaBlock',
    );
    await expectRefused(
      await newNote('Too long a value'),
      (doc) => {
        const uid = newBlockUid();
        fragment(doc).push([
          element('schemaBlock', {
            blockUid: uid,
            ...sealed({ ...reagent, entries: [{ field: 'CAS', value: 'x'.repeat(1001) }] }, 'schemaBlock'),
          }),
        ]);
        return uid;
      },
      'schemaBlock',
    );
  });

  it('refuses shrinking a table so that a chart range leaves it, after accepting the chart', async () => {
    const name = await newNote('Chart range');
    const author = track(await connectWriter(url, name, writerToken));
    const tableUid = appendTable(author.doc, 3, 3);
    const chartUid = newBlockUid();
    const chartAttrs = {
      blockUid: chartUid,
      chartType: 'bar',
      name: 'Rate',
      label: 'Fig. 1',
      dataName: 'A',
      tableUid,
      from: { row: 0, col: 0 },
      to: { row: 2, col: 1 },
    };
    fragment(author.doc).push([element('chart', chartAttrs)]);
    await eventually(() => author.allDurable(), 'the table and its chart to be stored');
    expect(author.closeReasons()).toEqual([]);
    author.destroy();
    await expectRefused(
      name,
      (doc) => {
        (fragment(doc).get(0) as Y.XmlElement).delete(2, 1);
        return chartUid;
      },
      'chartRange',
    );
  });

  it('still refuses a violation deep inside an otherwise unchanged big note (the guard keeps the other blocks)', async () => {
    const name = await newNote('Big note, one bad cell');
    const builder = track(await connectWriter(url, name, writerToken));
    const tableUid = appendTable(builder.doc, 30, 30);
    for (let i = 0; i < 20; i += 1) appendParagraph(builder.doc, `Observation ${i}`);
    // Structural updates elsewhere first, so the guard has kept (and reuses) the table's verdicts.
    for (let i = 0; i < 3; i += 1) fragment(builder.doc).push([element('heading', { level: 2 }, [new Y.XmlText(`Heading ${i}`)])]);
    await eventually(() => builder.allDurable(), 'the big note to be stored');
    builder.destroy();
    // A cell in the middle of the unchanged table turns into a header cell with a dropbox.
    await expectRefused(
      name,
      (doc) => {
        const row = (fragment(doc).get(0) as Y.XmlElement).get(15) as Y.XmlElement;
        doc.transact(() => {
          row.delete(15, 1);
          row.insert(15, [cell('tableHeader', { dropbox: 'Reagents' })]);
        });
        return tableUid;
      },
      'dropboxHeader',
    );
    // And a table put into one of its cells.
    await expectRefused(
      name,
      (doc) => {
        const target = ((fragment(doc).get(0) as Y.XmlElement).get(29) as Y.XmlElement).get(29) as Y.XmlElement;
        target.insert(1, [element('table', {}, [element('tableRow', {}, [cell()])])]);
        return tableUid;
      },
      'tableInTable',
    );
  });

  it('accepts edits that keep the rules: a 30 x 30 table, typing into existing text, a valid chart', async () => {
    const name = await newNote('Accepted');
    const writer = track(await connectWriter(url, name, writerToken));
    const other = track(await connectWriter(url, name, colleagueToken));
    const tableUid = appendTable(writer.doc, 30, 30);
    appendParagraph(writer.doc, 'Typed');
    await eventually(() => writer.allDurable(), 'the table to be stored');
    // Keystrokes into the paragraph's text: the fast path, each confirmed durable.
    const text = (fragment(writer.doc).get(1) as Y.XmlElement).get(0) as Y.XmlText;
    for (const ch of ' more') text.insert(text.length, ch);
    text.format(0, 5, { bold: true });
    text.delete(0, 1);
    fragment(writer.doc).push([
      element('chart', {
        blockUid: newBlockUid(),
        name: 'n',
        label: 'l',
        dataName: 'd',
        tableUid,
        from: { row: 0, col: 0 },
        to: { row: 29, col: 29 },
      }),
    ]);
    // A body cell's dropbox, then its chosen row, and a schema block: each the server's sealed copy.
    const bodyCell = ((fragment(writer.doc).get(0) as Y.XmlElement).get(1) as Y.XmlElement).get(0) as Y.XmlElement;
    bodyCell.setAttribute('dropbox', sealed({ ...unitsCopy, code: null, name: null }) as unknown as string);
    bodyCell.setAttribute('dropbox', sealed(unitsCopy) as unknown as string);
    fragment(writer.doc).push([element('schemaBlock', { blockUid: newBlockUid(), ...sealed(reagent, 'schemaBlock') })]);
    await eventually(() => writer.allDurable(), 'the typing, the chart, the dropbox and the schema block to be stored');
    expect(writer.closeReasons()).toEqual([]);
    expect(refusalOf(writer)).toBeUndefined();
    await eventually(() => fragment(other.doc).length === 4, 'the other editor to see it all');
    expect(plainText((fragment(other.doc).get(1) as Y.XmlElement).get(0) as Y.XmlText)).toBe('yped more');
    expect(await storedContent(name)).toEqual(content(writer.doc));
  });

  it('keeps an old note that already breaks a rule editable, refusing only what breaks more', async () => {
    const name = await newNote('Old wide table');
    const old = new Y.Doc();
    appendTable(old, 1, 31);
    await new DatabaseDocumentStore(server.database).append(name, [Y.encodeStateAsUpdate(old)]);
    const writer = track(await connectWriter(url, name, writerToken));
    appendParagraph(writer.doc, 'Still editable');
    await eventually(() => writer.allDurable(), 'the edit next to the old table to be stored');
    expect(writer.closeReasons()).toEqual([]);
    writer.destroy();
    await expectRefused(name, (doc) => appendTable(doc, 31, 1), 'tableSize');
  });

  it('takes an edit that overtook the one before it: the gap is dropped, the sender asked and answers, nothing stays pending', async () => {
    const name = await newNote('Out of order');
    const writer = track(await connectWriter(url, name, writerToken));
    const other = track(await connectWriter(url, name, colleagueToken));
    appendParagraph(writer.doc, 'In order');
    await eventually(() => writer.allDurable(), 'the first edit stored');
    const live = server.collab.documents.get(name)!;
    // Records every time Yjs parks structs in the live document.
    let parked = 0;
    let pendingStructs = live.store.pendingStructs;
    Object.defineProperty(live.store, 'pendingStructs', {
      get: () => pendingStructs,
      set: (value: typeof pendingStructs) => {
        if (value) parked += 1;
        pendingStructs = value;
      },
    });
    // Two edits the provider does not send (made as if it had received them); the second goes alone.
    const updates: Uint8Array[] = [];
    const keep = (update: Uint8Array) => updates.push(update);
    writer.doc.on('update', keep);
    writer.doc.transact(() => appendParagraph(writer.doc, 'Overtaken'), writer.provider);
    writer.doc.transact(() => appendParagraph(writer.doc, 'Overtaking'), writer.provider);
    writer.doc.off('update', keep);
    writer.provider.configuration.websocketProvider.send(
      new OutgoingMessage(name).createSyncMessage().writeUpdate(updates[1]!).toUint8Array(),
    );
    await eventually(() => fragment(other.doc).length === 3 && writer.allDurable(), 'both edits stored and seen');
    expect(parked).toBeGreaterThan(0);
    expect(live.store.pendingStructs).toBeNull();
    expect(writer.closeReasons()).toEqual([]);
    expect(content(other.doc)).toEqual(content(writer.doc));
    expect(await storedContent(name)).toEqual(content(writer.doc));
  });
});

describe('logging refusals', () => {
  /** Opens the note on `socket` (as a tab reopening it does), makes `edit`, and waits for the refusal. */
  async function refusedOn(socket: HocuspocusProviderWebsocket, name: string, edit: (doc: Y.Doc) => unknown): Promise<void> {
    const doc = new Y.Doc();
    const closes: string[] = [];
    let synced = false;
    const provider = new HocuspocusProvider({
      websocketProvider: socket,
      // Each provider its own address on the socket: the one before it, closing, does not close this one.
      sessionAwareness: true,
      name,
      document: doc,
      token: writerToken,
      onSynced: () => {
        synced = true;
      },
      onClose: ({ event }) => {
        closes.push(event.reason);
      },
    });
    provider.attach();
    try {
      await eventually(() => synced, 'the note to open');
      edit(doc);
      await eventually(() => closes.includes(COLLAB_REFUSALS.contentRefused), 'the edit to be refused');
    } finally {
      provider.destroy();
    }
  }

  it('logs a writer who keeps sending what a rule refuses once per socket and rule, at warn, without a stack', async () => {
    const warn = vi.spyOn(server.app.log, 'warn');
    const error = vi.spyOn(server.app.log, 'error');
    // Hocuspocus logs what a hook throws to the console, at error level with its stack.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const refusalLines = () => warn.mock.calls.filter(([, message]) => String(message).startsWith('live update refused'));
    try {
      const name = await newNote('Refused again and again');
      const socket = new HocuspocusProviderWebsocket({ url: `${url.replace(/^http/, 'ws')}${COLLAB_PATH}`, WebSocketPolyfill: WebSocket });
      try {
        for (let i = 0; i < 5; i += 1) await refusedOn(socket, name, (doc) => appendTable(doc, 1, 31));
        expect(refusalLines()).toHaveLength(1);
        expect(refusalLines()[0]![0]).toMatchObject({ documentName: name, rule: 'tableSize' });
        // Another rule on the same socket is news: one more line.
        for (let i = 0; i < 3; i += 1) await refusedOn(socket, name, (doc) => fragment(doc).push([element('script', {})]));
        expect(refusalLines().map(([fields]) => (fields as { rule: string }).rule)).toEqual(['tableSize', 'schema']);
      } finally {
        socket.destroy();
      }
      // Another socket (another tab) is too.
      const other = new HocuspocusProviderWebsocket({ url: `${url.replace(/^http/, 'ws')}${COLLAB_PATH}`, WebSocketPolyfill: WebSocket });
      try {
        await refusedOn(other, name, (doc) => appendTable(doc, 1, 31));
      } finally {
        other.destroy();
      }
      expect(refusalLines()).toHaveLength(3);
      expect(error).not.toHaveBeenCalled();
      expect(consoleError).not.toHaveBeenCalled();
      // No stack: the line carries the rule and where, no error object.
      for (const [fields] of refusalLines())
        expect(Object.keys(fields as object).sort()).toEqual(['blockUid', 'documentName', 'rule', 'socketId', 'userNo']);
    } finally {
      warn.mockRestore();
      error.mockRestore();
      consoleError.mockRestore();
    }
  });
});
