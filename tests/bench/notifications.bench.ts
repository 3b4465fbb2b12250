import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { api, noteDocumentName, type CallAnswer, type CallInput, type CallSpec } from '@eln/shared';
import { buildApp } from '../../server/src/app.js';
import { hashPassword } from '../../server/src/auth/passwords.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { bootstrap } from '../../server/src/system/bootstrap.js';
import { appendParagraph, connectWriter, eventually } from '../../server/src/testing/live.js';
import { openNotificationStream, type StreamClient } from '../../server/src/testing/notificationStream.js';
import { freshPostgres, printTable, timingRow } from './database.js';

/**
 * The bell at scale, on PostgreSQL, through the real server over HTTP.
 *
 * Fan-out: a leader closes a project of PARTICIPANTS people, every one of whom has the bell's stream
 * open; timed from the moment the close is sent (an upper bound of its commit) to each stream receiving
 * the push that names the closed project, ROUNDS projects one after another.
 *
 * List: `/notification/list` for a member of 10 projects with 500 notifications, among 1,000,000
 * notifications of 2,000 people (set-based SQL, the member's all on notes of their projects, a fifth read);
 * server time from the request's whole arrival to the last byte of its answer, CALLS calls after WARM_UP.
 */
const PARTICIPANTS = 199;
const ROUNDS = 20;
const FAN_OUT_GOAL_MS = 1000;

const PEOPLE = 2_000;
const PROJECTS = 5_000;
const NOTES_PER_PROJECT = 10;
const NOTIFICATIONS = 1_000_000;
const MINE = 500;
const CALLS = 200;
const WARM_UP = 20;
const LIST_GOAL_MS = 50;
const PASSWORD = 'bench-member-password';

type Call = <C extends CallSpec>(spec: C, body: CallInput<C>, token?: string) => Promise<CallAnswer<C>>;

function caller(url: string): Call {
  return async (spec, body, token) => {
    const response = await fetch(`${url}/server${spec.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { status: string; data: never };
    if (answer.status !== '0000') throw new Error(`${spec.path}: ${JSON.stringify(answer)}`);
    return answer.data;
  };
}

/** Runs `task` over `items`, `width` at a time. */
async function inTurns<T, R>(items: readonly T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]!);
      }
    }),
  );
  return results;
}

async function fanOut(url: string, call: Call, sql: postgres.Sql, passwordHash: string): Promise<Array<Record<string, string | number>>> {
  await sql`insert into users (user_id, name, password_hash, auth_project)
            select 'fan' || i || '@bench.test', 'Participant ' || i, ${passwordHash}, i = 0 from generate_series(0, ${PARTICIPANTS}) i`;
  const ids = Array.from({ length: PARTICIPANTS + 1 }, (_, i) => `fan${i}@bench.test`);
  const tokens = await inTurns(ids, 4, async (userId) => (await call(api.auth.signIn, { userId, password: PASSWORD })).accessToken);
  const [leaderToken, reviewerToken] = [tokens[0]!, tokens[1]!];
  const streams: StreamClient[] = await inTurns(tokens.slice(1), 8, (token) => openNotificationStream(url, token));
  const perDelivery: number[] = [];
  const perRound: number[] = [];
  try {
    await Promise.all(streams.map((stream) => stream.next()));
    for (let round = 1; round <= ROUNDS; round += 1) {
      // A project of everyone, with a note its reviewer signed (closing needs one).
      const { projectNo } = await call(
        api.projects.create,
        { title: `Fan-out ${round}`, signatureList: { department: '', user: ids.slice(1).join(',') } },
        leaderToken,
      );
      const { labNoteNo } = await call(api.notes.create, { projectNo, title: 'Closing note' }, leaderToken);
      const writer = await connectWriter(url, noteDocumentName(labNoteNo), leaderToken);
      appendParagraph(writer.doc, 'Every sample accounted for.');
      await eventually(() => writer.allDurable(), 'the note to be stored');
      writer.destroy();
      await call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] }, leaderToken);
      await call(api.signatures.request, { labNoteNo, signers: [{ userId: ids[1]!, type: 'reviewer' }] }, leaderToken);
      await call(api.signatures.respond, { labNoteNo, status: 'T', password: PASSWORD, name: 'Participant 1' }, reviewerToken);

      const arrivals: Array<Promise<number>> = streams.map(
        (stream) =>
          new Promise((resolve) => {
            stream.onState = (state, at) => {
              if (state.newest?.event === 'projectClosed' && state.newest.project?.projectNo === projectNo) resolve(at);
            };
          }),
      );
      const sent = performance.now();
      await call(api.projects.finish, { projectNo }, leaderToken);
      const received = await Promise.all(arrivals);
      perDelivery.push(...received.map((at) => at - sent));
      perRound.push(Math.max(...received) - sent);
    }
  } finally {
    for (const stream of streams) stream.close();
  }
  return [
    timingRow(`project close → each of ${PARTICIPANTS} open streams`, perDelivery, FAN_OUT_GOAL_MS, 'deliveries'),
    timingRow(`project close → the last of ${PARTICIPANTS} streams, per close`, perRound, FAN_OUT_GOAL_MS, 'deliveries'),
  ];
}

/** 2,000 people in 5,000 projects of three, ten notes each, and a million notifications; `member0` has 500 of them. */
async function buildListDataset(sql: postgres.Sql, passwordHash: string): Promise<void> {
  await sql`insert into users (user_id, name, password_hash, auth_project)
            select 'member' || i || '@bench.test', 'Member ' || i, ${passwordHash}, true from generate_series(0, ${PEOPLE - 1}) i`;
  const [{ first }] = await sql<[{ first: number }]>`select min(user_no)::int as first from users where user_id like 'member%@bench.test'`;
  // member0 leads projects 1-10 (the others lead in turn); three listed participants each.
  await sql`insert into projects (title, description, leader_user_no, status)
            select 'Project ' || i, 'Benchmark project ' || i, ${first} + case when i <= 10 then 0 else i % ${PEOPLE} end, 'ING'
            from generate_series(1, ${PROJECTS}) i`;
  await sql`insert into project_participants (project_no, user_no)
            select p.project_no, ${first} + 1 + ((p.project_no * k * 7) % (${PEOPLE} - 1)) from projects p, generate_series(1, 3) k
            on conflict do nothing`;
  await sql`insert into lab_notes (project_no, title, lab_note_number, writer_user_no)
            select p.project_no, 'Note ' || k, 'LN-BENCH-' || lpad((p.project_no * 100 + k)::text, 9, '0'), p.leader_user_no
            from projects p, generate_series(1, ${NOTES_PER_PROJECT}) k`;
  const [{ notes }] = await sql<[{ notes: number }]>`select count(*)::int as notes from lab_notes`;
  // Everyone else's, on any note; then member0's 500, on the notes of their ten projects, the newest unread.
  await sql`insert into notifications (user_no, event, actor_user_no, project_no, note_no, payload, created_at, read_at)
            select ${first} + 1 + (i % (${PEOPLE} - 1)), 'signatureRequested', ${first} + 1 + ((i * 7) % (${PEOPLE} - 1)),
                   null, 1 + (i % ${notes}), '{"meaning":"reviewer"}'::jsonb, now() - (i || ' seconds')::interval,
                   case when i % 5 = 0 then null else now() end
            from generate_series(1, ${NOTIFICATIONS - MINE}) i`;
  await sql`insert into notifications (user_no, event, actor_user_no, project_no, note_no, payload, created_at, read_at)
            select ${first}, (array['signatureRequested', 'noteSigned', 'signatureRemoved'])[1 + i % 3], ${first} + 1 + (i % 50),
                   n.project_no, n.note_no, '{"meaning":"participant","reason":"Check the plate map"}'::jsonb,
                   now() - (i || ' minutes')::interval, case when i > ${MINE / 5} then now() end
            from generate_series(1, ${MINE}) i
            join projects p on p.title = 'Project ' || (1 + i % 10)
            join lab_notes n on n.project_no = p.project_no and n.title = 'Note ' || (1 + (i / 10) % ${NOTES_PER_PROJECT})`;
  await sql`vacuum analyze`;
}

async function list(call: Call, sql: postgres.Sql, passwordHash: string, server: import('node:http').Server) {
  const built = performance.now();
  await buildListDataset(sql, passwordHash);
  const buildSeconds = ((performance.now() - built) / 1000).toFixed(0);
  const token = (await call(api.auth.signIn, { userId: 'member0@bench.test', password: PASSWORD })).accessToken;
  const first = await call(api.notifications.list, { page: 1, pageSize: 20 }, token);
  if (first.totalCount !== MINE) throw new Error(`member0 sees ${first.totalCount} notifications, ${MINE} expected`);

  const spans: number[] = [];
  const path = `/server${api.notifications.list.path}`;
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.url !== path) return;
    let start = 0;
    request.once('end', () => (start = performance.now()));
    response.once('finish', () => spans.push(performance.now() - start));
  });
  const cases: Array<[string, CallInput<typeof api.notifications.list>]> = [
    ['page 1 of 20', { page: 1, pageSize: 20 }],
    [`last page (${MINE / 20})`, { page: MINE / 20, pageSize: 20 }],
    ['unread only, page 1', { page: 1, pageSize: 20, unreadOnly: true }],
    ['page 1 of 50', { page: 1, pageSize: 50 }],
  ];
  const rows: Array<Record<string, string | number>> = [];
  for (const [label, body] of cases) {
    spans.length = 0;
    for (let i = 0; i < WARM_UP + CALLS; i += 1) await call(api.notifications.list, body, token);
    rows.push(timingRow(label, spans.slice(WARM_UP), LIST_GOAL_MS));
  }
  return { rows, buildSeconds };
}

export async function notificationsBench(): Promise<void> {
  const target = await freshPostgres();
  const database = await openDatabase({ kind: 'postgres', url: target.url });
  const config = loadConfig({ LOG_LEVEL: 'silent', ELN_ADMIN_PASSWORD: 'bench-admin-password', CLIENT_DIST: '/nonexistent' });
  const app = await buildApp(config, database);
  const sql = postgres(target.url, { max: 1, onnotice: () => undefined });
  try {
    await bootstrap(database.db, config);
    const url = await app.app.listen({ port: 0, host: '127.0.0.1' });
    const call = caller(url);
    const passwordHash = await hashPassword(PASSWORD);
    printTable(
      `Bell fan-out: a project of ${PARTICIPANTS + 1} closed, each participant's stream open; from the close sent to the push received, ${ROUNDS} closes, PostgreSQL, server and streams in one process`,
      await fanOut(url, call, sql, passwordHash),
    );
    const { rows, buildSeconds } = await list(call, sql, passwordHash, app.app.server);
    printTable(
      `Notification list server time, a member of 10 projects with ${MINE} notifications among ${NOTIFICATIONS.toLocaleString('en')} (built in ${buildSeconds} s), PostgreSQL, ${CALLS} calls after ${WARM_UP} warm-up each`,
      rows,
    );
  } finally {
    await sql.end();
    await app.close();
    await database.close();
    await target.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await notificationsBench();
  process.exit(0);
}
