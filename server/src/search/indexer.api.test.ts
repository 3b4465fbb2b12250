import { and, eq } from 'drizzle-orm';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, CONTENT_FIELD, noteDocumentName, type PmNode } from '@eln/shared';
import { documentUpdates, searchQueue, searchUnits } from '../db/schema.js';
import { initialUpdate } from '../seed/demoTemplates.js';
import { startTestServer, type Caller, type TestServer } from '../testing/harness.js';
import { SearchIndexer } from './indexer.js';

let server: TestServer;
let caller: Caller;
let projectNo: number;

beforeAll(async () => {
  server = await startTestServer();
  // The server's own indexer is stopped: each test indexes with an indexer of its own, when it says.
  await server.services.searchIndexer.stop();
  const writer = await server.createUser({ name: 'Writer' });
  caller = await server.as(writer);
  const project = await caller(api.projects.create, {
    title: 'Indexing',
    description: '',
    signatureList: { department: '', user: writer.userId },
  });
  projectNo = project.body.data.projectNo;
});

afterAll(() => server?.stop());

const para = (blockUid: string, text: string): PmNode => ({ type: 'paragraph', attrs: { blockUid }, content: [{ type: 'text', text }] });

async function newNote(title: string): Promise<number> {
  return (await caller(api.notes.create, { projectNo, title })).body.data.labNoteNo;
}

async function store(noteNo: number, update: Uint8Array): Promise<void> {
  await server.database.db.insert(documentUpdates).values({ documentName: noteDocumentName(noteNo), update });
}

/** The note's block units as stored: uid → text. */
async function unitsOf(noteNo: number): Promise<Record<string, string>> {
  const rows = await server.database.db
    .select({ uid: searchUnits.blockUid, text: searchUnits.text })
    .from(searchUnits)
    .where(and(eq(searchUnits.kind, 'note'), eq(searchUnits.recordNo, noteNo)));
  return Object.fromEntries(rows.filter((row) => row.uid !== '').map((row) => [row.uid, row.text]));
}

function recordingLog() {
  const warned: Array<{ details: object; message: string }> = [];
  return {
    warned,
    log: { warn: (details: object, message: string) => void warned.push({ details, message }), error: () => undefined },
  };
}

describe('the search indexer', () => {
  it('follows a note from pass to pass: changed blocks written again, removed ones gone', async () => {
    const noteNo = await newNote('Followed');
    const doc = new Y.Doc();
    Y.applyUpdate(
      doc,
      initialUpdate({
        type: 'doc',
        content: [para('pfollow000000001', 'Ammonium sulfate'), para('pfollow000000002', 'Dialysis overnight')],
      }),
    );
    await store(noteNo, Y.encodeStateAsUpdate(doc));
    const { log } = recordingLog();
    const indexer = new SearchIndexer(server.database.db, log);
    expect(await indexer.indexAll(() => undefined)).toEqual([]);
    expect(await unitsOf(noteNo)).toEqual({ pfollow000000001: 'Ammonium sulfate', pfollow000000002: 'Dialysis overnight' });
    // The first block's text changed and the second block deleted, as an editor would send them.
    const before = Y.encodeStateVector(doc);
    const fragment = doc.getXmlFragment(CONTENT_FIELD);
    const text = (fragment.get(0) as Y.XmlElement).get(0) as Y.XmlText;
    text.delete(0, 'Ammonium'.length);
    text.insert(0, 'Magnesium');
    fragment.delete(1, 1);
    await store(noteNo, Y.encodeStateAsUpdate(doc, before));
    expect(await indexer.indexAll(() => undefined)).toEqual([]);
    expect(await unitsOf(noteNo)).toEqual({ pfollow000000001: 'Magnesium sulfate' });
    // A fresh indexer (nothing kept from before) derives the same.
    await server.database.db.delete(searchUnits).where(eq(searchUnits.recordNo, noteNo));
    await server.database.db.insert(searchQueue).values({ documentName: noteDocumentName(noteNo) });
    expect(await new SearchIndexer(server.database.db, log).indexAll(() => undefined)).toEqual([]);
    expect(await unitsOf(noteNo)).toEqual({ pfollow000000001: 'Magnesium sulfate' });
  });

  it('indexes the rest of a batch when one document cannot be indexed, which stays queued and is logged', async () => {
    const broken = await newNote('Broken');
    const sound = await newNote('Sound');
    await store(broken, new Uint8Array([1, 2, 3]));
    await store(sound, initialUpdate({ type: 'doc', content: [para('psound0000000001', 'Quokka census')] }));
    const { log, warned } = recordingLog();
    const failed = await new SearchIndexer(server.database.db, log).indexAll(() => undefined);
    expect(failed).toEqual([noteDocumentName(broken)]);
    expect(await unitsOf(sound)).toEqual({ psound0000000001: 'Quokka census' });
    expect(warned).toEqual([
      {
        details: expect.objectContaining({ documentName: noteDocumentName(broken) }),
        message: 'search: a document could not be indexed; queued again',
      },
    ]);
    const queued = await server.database.db.select({ name: searchQueue.documentName }).from(searchQueue);
    expect(queued).toEqual([{ name: noteDocumentName(broken) }]);
    await server.database.db.delete(searchQueue);
  });
});
