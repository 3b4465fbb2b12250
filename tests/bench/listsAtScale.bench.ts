import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase, type Database, type Db, type Queryable } from '../../server/src/db/client.js';
import * as schema from '../../server/src/db/schema.js';
import { driverTransactions } from '../../server/src/db/pipelinedTransactions.js';
import { hashPassword } from '../../server/src/auth/passwords.js';
import { bootstrap } from '../../server/src/system/bootstrap.js';
import { verifyAuditChain } from '../../server/src/audit/audit.js';
import { api, type SignInAnswer, type CallSpec } from '@eln/shared';
import { freshPostgres, percentile, printTable } from './database.js';
import { buildScaleDataset, SCALE } from './scaleDataset.js';

const CALLS = 40;
const GOAL_P99_MS = 50;
const MEMBER_PASSWORD = 'bench-member-password';

interface Scenario {
  call: CallSpec;
  name: string;
  token: 'admin' | 'member';
  body: Record<string, unknown>;
}

/** Captures the SQL statements the server sends while `capturing` is on, to EXPLAIN ANALYZE them. */
export function capturingDatabase(url: string) {
  const state = { capturing: false, queries: [] as Array<{ query: string; params: unknown[] }> };
  const client = postgres(url, {
    max: 10,
    onnotice: () => undefined,
    debug: (_connection, query, params) => {
      // A copy: postgres.js serialises the parameters in this same array afterwards (a boolean true
      // becomes 't', which sent again as a boolean reads as false, and the plan printed was another query's).
      if (state.capturing) state.queries.push({ query, params: [...(params as unknown[])] });
    },
  });
  const listDb = drizzle(client, { schema }) as unknown as Db;
  const database: Database = {
    db: listDb,
    derivedRows: listDb,
    pipelinedTransactions: driverTransactions<Queryable>(listDb),
    engine: 'postgres',
    listen: async (channel, onPayload, onListening) => (await client.listen(channel, onPayload, onListening)).unlisten,
    close: () => client.end({ timeout: 5 }),
  };
  return { database, client, state };
}

function scenarios(): Scenario[] {
  const projectPages = SCALE.projects / 10;
  const auditPages = SCALE.auditRecords / 20;
  const userPages = SCALE.users / 10;
  return [
    { call: api.projects.list, name: 'admin, page 1', token: 'admin', body: { page: 1, pageSize: 10 } },
    {
      call: api.projects.list,
      name: `admin, page ${projectPages / 2}`,
      token: 'admin',
      body: { page: projectPages / 2, pageSize: 10 },
    },
    { call: api.projects.list, name: `admin, last page ${projectPages}`, token: 'admin', body: { page: projectPages, pageSize: 10 } },
    { call: api.projects.list, name: 'member, page 1', token: 'member', body: { page: 1, pageSize: 10 } },
    {
      call: api.projects.list,
      name: 'admin, title search',
      token: 'admin',
      body: { type: 'title', value: 'Project 12', page: 1, pageSize: 10 },
    },
    {
      call: api.projects.list,
      name: 'admin, leader search, page 2',
      token: 'admin',
      body: { type: 'leader', value: 'Member 1', page: 2, pageSize: 10 },
    },
    {
      call: api.projects.list,
      name: 'admin, date range, last page',
      token: 'admin',
      body: { startDate: '2000-01-01', endDate: '2100-01-01', page: projectPages, pageSize: 10 },
    },
    { call: api.projects.editor, name: 'notes of a project', token: 'admin', body: { projectNo: 5000 } },
    {
      call: api.signatureOverview.projectOverview,
      name: 'signatures of a project',
      token: 'admin',
      body: { projectNo: 5000, page: 1, pageSize: 20 },
    },
    {
      call: api.signatureOverview.projectOverview,
      name: 'signatures of a project, waiting only',
      token: 'admin',
      body: { projectNo: 5000, status: 'waiting', page: 1, pageSize: 20 },
    },
    { call: api.users.picker, name: 'picker, page 1', token: 'member', body: { page: 1, pageSize: 10 } },
    { call: api.users.picker, name: `picker, last page ${userPages}`, token: 'member', body: { page: userPages, pageSize: 10 } },
    { call: api.users.picker, name: 'picker, name search', token: 'member', body: { value: 'Member 42', page: 1, pageSize: 10 } },
    { call: api.users.list, name: 'page 1', token: 'admin', body: { page: 1, pageSize: 10 } },
    { call: api.users.list, name: `last page ${userPages}`, token: 'admin', body: { page: userPages, pageSize: 10 } },
    {
      call: api.users.list,
      name: 'department search',
      token: 'admin',
      body: { type: 'department', value: 'department 7', page: 1, pageSize: 10 },
    },
    { call: api.audit.list, name: 'page 1', token: 'admin', body: { page: 1, pageSize: 20 } },
    { call: api.audit.list, name: `page ${auditPages / 2}`, token: 'admin', body: { page: auditPages / 2, pageSize: 20 } },
    { call: api.audit.list, name: `last page ${auditPages}`, token: 'admin', body: { page: auditPages, pageSize: 20 } },
    {
      call: api.audit.list,
      name: 'action filter, page 100',
      token: 'admin',
      body: { action: 'project.created', page: 100, pageSize: 20 },
    },
    {
      call: api.audit.list,
      name: 'action filter, last page 10000',
      token: 'admin',
      body: { action: 'project.created', page: 10_000, pageSize: 20 },
    },
    { call: api.audit.list, name: 'actor filter', token: 'admin', body: { actor: 'member42@', page: 1, pageSize: 20 } },
    {
      call: api.audit.list,
      name: 'one day',
      token: 'admin',
      body: {
        startDate: new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10),
        endDate: new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10),
        page: 1,
        pageSize: 20,
      },
    },
    { call: api.templates.list, name: 'page 1', token: 'admin', body: { page: 1, pageSize: 10 } },
    {
      call: api.templates.list,
      name: `last page ${SCALE.templates / 10}`,
      token: 'admin',
      body: { page: SCALE.templates / 10, pageSize: 10 },
    },
    {
      call: api.templates.list,
      name: 'approved, title search',
      token: 'member',
      body: { type: 'title', value: 'Template 12', state: 'A', page: 1, pageSize: 10 },
    },
    { call: api.dropboxes.list, name: 'page 1', token: 'member', body: { page: 1, pageSize: 10 } },
    {
      call: api.dropboxes.list,
      name: `last page ${SCALE.dropboxes / 10}`,
      token: 'admin',
      body: { page: SCALE.dropboxes / 10, pageSize: 10 },
    },
    {
      call: api.dropboxes.list,
      name: 'used, title search',
      token: 'member',
      body: { type: 'title', value: 'Dropbox 12', status: 'Y', page: 1, pageSize: 10 },
    },
    { call: api.schemas.list, name: 'page 1', token: 'member', body: { page: 1, pageSize: 10 } },
    {
      call: api.schemas.list,
      name: `last page ${SCALE.schemaTypes / 10}`,
      token: 'admin',
      body: { page: SCALE.schemaTypes / 10, pageSize: 10 },
    },
    {
      call: api.schemas.list,
      name: 'used, title search',
      token: 'member',
      body: { type: 'title', value: 'Schema type 12', status: 'Y', page: 1, pageSize: 10 },
    },
    { call: api.departments.list, name: `${SCALE.departments} departments`, token: 'member', body: {} },
    { call: api.departments.searchUsers, name: 'name search', token: 'member', body: { type: 'user', value: 'Member 4' } },
    { call: api.auth.flags, name: 'own flags', token: 'member', body: {} },
  ];
}

/**
 * Every list and search call with 10,000 projects, 100,000 notes, 5,000 users and 1,000,000 audit records
 * on PostgreSQL, through the real HTTP routes: p50/p99 per page and filter beside the goal, the plans of the
 * SQL each call runs (EXPLAIN ANALYZE), and audit verify over the whole chain with its peak memory.
 */
export async function listsAtScaleBench(): Promise<void> {
  const target = await freshPostgres();
  const migrated = await openDatabase({ kind: 'postgres', url: target.url });
  await migrated.close();
  const { database, client, state } = capturingDatabase(target.url);
  const config = { ...loadConfig({ LOG_LEVEL: 'silent', ELN_ADMIN_PASSWORD: 'bench-admin-password', CLIENT_DIST: '/nonexistent' }) };
  const server = await buildApp(config, database);
  try {
    await bootstrap(database.db, config);
    const started = performance.now();
    await buildScaleDataset(target.url, config.company.code, await hashPassword(MEMBER_PASSWORD));
    console.log(
      `Dataset built in ${((performance.now() - started) / 1000).toFixed(1)} s: ${SCALE.projects} projects, ${SCALE.projects * SCALE.notesPerProject} notes, ${SCALE.users} users in ${SCALE.departments} departments, ${SCALE.templates} templates, ${SCALE.dropboxes} dropboxes, ${SCALE.schemaTypes} schema types (${SCALE.schemaTypes * SCALE.schemasPerType} schemas, ${SCALE.schemaTypes * SCALE.schemasPerType * SCALE.entriesPerSchema} entries), ${SCALE.auditRecords} audit records`,
    );

    const signIn = async (userId: string, password: string) => {
      const response = await server.app.inject({ method: 'POST', url: `/server${api.auth.signIn.path}`, payload: { userId, password } });
      return response.json<{ data: SignInAnswer }>().data.accessToken;
    };
    const tokens = {
      admin: await signIn(config.admin.email, 'bench-admin-password'),
      member: await signIn('member7@bench.test', MEMBER_PASSWORD),
    };

    const rows: Array<Record<string, string | number>> = [];
    const plans: string[] = [];
    for (const scenario of scenarios()) {
      const call = () =>
        server.app.inject({
          method: 'POST',
          url: `/server${scenario.call.path}`,
          payload: scenario.body,
          headers: { authorization: `Bearer ${tokens[scenario.token]}` },
        });
      state.queries = [];
      state.capturing = true;
      const first = await call();
      state.capturing = false;
      if (first.statusCode !== 200) throw new Error(`${scenario.call.path} ${scenario.name} answered ${first.statusCode}: ${first.body}`);
      const data = first.json<{ data: { totalCount?: number; list?: unknown[] } }>().data;
      const times: number[] = [];
      for (let i = 0; i < CALLS; i += 1) {
        const start = performance.now();
        await call();
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      const p99 = percentile(times, 99);
      rows.push({
        call: scenario.call.path,
        scenario: scenario.name,
        total: data.totalCount ?? (Array.isArray(data.list) ? data.list.length : '-'),
        'p50 ms': Number(percentile(times, 50).toFixed(1)),
        'p99 ms': Number(p99.toFixed(1)),
        'goal p99 ms': `≤ ${GOAL_P99_MS}`,
        met: p99 <= GOAL_P99_MS ? 'yes' : 'NO',
      });
      plans.push(...(await explainQueries(client, `${scenario.call.path} ${scenario.name}`, state.queries)));
    }
    printTable(`List calls at scale on PostgreSQL (${CALLS} calls each, in-process HTTP, goal p99 ≤ ${GOAL_P99_MS} ms on any page)`, rows);
    console.log('\nQuery plans (EXPLAIN ANALYZE of the list and count statements each call ran):');
    for (const line of plans) console.log(line);

    await verifyBench(database.db);
  } finally {
    await server.close();
    await database.close();
    await target.drop();
  }
}

/** EXPLAIN ANALYZE of the statements that read the listed tables (not the caller's session check). */
async function explainQueries(
  client: postgres.Sql,
  title: string,
  queries: Array<{ query: string; params: unknown[] }>,
): Promise<string[]> {
  const lines = [`\n-- ${title}`];
  for (const { query, params } of queries) {
    if (!/^\s*select/i.test(query) || /from "sessions"|"users"\."user_no" = \$1\s*(limit \$2)?$/i.test(query)) continue;
    const plan = await client.unsafe<Array<{ 'QUERY PLAN': string }>>(
      `explain (analyze, costs off, buffers off) ${query}`,
      params as never[],
    );
    lines.push(`   ${query.slice(0, 160).replace(/\s+/g, ' ')}${query.length > 160 ? '…' : ''}`);
    for (const row of plan) lines.push(`     ${row['QUERY PLAN']}`);
  }
  return lines;
}

/** Verify over the whole chain, with the heap's peak above its level before, sampled every 20 ms. */
async function verifyBench(db: Db): Promise<void> {
  globalThis.gc?.();
  const baseline = process.memoryUsage();
  let peakHeap = baseline.heapUsed;
  let peakRss = baseline.rss;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakRss = Math.max(peakRss, now.rss);
  }, 20);
  const start = performance.now();
  const answer = await verifyAuditChain(db);
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  const mib = (bytes: number) => Number((bytes / 2 ** 20).toFixed(1));
  printTable('Audit verify over the whole chain on PostgreSQL (keyset batches of 1,000)', [
    {
      records: answer.checked,
      ok: String(answer.ok),
      'time s': Number(seconds.toFixed(1)),
      'records/s': Math.round(answer.checked / seconds),
      'heap peak above start MiB': mib(peakHeap - baseline.heapUsed),
      'rss peak above start MiB': mib(peakRss - baseline.rss),
      goal: 'bounded memory (batches), ok = true',
    },
  ]);
  if (!answer.ok || answer.checked < SCALE.auditRecords) throw new Error(`verify over the bench chain: ${JSON.stringify(answer)}`);
}
