import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { api, type CallAnswer, type InboxRequest } from '@eln/shared';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { hashPassword } from '../../server/src/auth/passwords.js';
import { bootstrap } from '../../server/src/system/bootstrap.js';
import { backendCpuMs, explainCaptured, freshPostgres, percentile, printTable, type CapturedQuery } from './database.js';
import { buildHomeDataset, HOME_PENDING, HOME_SCALE } from './homeDataset.js';
import { capturingDatabase } from './listsAtScale.bench.js';
import { buildScaleDataset, SCALE } from './scaleDataset.js';
import { databaseBackends, memberOfTen, waitForEmptyQueue } from './searchAtScale.bench.js';

const CALLS = 200;
const WARM_UP = 20;
const GOAL_P99_MS = 50;
const PAGE_SIZE = 10;
const MEMBER_PASSWORD = 'bench-member-password';
const ADMIN_PASSWORD = 'bench-admin-password';

type Role = 'member' | 'admin';
type Answer = CallAnswer<typeof api.inbox.section>;
interface Scenario {
  role: Role;
  name: string;
  body: InboxRequest;
}

const round = (value: number) => Number(value.toFixed(1));

/**
 * The home's sections at scale (issue 48): the lists' scale dataset (10,000 projects, 100,000 notes, 5,000
 * users, 1,000,000 audit records) with a member of 10 projects who has 500 pending items (homeDataset.ts),
 * through the real `/v1/inbox` route in-process, as that member and as an administrator: each section's
 * first and last page (the activity's first page and one deep in the trail), CALLS calls each after
 * WARM_UP, p50/p99 beside the goal, and the EXPLAIN ANALYZE of the statements of any call that misses it
 * (of every call with BENCH_PLANS=1).
 */
export async function homeAtScaleBench(): Promise<void> {
  // BENCH_KEEP=1 keeps the database and prints its URL; BENCH_HOME_DATABASE=<that URL> times it again without building it.
  const reused = process.env.BENCH_HOME_DATABASE;
  const target = reused ? { url: reused, drop: async () => undefined } : await freshPostgres();
  const migrated = await openDatabase({ kind: 'postgres', url: target.url });
  await migrated.close();
  const { database, client, state } = capturingDatabase(target.url);
  const config = loadConfig({ LOG_LEVEL: 'silent', ELN_ADMIN_PASSWORD: ADMIN_PASSWORD, CLIENT_DIST: '/nonexistent' });
  const server = await buildApp(config, database);
  try {
    if (!reused) {
      await bootstrap(database.db, config);
      let started = performance.now();
      await buildScaleDataset(target.url, config.company.code, await hashPassword(MEMBER_PASSWORD));
      const scaleSeconds = (performance.now() - started) / 1000;
      started = performance.now();
      await buildHomeDataset(target.url, (await memberOfTen(client)).userId);
      console.log(`Dataset built: scale in ${scaleSeconds.toFixed(0)} s, home in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    const member = await memberOfTen(client);
    const [counts] = await client<[{ audit: number; signatures: number; writers: number; opens: number }]>`
      select (select count(*) from audit_log)::int as audit, (select count(*) from note_signatures)::int as signatures,
        (select count(*) from note_writers)::int as writers, (select count(*) from recent_opens)::int as opens`;
    console.log(
      `${SCALE.projects} projects, ${SCALE.projects * SCALE.notesPerProject} notes, ${SCALE.users} users, ${counts.audit} audit records, ${counts.signatures} signature requests, ${counts.writers} note writers, ${counts.opens} recent opens; the member ${member.userId}: ${HOME_SCALE.ownNotes} notes of their own, ${HOME_PENDING} pending items`,
    );

    // The projects and libraries the dataset made are queued for search (their triggers): indexed before anything is timed.
    await waitForEmptyQueue(client);

    const signIn = async (userId: string, password: string) => {
      const response = await server.app.inject({ method: 'POST', url: `/server${api.auth.signIn.path}`, payload: { userId, password } });
      return response.json<{ data: { accessToken: string } }>().data.accessToken;
    };
    const tokens: Record<Role, string> = {
      member: await signIn(member.userId, MEMBER_PASSWORD),
      admin: await signIn(config.admin.email, ADMIN_PASSWORD),
    };
    const call = async (role: Role, body: InboxRequest): Promise<Answer> => {
      const response = await server.app.inject({
        method: 'POST',
        url: `/server${api.inbox.section.path}`,
        payload: body,
        headers: { authorization: `Bearer ${tokens[role]}` },
      });
      const answer = response.json<{ status: string; data: Answer }>();
      if (answer.status !== '0000') throw new Error(`${api.inbox.section.path} ${JSON.stringify(body)} answered ${response.body}`);
      return answer.data;
    };

    const rows: Array<Record<string, string | number>> = [];
    const plans: string[] = [];
    for (const scenario of await scenarios(call, client)) {
      state.queries = [];
      state.capturing = true;
      const answer = await call(scenario.role, scenario.body);
      state.capturing = false;
      const captured = state.queries;
      for (let i = 0; i < WARM_UP; i += 1) await call(scenario.role, scenario.body);
      const times: number[] = [];
      const backends = await databaseBackends(client);
      const cpuBefore = process.cpuUsage();
      const postgresBefore = backendCpuMs(backends);
      for (let i = 0; i < CALLS; i += 1) {
        const start = performance.now();
        await call(scenario.role, scenario.body);
        times.push(performance.now() - start);
      }
      const cpu = process.cpuUsage(cpuBefore);
      const postgresAfter = backendCpuMs(backends);
      times.sort((a, b) => a - b);
      const p99 = percentile(times, 99);
      rows.push({
        role: scenario.role,
        section: scenario.body.section,
        page: scenario.name,
        total: 'totalCount' in answer ? answer.totalCount : '-',
        items: answer.list.length,
        'p50 ms': round(percentile(times, 50)),
        'p99 ms': round(p99),
        met: p99 <= GOAL_P99_MS ? 'yes' : 'NO',
        'CPU ms/call server+PostgreSQL': `${round((cpu.user + cpu.system) / 1000 / CALLS)}+${
          postgresBefore === null || postgresAfter === null ? '?' : round((postgresAfter - postgresBefore) / CALLS)
        }`,
      });
      if (p99 > GOAL_P99_MS || process.env.BENCH_PLANS === '1')
        plans.push(...(await explainInbox(client, `${scenario.role}, ${scenario.body.section}, ${scenario.name}`, captured)));
    }
    const load = loadavg()
      .map((value) => value.toFixed(2))
      .join(', ');
    printTable(
      `Home sections at scale on PostgreSQL (${CALLS} calls each after ${WARM_UP}, in-process HTTP, ${PAGE_SIZE} a page, goal p99 ≤ ${GOAL_P99_MS} ms; load average ${load}). CPU ms/call: this process's (the server's) and this database's PostgreSQL backends', the work a call costs whatever else runs on the machine`,
      rows,
    );
    if (plans.length) {
      console.log('\nQuery plans (EXPLAIN (ANALYZE, BUFFERS) of the statements each call ran):');
      for (const line of plans) console.log(line);
    }
  } finally {
    await server.close();
    await database.close();
    if (process.env.BENCH_KEEP === '1') console.log(`Kept the database: BENCH_HOME_DATABASE=${target.url}`);
    else await target.drop();
  }
}

/** Each section's first and last page for each role; the activity's first page and one from the middle of the trail. */
async function scenarios(call: (role: Role, body: InboxRequest) => Promise<Answer>, client: postgres.Sql): Promise<Scenario[]> {
  const [{ middle }] = await client<[{ middle: number }]>`select (max(seq) / 2)::int8 as middle from audit_log`;
  const list: Scenario[] = [];
  for (const role of ['member', 'admin'] as const) {
    for (const section of ['signatures', 'templates', 'notes'] as const) {
      const first = await call(role, { section, page: 1, pageSize: PAGE_SIZE });
      const last = Math.max(1, Math.ceil(('totalCount' in first ? first.totalCount : 0) / PAGE_SIZE));
      list.push({ role, name: 'first', body: { section, page: 1, pageSize: PAGE_SIZE } });
      if (last > 1) list.push({ role, name: `last (${last})`, body: { section, page: last, pageSize: PAGE_SIZE } });
    }
    list.push({ role, name: `${HOME_SCALE.opensPerUser} kept`, body: { section: 'recent' } });
    list.push({ role, name: 'first', body: { section: 'activity', pageSize: PAGE_SIZE } });
    list.push({ role, name: 'mid-trail', body: { section: 'activity', pageSize: PAGE_SIZE, before: Number(middle) } });
  }
  return list;
}

/** EXPLAIN (ANALYZE, BUFFERS) of the statements a call ran (not the caller's session check). */
function explainInbox(client: postgres.Sql, title: string, queries: CapturedQuery[]): Promise<string[]> {
  return explainCaptured(client, title, queries, (query) => !/from "users" where "users"."user_no" = \$1/i.test(query), 240);
}
