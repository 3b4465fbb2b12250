import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { api } from '@eln/shared';
import { buildApp, type App } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { bootstrap } from '../../server/src/system/bootstrap.js';
import { injectCall } from './calls.js';
import { freshPostgres, percentile, printTable } from './database.js';
import { ForkedHelper } from './forked.js';
import type { ChildMessage, EditKind, ParentMessage } from './tempSaveWriter.js';

/**
 * Server time of `/note/temp` on a note with a 30 x 30 table and 20 text blocks, saved once as a version
 * (so every call compares with the saved blocks), on PostgreSQL: CALLS calls after WARM_UP, with
 * nothing changed between calls, with a keystroke in a text block before each, and with a keystroke in a
 * table cell before each (stored before the call). The writer runs in a forked process and sends its
 * own block list with every call, as the editor does; the time is the server's, from the request's
 * whole arrival to the last byte of its answer handed to the socket.
 */
const CALLS = 300;
const WARM_UP = 30;
const GOAL_P99_MS = 15;
const TEMP_URL = `/server${api.notes.saveDraft.path}`;
/** The writer yields the CPU to the server and the database (its block lists cost more than the call). */
const WRITER_NICENESS = 10;
const WRITER_MODULE = fileURLToPath(new URL('./tempSaveWriter.ts', import.meta.url));

/** One temp save's span on the server's clock: from its request's last byte to its answer's. */
interface Span {
  start: number;
  end: number;
}

/**
 * Records the span of every temp save the app answers: from the arrival of the request's last byte (so
 * how fast the writer sends is not counted; parsing it is) to the answer's last byte handed to the socket.
 */
function timeTempSaves(app: App): Span[] {
  const spans: Span[] = [];
  app.app.server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.url !== TEMP_URL) return;
    let start = 0;
    request.once('end', () => (start = performance.now()));
    response.once('finish', () => spans.push({ start, end: performance.now() }));
  });
  return spans;
}

/**
 * The garbage collector's pauses on the server's thread, as Node reports them: the slowest temp saves
 * are mostly the ones a collection lands on, so the table says how many of the slowest 1% held one.
 */
function recordCollections(): { pauses: Span[]; stop(): void } {
  const pauses: Span[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  return { pauses, stop: () => observer.disconnect() };
}

/** How many of the slowest 1% of `spans` a collection paused in, and those pauses' time in them. */
function collectionsInSlowest(spans: Span[], pauses: Span[]): string {
  const slowest = [...spans].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, Math.max(1, Math.ceil(spans.length / 100)));
  const pausedMs = slowest.map((span) =>
    pauses.reduce((sum, pause) => sum + Math.max(0, Math.min(span.end, pause.end) - Math.max(span.start, pause.start)), 0),
  );
  const paused = pausedMs.filter((ms) => ms > 0);
  return `${paused.length} of ${slowest.length} (${paused.reduce((a, b) => a + b, 0).toFixed(1)} ms)`;
}

const ms = (values: number[], p: number) =>
  Number(
    percentile(
      [...values].sort((a, b) => a - b),
      p,
    ).toFixed(2),
  );

export async function tempSaveBench(): Promise<void> {
  const target = await freshPostgres();
  const database = await openDatabase({ kind: 'postgres', url: target.url });
  const config = loadConfig({ LOG_LEVEL: 'silent', ELN_ADMIN_PASSWORD: 'bench-admin-password', CLIENT_DIST: '/nonexistent' });
  const app = await buildApp(config, database);
  const writer = new ForkedHelper<ParentMessage, ChildMessage>(WRITER_MODULE, WRITER_NICENESS);
  const collections = recordCollections();
  try {
    await bootstrap(database.db, config);
    const url = await app.app.listen({ port: 0, host: '127.0.0.1' });
    const spans = timeTempSaves(app);
    const admin = (await injectCall(app, api.auth.signIn, { userId: config.admin.email, password: 'bench-admin-password' })).accessToken;
    const userId = 'writer@bench.test';
    await injectCall(
      app,
      api.users.create,
      { userId, name: 'Writer', password: 'bench-writer-password', auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } },
      admin,
    );
    const token = (await injectCall(app, api.auth.signIn, { userId, password: 'bench-writer-password' })).accessToken;
    const { projectNo } = await injectCall(
      app,
      api.projects.create,
      { title: 'Bench', signatureList: { department: '', user: userId } },
      token,
    );
    const { labNoteNo } = await injectCall(app, api.notes.create, { projectNo, title: 'Big note' }, token);
    await writer.ask({ type: 'open', url, labNoteNo, token }, 'ready');

    const cases: Array<[string, EditKind]> = [
      ['nothing changed between calls', 'none'],
      ['a keystroke in a text block before each call', 'text'],
      ['a keystroke in a table cell before each call', 'cell'],
    ];
    const rows: Array<Record<string, string | number>> = [];
    for (const [label, edit] of cases) {
      spans.length = 0;
      collections.pauses.length = 0;
      await writer.ask({ type: 'run', edit, calls: WARM_UP + CALLS }, 'done');
      const timedSpans = spans.slice(WARM_UP);
      const timed = timedSpans.map((span) => span.end - span.start);
      if (timed.length !== CALLS) throw new Error(`${label}: ${timed.length} temp saves timed, ${CALLS} expected`);
      const p99 = ms(timed, 99);
      rows.push({
        case: label,
        calls: timed.length,
        'p50 ms': ms(timed, 50),
        'p99 ms': p99,
        'max ms': ms(timed, 100),
        goal: `p99 ≤ ${GOAL_P99_MS} ms`,
        met: p99 <= GOAL_P99_MS ? 'yes' : 'NO',
        'GC paused in the slowest 1%': collectionsInSlowest(timedSpans, collections.pauses),
      });
    }
    printTable(
      `Temp save server time (/note/temp), 30x30 table + 20 text blocks, saved once, PostgreSQL, ${CALLS} calls after ${WARM_UP} warm-up; the writer in its own process, sending its block list`,
      rows,
    );
  } finally {
    collections.stop();
    await writer.close({ type: 'close' }).catch(() => writer.kill());
    await app.close();
    await database.close();
    await target.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await tempSaveBench();
  process.exit(0);
}
