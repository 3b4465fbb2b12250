import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import * as Y from 'yjs';
import { api, CONTENT_FIELD, noteDocumentName, type CallInput, type CallSpec } from '@eln/shared';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { bootstrap } from '../../server/src/system/bootstrap.js';
import { appendParagraph, appendTable, connectWriter, eventually, type LiveClient } from '../../server/src/testing/live.js';
import { callOver } from './calls.js';
import { freshPostgres, percentile, printTable } from './database.js';

/**
 * Server time of the note history's calls on PostgreSQL, on a note with a 30 x 30 table and 20 text
 * blocks saved VERSIONS times through `/note/save` (each save after a keystroke in one paragraph, every
 * tenth also in a table cell, so each version's change summary is the save's own): the version list of
 * its VERSIONS versions, and comparisons of two of its versions and of a version with the live document.
 * CALLS calls of each after WARM_UP; the time is the server's, from the request's whole arrival to the
 * last byte of its answer handed to the socket.
 */
const VERSIONS = 500;
const CALLS = 200;
const WARM_UP = 20;
const GOAL_P99_MS = 50;
const PASSWORD = 'bench-writer-password';

const TIMED_PATHS = new Set([api.noteHistory.list.path, api.noteHistory.compare.path].map((path) => `/server${path}`));

/** Records the span of every history call the server answers, by path. */
function timeHistoryCalls(server: import('node:http').Server): Map<string, number[]> {
  const spans = new Map<string, number[]>();
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '';
    if (!TIMED_PATHS.has(url)) return;
    let start = 0;
    request.once('end', () => (start = performance.now()));
    response.once('finish', () => spans.set(url, [...(spans.get(url) ?? []), performance.now() - start]));
  });
  return spans;
}

const ms = (values: number[], p: number) =>
  Number(
    percentile(
      [...values].sort((a, b) => a - b),
      p,
    ).toFixed(2),
  );

/** Types a character at the end of the text at `path` (indexes from the document's top). */
function keystroke(writer: LiveClient, path: number[], character: string): void {
  let node: Y.XmlElement | Y.XmlFragment = writer.doc.getXmlFragment(CONTENT_FIELD);
  for (const index of path) node = node.get(index) as Y.XmlElement;
  const text = node.get(0) as Y.XmlText;
  text.insert(text.length, character);
}

export async function noteHistoryBench(): Promise<void> {
  const target = await freshPostgres();
  const database = await openDatabase({ kind: 'postgres', url: target.url });
  const config = loadConfig({ LOG_LEVEL: 'silent', ELN_ADMIN_PASSWORD: 'bench-admin-password', CLIENT_DIST: '/nonexistent' });
  const app = await buildApp(config, database);
  let writer: LiveClient | null = null;
  try {
    await bootstrap(database.db, config);
    const url = await app.app.listen({ port: 0, host: '127.0.0.1' });
    const call = <C extends CallSpec>(spec: C, body: CallInput<C>, token?: string) => callOver(url, spec, body, token);
    const admin = (await call(api.auth.signIn, { userId: config.admin.email, password: 'bench-admin-password' })).accessToken;
    const userId = 'writer@bench.test';
    const auth = { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } as const;
    await call(api.users.create, { userId, name: 'Writer', password: PASSWORD, auth }, admin);
    const token = (await call(api.auth.signIn, { userId, password: PASSWORD })).accessToken;
    const { projectNo } = await call(api.projects.create, { title: 'Bench', signatureList: { department: '', user: userId } }, token);
    const { labNoteNo } = await call(api.notes.create, { projectNo, title: 'Big note' }, token);

    writer = await connectWriter(url, noteDocumentName(labNoteNo), token);
    appendTable(writer.doc, 30, 30);
    for (let i = 0; i < 20; i += 1)
      appendParagraph(writer.doc, `Observation ${i}: the solution turned pale yellow after ${i} minutes at 37 °C.`);
    const seeded = performance.now();
    for (let version = 0; version < VERSIONS; version += 1) {
      if (version > 0) {
        keystroke(writer, [1 + (version % 20)], String.fromCharCode(97 + (version % 26)));
        if (version % 10 === 0) keystroke(writer, [0, version % 30, (version * 7) % 30, 0], '!');
      }
      const live = writer;
      await eventually(() => live.allDurable(), 'the edit to be stored', 30_000);
      await call(api.notes.saveVersion, { labNoteNo, version, blockList: [] }, token);
    }
    const seedSeconds = ((performance.now() - seeded) / 1000).toFixed(1);
    // An unsaved keystroke, so that the live document differs from the last version.
    keystroke(writer, [5], 'z');
    const live = writer;
    await eventually(() => live.allDurable(), 'the unsaved edit to be stored', 30_000);

    const spans = timeHistoryCalls(app.app.server);
    const cases: Array<[string, () => Promise<unknown>, string]> = [
      [`version list (${VERSIONS} versions)`, () => call(api.noteHistory.list, { labNoteNo }, token), api.noteHistory.list.path],
      [
        `compare v${VERSIONS - 1} → v${VERSIONS} (one paragraph changed)`,
        () => call(api.noteHistory.compare, { labNoteNo, from: VERSIONS - 1, to: VERSIONS }, token),
        api.noteHistory.compare.path,
      ],
      [
        `compare v1 → v${VERSIONS} (every paragraph and ${VERSIONS / 10 - 1} cells changed)`,
        () => call(api.noteHistory.compare, { labNoteNo, from: 1, to: VERSIONS }, token),
        api.noteHistory.compare.path,
      ],
      [`compare v1 → live`, () => call(api.noteHistory.compare, { labNoteNo, from: 1, to: 'live' }, token), api.noteHistory.compare.path],
    ];
    const rows: Array<Record<string, string | number>> = [];
    for (const [label, run, path] of cases) {
      spans.clear();
      for (let i = 0; i < WARM_UP + CALLS; i += 1) await run();
      const timed = (spans.get(`/server${path}`) ?? []).slice(WARM_UP);
      if (timed.length !== CALLS) throw new Error(`${label}: ${timed.length} calls timed, ${CALLS} expected`);
      const p99 = ms(timed, 99);
      rows.push({
        case: label,
        calls: timed.length,
        'p50 ms': ms(timed, 50),
        'p99 ms': p99,
        'max ms': ms(timed, 100),
        goal: `p99 ≤ ${GOAL_P99_MS} ms`,
        met: p99 <= GOAL_P99_MS ? 'yes' : 'NO',
      });
    }
    printTable(
      `Note history server time, 30x30 table + 20 text blocks saved ${VERSIONS} times (seeding took ${seedSeconds} s), PostgreSQL, ${CALLS} calls after ${WARM_UP} warm-up each`,
      rows,
    );
  } finally {
    writer?.destroy();
    await app.close();
    await database.close();
    await target.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await noteHistoryBench();
  process.exit(0);
}
