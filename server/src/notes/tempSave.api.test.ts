import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import * as Y from 'yjs';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import { api, CONTENT_FIELD, docToBlocks, docToSavedBlocks, noteDocumentName, type Block, type PmNode, type SavedBlock } from '@eln/shared';
import { rawRows } from '../db/client.js';
import { readDraft, storeDraft } from './drafts.js';
import { startTestServer, type Caller, type TestServer } from '../testing/harness.js';
import { appendParagraph, appendTable, connectWriter, eventually, type LiveClient } from '../testing/live.js';

/**
 * /note/temp keeps what it derived per unchanged block between calls: whatever was kept, the draft it
 * stores is exactly what the live document holds at the call, as derived from scratch, after edits of
 * every kind between calls, after a version is saved, and after the document was unloaded and reloaded.
 */
let server: TestServer;
let url: string;
let token: string;
let caller: Caller;
let labNoteNo: number;
let name: string;
const clients: LiveClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  url = await server.listen();
  const writer = await server.createUser({ name: 'Writer Temp' });
  token = (await server.signIn(writer.userId, writer.password)).accessToken;
  caller = await server.as(writer);
  const project = await caller(api.projects.create, {
    title: 'Temp saves',
    signatureList: { department: '', user: writer.userId },
  });
  const created = await caller(api.notes.create, {
    projectNo: project.body.data.projectNo,
    title: 'Drafted',
  });
  labNoteNo = created.body.data.labNoteNo;
  name = noteDocumentName(labNoteNo);
});
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});
afterAll(async () => {
  await server?.stop();
});

const json = (doc: Y.Doc) => yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(CONTENT_FIELD)) as PmNode;
const fragment = (doc: Y.Doc) => doc.getXmlFragment(CONTENT_FIELD);
const tableOf = (doc: Y.Doc) =>
  fragment(doc)
    .toArray()
    .find((node) => node instanceof Y.XmlElement && node.nodeName === 'table') as Y.XmlElement;
const cellOf = (doc: Y.Doc, row: number, column: number) => (tableOf(doc).get(row) as Y.XmlElement).get(column) as Y.XmlElement;
const cellText = (doc: Y.Doc, row: number, column: number) => (cellOf(doc, row, column).get(0) as Y.XmlElement).get(0) as Y.XmlText;

async function open(): Promise<LiveClient> {
  const client = await connectWriter(url, name, token);
  clients.push(client);
  return client;
}

/** Temp-saves once the writer's edits are stored; expects the answer and the stored draft to be `expected`. */
async function expectDraft(writer: LiveClient, expected: () => Block[]): Promise<void> {
  await eventually(() => writer.allDurable(), 'the edits to be stored');
  const answer = await caller(api.notes.saveDraft, { labNoteNo, blockList: expected() });
  expect(answer.body.status).toBe('0000');
  expect(answer.body.data.blockStatuses).toEqual(expected().map(({ blockUid, blockStatus }) => ({ blockUid, blockStatus })));
  expect((await readDraft(server.database.db, labNoteNo))?.blocks).toEqual(expected());
  // The server's own copy, derived from scratch, holds the same.
  const live = server.collab.documents.get(name);
  if (live) expect(docToBlocks(json(live), 'LABNOTE', savedBlocks)).toEqual(expected());
}

let savedBlocks: SavedBlock[] = [];

async function storedDraft() {
  const draft = await readDraft(server.database.db, labNoteNo);
  if (!draft) throw new Error('no draft is stored');
  return draft;
}

describe('temp save', () => {
  it('stores exactly what the live document holds, after every kind of edit between calls and after a reload', async () => {
    const writer = await open();
    const fromScratch = () => docToBlocks(json(writer.doc), 'LABNOTE', savedBlocks);
    appendTable(writer.doc, 6, 6);
    for (let i = 0; i < 5; i += 1) appendParagraph(writer.doc, `Observation ${i}`);
    await expectDraft(writer, fromScratch);
    // Nothing changed: the same again; only the draft's time moves (its blocks are not written again).
    const first = await storedDraft();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expectDraft(writer, fromScratch);
    const again = await storedDraft();
    expect(again.blocksKey).toBe(first.blocksKey);
    expect(again.savedAt.getTime()).toBeGreaterThan(first.savedAt.getTime());
    // Typing in a cell, then in a paragraph.
    cellText(writer.doc, 3, 4).insert(0, 'pH ');
    await expectDraft(writer, fromScratch);
    expect((await storedDraft()).blocksKey).not.toBe(first.blocksKey);
    ((fragment(writer.doc).get(2) as Y.XmlElement).get(0) as Y.XmlText).insert(0, 'Late: ');
    await expectDraft(writer, fromScratch);
    // Formatting, a new block at the top, a deleted block, a changed attribute.
    ((fragment(writer.doc).get(1) as Y.XmlElement).get(0) as Y.XmlText).format(0, 4, { bold: true });
    const heading = new Y.XmlElement('heading');
    heading.setAttribute('level', 2 as unknown as string);
    heading.insert(0, [new Y.XmlText('Results')]);
    fragment(writer.doc).insert(0, [heading]);
    await expectDraft(writer, fromScratch);
    fragment(writer.doc).delete(3, 1);
    // A cell's dropbox as the server hands it out (sealed), the only kind the guard lets in.
    const reagents = server.services.catalogueSeals.seal('dropboxCell', { dropboxNo: 1, title: 'Reagents', code: null, name: null });
    cellOf(writer.doc, 2, 1).setAttribute('dropbox', reagents as unknown as string);
    await expectDraft(writer, fromScratch);

    // A version: statuses now compare with it, and an edit turns one block EDIT, a new one ADD, a gone one DELETE.
    const saved = await caller(api.notes.saveVersion, { labNoteNo, version: 0, blockList: fromScratch() });
    expect(saved.body.status).toBe('0000');
    savedBlocks = docToSavedBlocks(json(writer.doc), 'LABNOTE');
    await expectDraft(writer, fromScratch);
    cellText(writer.doc, 1, 1).insert(0, 'x');
    appendParagraph(writer.doc, 'After the version');
    fragment(writer.doc).delete(fragment(writer.doc).length - 3, 1);
    await expectDraft(writer, fromScratch);
    expect(
      fromScratch()
        .map((block) => block.blockStatus)
        .sort(),
    ).toEqual(['ADD', 'DELETE', 'EDIT', 'NORMAL', 'NORMAL', 'NORMAL', 'NORMAL'].sort());

    // Reload: every editor gone, the server unloads the document; the draft comes from the stored state.
    const expectedAfterReload = fromScratch();
    writer.destroy();
    await eventually(() => !server.collab.documents.has(name), 'the document to be unloaded');
    await expectDraft(writer, () => expectedAfterReload);
    // Reopened: the fresh live copy is followed from scratch, and edits show at once.
    const reopened = await open();
    expect(docToBlocks(json(reopened.doc), 'LABNOTE', savedBlocks)).toEqual(expectedAfterReload);
    await expectDraft(reopened, () => docToBlocks(json(reopened.doc), 'LABNOTE', savedBlocks));
    cellText(reopened.doc, 5, 5).insert(0, 'reloaded ');
    fragment(reopened.doc).delete(1, 1);
    await expectDraft(reopened, () => docToBlocks(json(reopened.doc), 'LABNOTE', savedBlocks));
  });

  it('rewrites only the blocks that changed, and the whole draft when another server wrote it', async () => {
    const writer = await open();
    const fromScratch = () => docToBlocks(json(writer.doc), 'LABNOTE', savedBlocks);
    const rowVersions = async () =>
      rawRows<{ position: number; xmin: string }>(
        server.database.db,
        sql`select position, xmin::text as xmin from note_draft_blocks where note_no = ${labNoteNo} order by position`,
      );
    await expectDraft(writer, fromScratch);
    const before = await rowVersions();
    expect(before.length).toBe(fromScratch().length);

    // A keystroke in the second paragraph: that row alone is written again.
    const target = fragment(writer.doc).length - 2;
    ((fragment(writer.doc).get(target) as Y.XmlElement).get(0) as Y.XmlText).insert(0, 'Typed ');
    await expectDraft(writer, fromScratch);
    const after = await rowVersions();
    expect(after.filter((row, i) => row.xmin !== before[i]!.xmin).map((row) => row.position)).toEqual([target]);

    // Another server stores a different draft (its own key): this one no longer knows what is stored and writes it whole.
    await server.database.db.execute(sql`update note_draft_blocks set block_deflated = decode('00', 'hex') where note_no = ${labNoteNo}`);
    await server.database.db.execute(sql`update note_drafts set blocks_key = 'written-elsewhere' where note_no = ${labNoteNo}`);
    await expectDraft(writer, fromScratch);
    expect((await storedDraft()).blocksKey).not.toBe('written-elsewhere');

    // A shorter note drops the rows past its end, and writes again only the positions whose block changed
    // (a whole rewrite, after a statement that matched nothing, would write every row anew).
    const beforeTrim = { rows: await rowVersions(), blocks: fromScratch() };
    fragment(writer.doc).delete(fragment(writer.doc).length - 2, 2);
    await expectDraft(writer, fromScratch);
    const unchanged = fromScratch().map((block, i) => JSON.stringify(block) === JSON.stringify(beforeTrim.blocks[i]));
    expect(unchanged).toContain(true);
    expect((await rowVersions()).map((row, i) => row.xmin === beforeTrim.rows[i]!.xmin)).toEqual(unchanged);
    // A list that only lost its last block: nothing to write, the row past the end dropped, the others kept.
    const list = fromScratch();
    await storeDraft(server.services.draftsDb, labNoteNo, list, 1, new Date());
    const whole = await rowVersions();
    await storeDraft(server.services.draftsDb, labNoteNo, list.slice(0, -1), 1, new Date());
    expect(await rowVersions()).toEqual(whole.slice(0, -1));
    expect((await storedDraft()).blocks).toEqual(list.slice(0, -1));
  });

  it('two saves racing from the same stored draft leave one of them whole, never a mix of the two', async () => {
    const writer = await open();
    await expectDraft(writer, () => docToBlocks(json(writer.doc), 'LABNOTE', savedBlocks));
    const stored = docToBlocks(json(writer.doc), 'LABNOTE', savedBlocks);
    expect(stored.length).toBeGreaterThan(2);
    // Each changes a different block; one also grows the list, so the two cannot both be partly applied unseen.
    const edited = (position: number, text: string): Block[] =>
      stored.map((block, i) =>
        i === position ? { ...block, content: JSON.stringify({ type: 'paragraph', content: [{ type: 'text', text }] }) } : block,
      );
    const first = edited(0, 'first racer');
    const second = [...edited(stored.length - 1, 'second racer'), { ...stored[stored.length - 1]!, blockUid: 'racer-added' }];
    for (let round = 0; round < 5; round += 1) {
      await storeDraft(server.services.draftsDb, labNoteNo, stored, 1, new Date());
      await Promise.all([
        storeDraft(server.services.draftsDb, labNoteNo, first, 1, new Date()),
        storeDraft(server.services.draftsDb, labNoteNo, second, 1, new Date()),
      ]);
      const draft = await storedDraft();
      expect([first, second]).toContainEqual(draft.blocks);
      // The list is written under its key: the next change from here is written as changed blocks and still reads back whole.
      const next = draft.blocks.map((block, i) =>
        i === 1 ? { ...block, content: JSON.stringify({ type: 'paragraph', content: [{ type: 'text', text: `round ${round}` }] }) } : block,
      );
      await storeDraft(server.services.draftsDb, labNoteNo, next, 1, new Date());
      expect((await storedDraft()).blocks).toEqual(next);
    }
  });

  it('keeps each block as its fields, a line break and its content as is, and reads drafts stored as whole blocks', async () => {
    const cell = (text: string) => ({
      type: 'tableCell',
      attrs: { colspan: 1, rowspan: 1 },
      content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
    });
    const doc: PmNode = {
      type: 'doc',
      content: [
        {
          type: 'table',
          attrs: { blockUid: 'draft-table' },
          content: [{ type: 'tableRow', content: [cell('pH "7.4"'), cell('line\nbreak')] }],
        },
        { type: 'paragraph', attrs: { blockUid: 'draft-text' }, content: [{ type: 'text', text: 'a "quoted"\nline \\ and {braces}' }] },
      ],
    };
    // A deleted block is the saved version's, its table as that version stored it (here not what its content derives).
    const deleted: Block = {
      ...docToBlocks(doc, 'LABNOTE', [])[0]!,
      blockUid: 'draft-deleted',
      blockStatus: 'DELETE',
      blockTable: { header: [], body: [[{ text: 'as stored then', colspan: 1, rowspan: 1, dropbox: null }]] },
    };
    const blocks = [...docToBlocks(doc, 'LABNOTE', []), deleted];
    expect(blocks[0]!.blockTable).not.toBeNull();
    await storeDraft(server.services.draftsDb, labNoteNo, blocks, 1, new Date());
    const rows = await rawRows<{ position: number; text: string }>(
      server.database.db,
      sql`select position, encode(block_deflated, 'base64') as text from note_draft_blocks where note_no = ${labNoteNo} order by position`,
    );
    const stored = rows.map((row) => inflateRawSync(Buffer.from(row.text, 'base64')).toString('utf8'));
    // Its content once, unescaped, after one line of its other fields; its table, derived from the content, not at all
    // (but a deleted block's).
    const header = ({ content: _content, blockTable, ...fields }: Block) =>
      fields.blockStatus === 'DELETE' ? { ...fields, blockTable } : fields;
    expect(stored).toEqual(blocks.map((block) => `${JSON.stringify(header(block))}\n${block.content}`));
    expect((await storedDraft()).blocks).toEqual(blocks);

    // Rows written before this format, each the whole block's JSON, read back the same.
    for (const [position, block] of blocks.entries()) {
      const whole = deflateRawSync(JSON.stringify(block)).toString('base64');
      await server.database.db.execute(
        sql`update note_draft_blocks set block_deflated = decode(${whole}, 'base64') where note_no = ${labNoteNo} and position = ${position}`,
      );
    }
    expect((await storedDraft()).blocks).toEqual(blocks);
  });

  it('writes drafts through connections whose commits do not wait for the disk, and nothing else', async () => {
    const setting = async (db: typeof server.database.db) =>
      (await rawRows<{ synchronous_commit: string }>(db, sql`show synchronous_commit`))[0]!.synchronous_commit;
    if (server.database.engine === 'pglite') {
      // Embedded: one connection, whose commits are PGlite's own.
      expect(server.database.derivedRows).toBe(server.database.db);
      return;
    }
    expect(await setting(server.database.derivedRows)).toBe('off');
    expect(await setting(server.database.db)).toBe('on');
  });
});
