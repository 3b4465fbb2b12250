import { execFileSync, spawn } from 'node:child_process';
import { and, eq, sql } from 'drizzle-orm';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, noteDocumentName } from '@eln/shared';
import { openDatabase, rawRows, type Database } from '../db/client.js';
import { documentUpdates, searchQueue, searchUnits } from '../db/schema.js';
import { initialUpdate } from '../seed/demoTemplates.js';
import { startTestServer, testDatabaseTarget, type TestServer } from '../testing/harness.js';
import { appendParagraph, eventually } from '../testing/live.js';
import { SearchIndexer } from './indexer.js';

/**
 * Several server processes share one index (issue 46): each runs its own indexer on its own connections,
 * they take entries from one queue, and an update stored while another process indexes its document is
 * indexed again. Here two indexers stand for two processes, each on a pool of its own, as a process has.
 */
const NOTES = 40;
const silent = { warn: () => undefined, error: () => undefined };

let server: TestServer;
let seed: Database;
let processes: Database[];
let drop: () => Promise<void>;
let url: string;
const noteNos: number[] = [];

beforeAll(async () => {
  const target = await testDatabaseTarget();
  if (target.target.kind !== 'postgres') throw new Error('this suite needs PostgreSQL (ELN_TEST_DB=postgres with TEST_DATABASE_URL)');
  drop = target.drop;
  url = target.target.url;
  seed = await openDatabase(target.target);
  processes = [await openDatabase(target.target), await openDatabase(target.target)];
  server = await startTestServer({ database: seed });
  // The test server's own indexer would take the queue's entries: only the two under test index here.
  await server.services.searchIndexer.stop();
  const writer = await server.createUser({ name: 'Shared index writer', auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } });
  const caller = await server.as(writer);
  const project = await caller(api.projects.create, {
    title: 'Shared index',
    description: '',
    signatureList: { department: '', user: writer.userId },
  });
  for (let i = 0; i < NOTES; i += 1) {
    const note = await caller(api.notes.create, { projectNo: project.body.data.projectNo, title: `Shared note ${i}` });
    noteNos.push(note.body.data.labNoteNo);
  }
});

afterAll(async () => {
  await server?.stop();
  await Promise.all((processes ?? []).map((database) => database.close()));
  await seed?.close();
  await drop?.();
});

/** Stores an update of a note's live document, as a live process does (the trigger queues it). */
async function store(noteNo: number, update: Uint8Array): Promise<void> {
  await seed.db.insert(documentUpdates).values({ documentName: noteDocumentName(noteNo), update });
}

/** The texts the index holds for a note's blocks, by block uid. */
async function indexedTexts(noteNo: number): Promise<Map<string, string>> {
  const rows = await seed.db
    .select({ blockUid: searchUnits.blockUid, text: searchUnits.text })
    .from(searchUnits)
    .where(and(eq(searchUnits.kind, 'note'), eq(searchUnits.recordNo, noteNo)));
  return new Map(rows.filter((row) => row.blockUid !== '').map((row) => [row.blockUid, row.text]));
}

describe('one index, several processes', () => {
  it('two indexers share the queue, and every update stored meanwhile, also under one’s own pass, ends indexed', async () => {
    const docs = noteNos.map((noteNo, i) => {
      const doc = new Y.Doc();
      const first = initialUpdate({
        type: 'doc',
        content: [
          { type: 'paragraph', attrs: { blockUid: `shrd${String(i).padStart(12, '0')}` }, content: [{ type: 'text', text: `alpha ${i}` }] },
        ],
      });
      Y.applyUpdate(doc, first);
      return { noteNo, doc, first };
    });
    await Promise.all(docs.map(({ noteNo, first }) => store(noteNo, first)));
    const indexers = processes.map((database) => new SearchIndexer(database.db, silent));
    indexers.forEach((indexer) => indexer.start());
    try {
      // Second and third rounds land while the indexers work: each is a new update of the same documents.
      for (const round of ['beta', 'gamma']) {
        for (const [i, { noteNo, doc }] of docs.entries()) {
          const before = Y.encodeStateVector(doc);
          appendParagraph(doc, `${round} ${i}`, `${round.slice(0, 4)}${String(i).padStart(12, '0')}`);
          await store(noteNo, Y.encodeStateAsUpdate(doc, before));
        }
      }
      await eventually(
        async () => (await seed.db.select().from(searchQueue)).length === 0,
        'the queue drained by the two indexers',
        30_000,
      );
    } finally {
      await Promise.all(indexers.map((indexer) => indexer.stop()));
    }
    for (const [i, { noteNo }] of docs.entries()) {
      const texts = [...(await indexedTexts(noteNo)).values()].sort();
      expect(texts, `note ${i}`).toEqual([`alpha ${i}`, `beta ${i}`, `gamma ${i}`]);
    }
    // Each block of each note is one row: two processes indexing the same document never doubled one.
    const [counted] = await rawRows<{ rows: number }>(
      seed.db,
      sql`select count(*)::int as rows from search_units where kind = 'note' and block_uid <> ''`,
    );
    expect(counted?.rows).toBe(NOTES * 3);
  });

  it('a process killed in the middle of indexing a document leaves it queued: another process indexes it, nothing half-written stays', async () => {
    const noteNo = noteNos[0]!;
    const documentName = noteDocumentName(noteNo);
    await store(
      noteNo,
      initialUpdate({
        type: 'doc',
        content: [{ type: 'paragraph', attrs: { blockUid: 'dlta000000000000' }, content: [{ type: 'text', text: 'delta zero' }] }],
      }),
    );
    // The dying process, a real one (psql): it holds the document's indexing lock, has removed the note's
    // rows and taken its queue entry, and is killed (SIGKILL) before it commits. Its server backend notices
    // the lost client within 100 ms and rolls back.
    try {
      execFileSync('psql', ['--version']);
    } catch {
      throw new Error('this test needs psql, the PostgreSQL client (Debian package postgresql-client), to play the dying process');
    }
    const lockKey = `search:${documentName}`;
    const dying = spawn(
      'psql',
      [
        url,
        '-v',
        'ON_ERROR_STOP=1',
        '-c',
        `set client_connection_check_interval = 100; begin;
         select pg_advisory_xact_lock(hashtext('${lockKey}'));
         delete from search_units where kind = 'note' and record_no = ${noteNo};
         delete from search_queue where document_name = '${documentName}';
         select pg_sleep(60); commit;`,
      ],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => dying.once('exit', resolve));
    const survivor = new SearchIndexer(processes[1]!.db, silent);
    try {
      await eventually(async () => {
        const [sleeping] = await rawRows<{ n: number }>(
          seed.db,
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'psql' and state = 'active' and wait_event = 'PgSleep'`,
        );
        return sleeping?.n === 1;
      }, 'the dying process to hold the lock');
      survivor.start();
      // The survivor waits on the lock meanwhile; then the process dies.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await seed.db.select().from(searchQueue)).map((entry) => entry.documentName)).toContain(documentName);
      dying.kill('SIGKILL');
      await exited;
      await eventually(async () => (await seed.db.select().from(searchQueue)).length === 0, 'the queue drained by the survivor', 30_000);
    } finally {
      dying.kill('SIGKILL');
      await survivor.stop();
    }
    expect([...(await indexedTexts(noteNo)).values()].sort()).toEqual(['alpha 0', 'beta 0', 'delta zero', 'gamma 0']);
    expect((await indexedTexts(noteNos[1]!)).size).toBe(3);
  });
});
