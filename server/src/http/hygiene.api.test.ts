import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { api, ERR, type ApiResponse, type ErrorCode, type ValidationErrorData } from '@eln/shared';
import { auditLog, users } from '../db/schema.js';
import { startTestServer, type Caller, type NewUser, type TestServer } from '../testing/harness.js';

/**
 * Input hygiene: text that cannot be stored (NUL, lone surrogates), dates that do not exist, numbers out
 * of range and references to nothing are refused with a 4xx in the envelope, never a 500, and write nothing.
 */
let server: TestServer;
let admin: Caller;
let member: NewUser & { userNo: number };

beforeAll(async () => {
  server = await startTestServer();
  // Calls that fail the way a query the validation let through would: each raises a real database error.
  const fail = (path: string, run: () => Promise<unknown>) => server.app.post(`/server/v1/testing/sqlstate/${path}`, async () => run());
  const db = server.database.db;
  fail('nul-text', () => db.execute(sql`select ${'a\u0000b'}::text`));
  fail('nul-jsonb', () => db.execute(sql`select ${'{"a":"\\u0000"}'}::jsonb`));
  fail('no-such-date', () => db.execute(sql`select ${'2026-02-30'}::date`));
  fail('number-out-of-range', () => db.execute(sql`select ${'99999999999'}::int4`));
  fail('foreign-key', () =>
    db.insert(users).values({ userId: 'fk@lab.test', name: 'FK', passwordHash: 'x', departmentCode: 'NO-SUCH-DEPT' }),
  );
  fail('unique', () => db.insert(users).values({ userId: server.admin.userId, name: 'Twin', passwordHash: 'x' }));
  admin = await server.as(server.admin);
  member = await server.createUser({ name: 'Member Min' });
});
afterAll(async () => {
  await server?.stop();
});

const auditCount = async () => Number((await server.database.db.select({ n: count() }).from(auditLog))[0]?.n);
const fieldsOf = (body: ApiResponse<unknown>) => (body.data as ValidationErrorData).fields.map((f) => `${f.field}:${f.reason}`);

async function expectFieldRefusal(call: () => Promise<{ http: number; body: ApiResponse<unknown> }>, fields: string[]): Promise<void> {
  const before = await auditCount();
  const result = await call();
  expect(result.http, JSON.stringify(result.body)).toBe(400);
  expect(result.body.status).toBe(ERR.validation);
  expect(fieldsOf(result.body)).toEqual(expect.arrayContaining(fields));
  expect(await auditCount()).toBe(before);
}

describe('text that cannot be stored', () => {
  it('is refused in every text field named in the issue, with the field and a localised reason', async () => {
    const nul = 'x\u0000y';
    const lone = 'x\uD800y';
    await expectFieldRefusal(() => server.call(api.auth.signIn, { userId: `a${nul}@b.cd`, password: 'x' }), ['userId:invalidCharacters']);
    await expectFieldRefusal(() => server.call(api.auth.signIn, { userId: 'a@b.cd', password: nul }), ['password:invalidCharacters']);
    await expectFieldRefusal(() => server.call(api.auth.findId, { name: nul, phone: '010-1234-5678' }), ['name:invalidCharacters']);
    await expectFieldRefusal(() => server.call(api.auth.findPassword, { userId: `${lone}@b.cd` }), ['userId:invalidCharacters']);
    await expectFieldRefusal(
      () => admin(api.projects.create, { title: nul, signatureList: { department: '', user: server.admin.userId } }),
      ['title:invalidCharacters'],
    );
    await expectFieldRefusal(() => admin(api.notes.create, { projectNo: 1, title: nul }), ['title:invalidCharacters']);
    await expectFieldRefusal(
      () =>
        admin(api.signatures.respond, {
          labNoteNo: 1,
          status: 'T',
          password: 'p',
          name: nul,
          description: lone,
          timeZone: `Asia/Seoul${nul}`,
        }),
      ['name:invalidCharacters', 'description:invalidCharacters', 'timeZone:invalidCharacters'],
    );
    await expectFieldRefusal(
      () => admin(api.audit.list, { actor: nul, targetId: lone }),
      ['actor:invalidCharacters', 'targetId:invalidCharacters'],
    );
    await expectFieldRefusal(
      () => admin(api.departments.create, { code: `D${nul}`, name: nul }),
      ['code:invalidCharacters', 'name:invalidCharacters'],
    );
    await expectFieldRefusal(() => admin(api.departments.update, { code: 'D1', name: lone }), ['name:invalidCharacters']);
    await expectFieldRefusal(() => admin(api.departments.searchUsers, { type: 'user', value: nul }), ['value:invalidCharacters']);
    await expectFieldRefusal(
      () => admin(api.users.update, { userNo: member.userNo, employeeNo: nul, departmentCode: lone }),
      ['employeeNo:invalidCharacters', 'departmentCode:invalidCharacters'],
    );
  });

  it('is found anywhere in the body: nested fields, unknown fields and keys', async () => {
    await expectFieldRefusal(
      () =>
        admin(api.signatures.request, {
          labNoteNo: 1,
          signers: [
            { userId: 'ok@lab.test', type: 'reviewer' },
            { userId: 'a\u0000@b.cd', type: 'reviewer' },
          ],
        }),
      ['signers.1.userId:invalidCharacters'],
    );
    await expectFieldRefusal(
      () => server.call(api.auth.signIn, { userId: 'a@b.cd', password: 'x', extra: { deep: ['\uDC00'] } }),
      ['extra.deep.0:invalidCharacters'],
    );
    await expectFieldRefusal(
      () => server.call(api.auth.signIn, { userId: 'a@b.cd', password: 'x', ['k\u0000']: 1 }),
      ['k\uFFFD:invalidCharacters'],
    );
  });

  it('answers the reason in the caller’s language', async () => {
    const result = await server.call<ValidationErrorData>(api.auth.findPassword.path, { userId: 'a\u0000@b.cd' }, { language: 'ko' });
    expect(result.body.data.fields[0]?.message).toBe('저장할 수 없는 문자(NUL 또는 깨진 문자)가 포함되어 있습니다.');
  });

  it('is refused in the audit export filter (a lone surrogate), in the envelope', async () => {
    const { accessToken } = await server.signIn(server.admin.userId, server.admin.password);
    const before = await auditCount();
    const exported = await server.app.inject({
      method: 'POST',
      url: `/server${api.audit.exportCsv.path}`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      payload: JSON.stringify({ actor: 'a\uD800' }),
    });
    expect(exported.statusCode).toBe(400);
    expect(exported.json()).toMatchObject({ status: ERR.validation, data: { fields: [{ field: 'actor', reason: 'invalidCharacters' }] } });
    expect(await auditCount()).toBe(before);
  });
});

describe('dates and numbers', () => {
  it('refuses dates that do not exist on list and audit filters', async () => {
    for (const date of ['2026-02-30', '9999-99-99', '2025-02-29', '0000-01-01', '2026-13-01']) {
      for (const spec of [api.projects.list, api.users.list, api.users.picker, api.audit.list]) {
        await expectFieldRefusal(
          () => admin(spec, { startDate: date }),
          [`startDate:${/^\d{4}-\d{2}-\d{2}$/.test(date) ? 'invalidDate' : 'invalidFormat'}`],
        );
        await expectFieldRefusal(() => admin(spec, { endDate: date }), ['endDate:invalidDate']);
      }
    }
    const { accessToken } = await server.signIn(server.admin.userId, server.admin.password);
    const exported = await server.app.inject({
      method: 'POST',
      url: `/server${api.audit.exportCsv.path}`,
      headers: { authorization: `Bearer ${accessToken}` },
      payload: { startDate: '2026-02-30' },
    });
    expect(exported.statusCode).toBe(400);
  });

  it('accepts real dates at the edges: a leap day and the last day of year 9999', async () => {
    for (const spec of [api.projects.list, api.audit.list]) {
      const answer = await admin(spec, { startDate: '2024-02-29', endDate: '9999-12-31' });
      expect(answer.body.status, JSON.stringify(answer.body)).toBe('0000');
    }
  });

  it('refuses record numbers beyond the database’s integers', async () => {
    await expectFieldRefusal(() => admin(api.projects.editor, { projectNo: 2 ** 31 }), ['projectNo:tooBig']);
    await expectFieldRefusal(() => admin(api.users.detail, { userNo: Number.MAX_SAFE_INTEGER }), ['userNo:tooBig']);
    await expectFieldRefusal(() => admin(api.projects.list, { page: 1e12 }), ['page:tooBig']);
  });
});

describe('a user’s department', () => {
  it('is removed by an empty code, and a code that names no department is refused with 5003', async () => {
    const cleared = await admin(api.users.update, { userNo: member.userNo, departmentCode: '' });
    expect(cleared.body.status, JSON.stringify(cleared.body)).toBe('0000');
    const [row] = await server.database.db.select().from(users).where(eq(users.userNo, member.userNo));
    expect(row?.departmentCode).toBeNull();
    const missing = await admin(api.users.update, { userNo: member.userNo, departmentCode: 'NO-SUCH-DEPT' });
    expect(missing.http).toBe(422);
    expect(missing.body.status).toBe(ERR.departmentMissing);
    const created = await admin(api.users.create, {
      userId: 'nodept@lab.test',
      name: 'No Department',
      password: 'a-long-enough-password',
      departmentCode: '',
      auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' },
    });
    expect(created.body.status, JSON.stringify(created.body)).toBe('0000');
  });
});

describe('database refusals that reach the one error handler', () => {
  const cases: Array<[string, number, ErrorCode]> = [
    ['nul-text', 400, ERR.unstorableValue],
    ['nul-jsonb', 400, ERR.unstorableValue],
    ['no-such-date', 400, ERR.outOfRange],
    ['number-out-of-range', 400, ERR.outOfRange],
    ['foreign-key', 422, ERR.missingReference],
    ['unique', 409, ERR.duplicate],
  ];
  for (const [path, http, status] of cases) {
    it(`answers ${path} as ${http} ${status}, in the envelope, with nothing of the database in it`, async () => {
      const result = await server.call(`/v1/testing/sqlstate/${path}`, {});
      expect(result.http).toBe(http);
      expect(Object.keys(result.body).sort()).toEqual(['data', 'message', 'status']);
      expect(result.body).toMatchObject({ status, data: null });
      expect(result.body.message).not.toMatch(/invalid|violat|constraint|users|0x00|SQL/i);
    });
  }

  it('keeps the specific codes routes give unique names', async () => {
    const first = await admin(api.departments.create, { code: 'TWIN', name: 'Twin' });
    expect(first.body.status).toBe('0000');
    expect((await admin(api.departments.create, { code: 'TWIN', name: 'Twin again' })).body.status).toBe(ERR.departmentDuplicate);
    const user = {
      userId: 'twin@lab.test',
      name: 'Twin',
      password: 'a-long-enough-password',
      auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' },
    };
    expect((await admin(api.users.create, user)).body.status).toBe('0000');
    expect((await admin(api.users.create, user)).body.status).toBe(ERR.userDuplicate);
    const project = { title: 'Twin project', signatureList: { department: '', user: server.admin.userId } };
    expect((await admin(api.projects.create, project)).body.status).toBe('0000');
    expect((await admin(api.projects.create, project)).body.status).toBe(ERR.projectDuplicate);
  });
});
