import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase, rawRows } from '../../server/src/db/client.js';
import { hashPassword } from '../../server/src/auth/passwords.js';
import { bootstrap } from '../../server/src/system/bootstrap.js';
import type { SignInAnswer } from '@eln/shared';
import { freshPostgres, percentile, printTable } from './database.js';

const PROJECTS = 10_000;
const USERS = 200;
const CALLS = 300;

/**
 * /v1/project/list with 10,000 projects on PostgreSQL: latency through the whole server (auth,
 * validation, visibility rules, envelope) and the query plans, which must use indexes.
 */
export async function projectListBench(): Promise<void> {
  const target = await freshPostgres();
  const database = await openDatabase({ kind: 'postgres', url: target.url });
  const config = { ...loadConfig({ LOG_LEVEL: 'silent', ELN_ADMIN_PASSWORD: 'bench-admin-password', CLIENT_DIST: '/nonexistent' }) };
  const server = await buildApp(config, database);
  try {
    await bootstrap(database.db, config);
    const hash = await hashPassword('bench-member-password');
    await database.db.execute(sql`
      insert into users (user_id, name, password_hash, auth_project)
      select 'member' || i || '@bench.test', 'Member ' || i, ${hash}, true from generate_series(1, ${USERS}) i`);
    await database.db.execute(sql`
      insert into projects (title, description, leader_user_no, status, created_at)
      select 'Project ' || i, 'Benchmark project ' || i,
             (select min(user_no) from users) + 1 + (i % ${USERS}),
             case when i % 7 = 0 then 'C' else 'ING' end,
             now() - (i || ' minutes')::interval
      from generate_series(1, ${PROJECTS}) i`);
    // Each project has three participants spread over the users.
    await database.db.execute(sql`
      insert into project_participants (project_no, user_no)
      select p.project_no, (select min(user_no) from users) + 1 + ((p.project_no * k) % ${USERS})
      from projects p, generate_series(1, 3) k
      on conflict do nothing`);
    await database.db.execute(sql`analyze`);

    const signIn = async (userId: string, password: string) => {
      const response = await server.app.inject({ method: 'POST', url: '/server/v1/user/signIn', payload: { userId, password } });
      return response.json<{ data: SignInAnswer }>().data.accessToken;
    };
    const adminToken = await signIn(config.admin.email, 'bench-admin-password');
    const memberToken = await signIn('member7@bench.test', 'bench-member-password');

    const scenarios: Array<{ name: string; token: string; body: Record<string, unknown> }> = [
      { name: 'admin, page 1', token: adminToken, body: { page: 1, pageSize: 10 } },
      { name: 'admin, page 500', token: adminToken, body: { page: 500, pageSize: 10 } },
      { name: 'member (leads or joins), page 1', token: memberToken, body: { page: 1, pageSize: 10 } },
      { name: 'member, title search', token: memberToken, body: { type: 'title', value: 'Project 1', page: 1, pageSize: 10 } },
      { name: 'member, leader search', token: memberToken, body: { type: 'leader', value: 'Member 1', page: 1, pageSize: 10 } },
      { name: 'admin, date range', token: adminToken, body: { startDate: '2020-01-01', endDate: '2100-01-01', page: 2, pageSize: 10 } },
    ];
    const rows: Array<Record<string, string | number>> = [];
    for (const scenario of scenarios) {
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < CALLS; i += 1) {
        const start = performance.now();
        const response = await server.app.inject({
          method: 'POST',
          url: '/server/v1/project/list',
          payload: scenario.body,
          headers: { authorization: `Bearer ${scenario.token}` },
        });
        times.push(performance.now() - start);
        if (i === 0) total = response.json<{ data: { totalCount: number } }>().data.totalCount;
      }
      times.sort((a, b) => a - b);
      rows.push({
        scenario: scenario.name,
        totalCount: total,
        calls: CALLS,
        'p50 ms': Number(percentile(times, 50).toFixed(2)),
        'p99 ms': Number(percentile(times, 99).toFixed(2)),
      });
    }
    printTable(`/v1/project/list on PostgreSQL, ${PROJECTS} projects, ${USERS} users (in-process HTTP)`, rows);

    const [member] = await rawRows<{ user_no: number }>(database.db, sql`select user_no from users where user_id = 'member7@bench.test'`);
    const plan = await rawRows<{ 'QUERY PLAN': string }>(
      database.db,
      sql`explain select p.* from projects p inner join users u on u.user_no = p.leader_user_no
          where (p.leader_user_no = ${member?.user_no} or exists (select 1 from project_participants pp where pp.project_no = p.project_no and pp.user_no = ${member?.user_no}))
          order by p.project_no desc limit 10 offset 0`,
    );
    console.log('\nPlan of the member list query:');
    for (const line of plan) console.log(`  ${line['QUERY PLAN']}`);
  } finally {
    await server.close();
    await database.close();
    await target.drop();
  }
}
