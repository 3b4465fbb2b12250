import { performance } from 'node:perf_hooks';
import * as Y from 'yjs';
import { CONTENT_FIELD, noteDocumentName, type SaveAnswer, type SignInAnswer, type TempAnswer } from '@eln/shared';
import { buildApp, type App } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { bootstrap } from '../../server/src/system/bootstrap.js';
import { appendParagraph, appendTable, connectWriter, eventually, type LiveClient } from '../../server/src/testing/live.js';
import { freshPostgres, percentile, printTable } from './database.js';

/**
 * Server time of `/note/temp` on a note with a 30 x 30 table and 20 text blocks, saved once as a version
 * (so every call compares with the saved blocks), on PostgreSQL: CALLS calls after WARM_UP, with
 * nothing changed between calls, with a keystroke in a text block before each, and with a keystroke in a
 * table cell before each (the edit reaches the server before the call is timed).
 */
const CALLS = 300;
const WARM_UP = 30;
const GOAL_P99_MS = 15;

interface Bench {
  app: App;
  labNoteNo: number;
  token: string;
  writer: LiveClient;
}

async function call<T>(app: App, path: string, body: unknown, token?: string, took?: (ms: number) => void): Promise<T> {
  const start = performance.now();
  const response = await app.app.inject({ method: 'POST', url: `/server${path}`, payload: body as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
  // Server time: until the answer is out, before this client parses it.
  took?.(performance.now() - start);
  const answer = response.json<{ status: string; data: T }>();
  if (answer.status !== '0000') throw new Error(`${path}: ${response.body}`);
  return answer.data;
}

/** Text of the server's copy of a top-level block's text (where the keystrokes go), to wait for them. */
function serverText(app: App, name: string, path: number[]): string {
  let node: Y.XmlElement | Y.XmlFragment | undefined = app.collab.documents.get(name)?.getXmlFragment(CONTENT_FIELD);
  for (const index of path) node = node?.get(index) as Y.XmlElement | undefined;
  return (node?.get(0) as Y.XmlText | undefined)?.toString() ?? '';
}

async function timedCalls(bench: Bench, edit: ((i: number) => Promise<void>) | null): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + CALLS; i += 1) {
    if (edit) await edit(i);
    await call<TempAnswer>(bench.app, '/v1/project/note/temp', { labNoteNo: bench.labNoteNo, blockList: [] }, bench.token, (ms) => {
      if (i >= WARM_UP) times.push(ms);
    });
  }
  return times;
}

/** Types one character at the end of the text at `path` and waits until the server's copy has it. */
function keystroke(bench: Bench, path: number[]) {
  const name = noteDocumentName(bench.labNoteNo);
  return async (i: number) => {
    let node: Y.XmlElement | Y.XmlFragment = bench.writer.doc.getXmlFragment(CONTENT_FIELD);
    for (const index of path) node = node.get(index) as Y.XmlElement;
    const text = node.get(0) as Y.XmlText;
    text.insert(text.length, String.fromCharCode(97 + (i % 26)));
    const expected = text.toString();
    await eventually(() => serverText(bench.app, name, path) === expected, 'the keystroke to reach the server');
  };
}

async function setUp(): Promise<{ bench: Bench; stop: () => Promise<void> }> {
  const target = await freshPostgres();
  const database = await openDatabase({ kind: 'postgres', url: target.url });
  const config = loadConfig({ LOG_LEVEL: 'silent', ELN_ADMIN_PASSWORD: 'bench-admin-password', CLIENT_DIST: '/nonexistent' });
  const app = await buildApp(config, database);
  await bootstrap(database.db, config);
  const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = (await call<SignInAnswer>(app, '/v1/user/signIn', { userId: config.admin.email, password: 'bench-admin-password' })).accessToken;
  const userId = 'writer@bench.test';
  await call(app, '/v1/admin/user/create', { userId, name: 'Writer', password: 'bench-writer-password', auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } }, admin);
  const token = (await call<SignInAnswer>(app, '/v1/user/signIn', { userId, password: 'bench-writer-password' })).accessToken;
  const { projectNo } = await call<{ projectNo: number }>(app, '/v1/project/create', { title: 'Bench', signatureList: { department: '', user: userId } }, token);
  const { labNoteNo } = await call<{ labNoteNo: number }>(app, '/v1/project/note/create', { projectNo, title: 'Big note' }, token);
  const writer = await connectWriter(address, noteDocumentName(labNoteNo), token);
  appendTable(writer.doc, 30, 30);
  for (let i = 0; i < 20; i += 1) appendParagraph(writer.doc, `Observation ${i}: the solution turned pale yellow after ${i} minutes at 37 °C.`);
  await eventually(() => writer.allDurable(), 'the note to be stored', 30_000);
  await call<SaveAnswer>(app, '/v1/project/note/save', { labNoteNo, version: 0, blockList: [] }, token);
  return {
    bench: { app, labNoteNo, token, writer },
    async stop() {
      writer.destroy();
      await app.close();
      await database.close();
      await target.drop();
    },
  };
}

const ms = (values: number[], p: number) => Number(percentile([...values].sort((a, b) => a - b), p).toFixed(2));

export async function tempSaveBench(): Promise<void> {
  const { bench, stop } = await setUp();
  try {
    const cases: Array<[string, ((i: number) => Promise<void>) | null]> = [
      ['nothing changed between calls', null],
      ['a keystroke in a text block before each call', keystroke(bench, [1])],
      ['a keystroke in a table cell before each call', keystroke(bench, [0, 14, 14, 0])],
    ];
    const rows: Array<Record<string, string | number>> = [];
    for (const [label, edit] of cases) {
      const times = await timedCalls(bench, edit);
      const p99 = ms(times, 99);
      rows.push({ case: label, calls: times.length, 'p50 ms': ms(times, 50), 'p99 ms': p99, 'max ms': ms(times, 100), goal: `p99 ≤ ${GOAL_P99_MS} ms`, met: p99 <= GOAL_P99_MS ? 'yes' : 'NO' });
    }
    printTable(`Temp save server time (/note/temp), 30x30 table + 20 text blocks, saved once, PostgreSQL, ${CALLS} calls after ${WARM_UP} warm-up`, rows);
  } finally {
    await stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await tempSaveBench();
  process.exit(0);
}
