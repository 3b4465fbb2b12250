import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { api, ERR, type CallSpec, type ErrorCode } from '@eln/shared';
import { startTestServer, type Caller, type TestServer } from '../testing/harness.js';

/**
 * A call that fails unexpectedly answers the product's own code for that failure (spec §8: 1010-1012,
 * 3001-3017), not the generic 9999: each case takes away a table its handler needs, and puts it back.
 */
let server: TestServer;
let admin: Caller;
beforeAll(async () => {
  server = await startTestServer();
  admin = await server.as(server.admin);
});
afterAll(async () => {
  await server?.stop();
});

async function withTableAway<T>(table: string, run: () => Promise<T>): Promise<T> {
  await server.database.db.execute(sql.raw(`alter table ${table} rename to ${table}_away`));
  try {
    return await run();
  } finally {
    await server.database.db.execute(sql.raw(`alter table ${table}_away rename to ${table}`));
  }
}

const cases: Array<{ call: CallSpec; body: Record<string, unknown>; table: string; code: ErrorCode }> = [
  { call: api.users.list, body: { page: 1, pageSize: 10 }, table: 'departments', code: ERR.userLookup },
  { call: api.dashboard.counts, body: {}, table: 'projects', code: ERR.dashboardLookup },
  { call: api.projects.list, body: { page: 1, pageSize: 10 }, table: 'projects', code: ERR.projectLookup },
  { call: api.departments.list, body: {}, table: 'departments', code: ERR.departmentLookup },
  { call: api.departments.searchUsers, body: { type: 'user', value: 'a' }, table: 'departments', code: ERR.searchFailed },
  { call: api.templates.list, body: { page: 1, pageSize: 10 }, table: 'templates', code: ERR.templateLookup },
  { call: api.dropboxes.list, body: { page: 1, pageSize: 10 }, table: 'dropboxes', code: ERR.dropboxLookup },
  { call: api.licence.info, body: {}, table: 'licences', code: ERR.licenceLookup },
  { call: api.audit.list, body: { page: 1, pageSize: 10 }, table: 'audit_log', code: ERR.auditLookup },
];

describe('failure codes of the product', () => {
  for (const { call, body, table, code } of cases) {
    it(`${call.path} answers ${code} when it cannot read ${table}`, async () => {
      const failed = await withTableAway(table, () => admin(call, body));
      expect(failed.http).toBe(500);
      expect(failed.body.status).toBe(code);
      // Back in place, the same call answers.
      expect((await admin(call, body)).body.status).toBe('0000');
    });
  }

  it('keeps refusals as they are: a bad body is still 9001', async () => {
    const refused = await admin(api.projects.list, { page: 0 });
    expect(refused.body.status).toBe(ERR.validation);
  });

  it('answers 1010 when a sign-in cannot issue its tokens, 1012 when a sign-out cannot be recorded', async () => {
    const issued = await withTableAway('refresh_tokens', () =>
      server.call(api.auth.signIn, { userId: server.admin.userId, password: server.admin.password }),
    );
    expect(issued.body.status).toBe(ERR.tokenIssue);
    const member = await server.createUser();
    const own = await server.as(member);
    const signedOut = await withTableAway('audit_log', () => own(api.auth.signOut, {}));
    expect(signedOut.body.status).toBe(ERR.signOutFailed);
    // Nothing was half done: the session still works, and signing out works once the table is back.
    expect((await own(api.auth.flags, {})).body.status).toBe('0000');
    expect((await own(api.auth.signOut, {})).body.status).toBe('0000');
  });
});
