import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { api, ERR, type AdminUserCreate, type ValidationErrorData } from '@eln/shared';
import { auditLog, users } from '../db/schema.js';
import { startTestServer, type Caller, type TestServer } from '../testing/harness.js';

let server: TestServer;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.as(server.admin);
  await admin(api.departments.create, { code: 'QA', name: 'Quality' });
});
afterAll(async () => {
  await server?.stop();
});

const newUser = (overrides: Partial<AdminUserCreate> = {}): AdminUserCreate => ({
  userId: `person.${Math.random().toString(36).slice(2, 8)}@lab.test`,
  name: 'Choi Hana',
  password: 'a good long password',
  employeeNo: 'E-1001',
  phone: '010-2222-3333',
  departmentCode: 'QA',
  level: 1,
  auth: { project: 'Y', schema: 'N', dropbox: 'Y', template: 'N' },
  ...overrides,
});

const lastAudit = async () => (await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1))[0];

describe('administrators manage users', () => {
  it('create one who can then sign in with the flags given, audited without the password', async () => {
    const fields = newUser();
    const created = await admin(api.users.create, fields);
    expect(created.body.status).toBe('0000');
    const detail = await admin(api.users.detail, { userNo: created.body.data.userNo });
    expect(detail.body.data).toMatchObject({
      userId: fields.userId,
      email: fields.userId,
      name: 'Choi Hana',
      employeeNo: 'E-1001',
      phone: '010-2222-3333',
      departmentCode: 'QA',
      departmentName: 'Quality',
      level: 1,
      active: true,
      auth: { project: 'Y', schema: 'N', dropbox: 'Y', template: 'N' },
    });
    expect(Date.parse(detail.body.data.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    const audit = await lastAudit();
    expect(audit?.action).toBe('user.created');
    expect(JSON.stringify(audit)).not.toContain('a good long password');
    expect(JSON.stringify(audit)).not.toContain('argon2');
    const answer = await server.signIn(fields.userId, fields.password);
    expect(answer.auth).toEqual({ project: 'Y', schema: 'N', dropbox: 'Y', template: 'N' });
  });

  it('refuse a duplicate ID, an unknown department and invalid fields, creating nothing', async () => {
    const fields = newUser();
    await admin(api.users.create, fields);
    const countBefore = (await server.database.db.select().from(users)).length;
    const duplicate = await admin(api.users.create, { ...fields, userId: fields.userId.toUpperCase() });
    expect(duplicate.http).toBe(409);
    expect(duplicate.body.status).toBe(ERR.userDuplicate);
    expect((await admin(api.users.create, newUser({ departmentCode: 'NOPE' }))).body.status).toBe(ERR.departmentMissing);
    const invalid = await admin<ValidationErrorData>(api.users.create.path, {
      ...newUser(),
      userId: 'no-at-sign',
      phone: '010-22-3333',
      password: 'short',
      level: 11,
      name: '',
      sneaky: true,
    });
    expect(invalid.http).toBe(400);
    expect(Object.fromEntries(invalid.body.data.fields.map((f) => [f.field, f.reason]))).toEqual({
      userId: 'invalidEmail',
      phone: 'invalidPhone',
      password: 'tooShort',
      level: 'tooBig',
      name: 'required',
      sneaky: 'unknownField',
    });
    expect((await server.database.db.select().from(users)).length).toBe(countBefore);
  });

  it('update level, flags and department, with before and after in the audit trail', async () => {
    const created = await admin(api.users.create, newUser());
    const userNo = created.body.data.userNo;
    const update = await admin(api.users.update, {
      userNo,
      level: 5,
      departmentCode: null,
      auth: { project: 'N', schema: 'Y', dropbox: 'N', template: 'Y' },
    });
    expect(update.body.status).toBe('0000');
    const detail = await admin(api.users.detail, { userNo });
    expect(detail.body.data).toMatchObject({
      level: 5,
      departmentCode: null,
      auth: { project: 'N', schema: 'Y', dropbox: 'N', template: 'Y' },
    });
    expect(await lastAudit()).toMatchObject({
      action: 'user.updated',
      before: { level: 1, departmentCode: 'QA', auth: { project: 'Y', template: 'N' } },
      after: { level: 5, departmentCode: null, auth: { project: 'N', template: 'Y' } },
    });
  });

  it('deactivating a user or setting their password ends their sessions at once', async () => {
    const fields = newUser();
    const { userNo } = (await admin(api.users.create, fields)).body.data;
    const session = await server.signIn(fields.userId, fields.password);
    await admin(api.users.update, { userNo, password: 'another long password' });
    expect((await server.call(api.auth.flags, {}, { token: session.accessToken })).http).toBe(401);
    expect((await lastAudit())?.after).toMatchObject({ passwordChanged: true });
    const again = await server.signIn(fields.userId, 'another long password');
    await admin(api.users.update, { userNo, active: false });
    expect((await server.call(api.auth.flags, {}, { token: again.accessToken })).http).toBe(401);
    expect((await server.call(api.auth.signIn, { userId: fields.userId, password: 'another long password' })).body.status).toBe(
      ERR.accountDisabled,
    );
  });

  it('an administrator cannot take away their own level 10 or deactivate themselves', async () => {
    const [me] = await server.database.db.select().from(users).where(eq(users.userId, server.admin.userId));
    for (const change of [{ level: 9 }, { active: false }]) {
      const refused = await admin(api.users.update, { userNo: me!.userNo, ...change });
      expect(refused.http).toBe(422);
      expect(refused.body.status).toBe(ERR.selfDemotion);
    }
    const [after] = await server.database.db.select().from(users).where(eq(users.userNo, me!.userNo));
    expect(after).toMatchObject({ level: 10, active: true });
    expect((await admin(api.users.update, { userNo: me!.userNo, name: 'Admin Renamed' })).body.status).toBe('0000');
  });

  it('list with search and paging, the total a number', async () => {
    for (let i = 0; i < 12; i += 1) await admin(api.users.create, newUser({ name: `Paging Person ${i}`, employeeNo: `P-${i}` }));
    const first = await admin(api.users.list, {
      type: 'name',
      value: 'Paging Person',
      page: 1,
      pageSize: 5,
    });
    expect(first.body.data.totalCount).toBe(12);
    expect(first.body.data.list.map((u) => u.name)).toEqual([11, 10, 9, 8, 7].map((i) => `Paging Person ${i}`));
    const last = await admin(api.users.list, {
      type: 'name',
      value: 'Paging Person',
      page: 3,
      pageSize: 5,
    });
    expect(last.body.data.list).toHaveLength(2);
    const byEmployee = await admin(api.users.list, { type: 'employeeNo', value: 'P-1' });
    expect(byEmployee.body.data.list.map((u) => u.employeeNo).sort()).toEqual(['P-1', 'P-10', 'P-11']);
    const byDepartment = await admin(api.users.list, {
      type: 'department',
      value: 'quality',
      pageSize: 100,
    });
    expect(byDepartment.body.data.list.every((u) => u.departmentCode === 'QA')).toBe(true);
    const literal = await admin(api.users.list, { type: 'name', value: '%' });
    expect(literal.body.data.totalCount).toBe(0);

    // A range of creation dates (in the company's time zone): one of them is moved into last year.
    const [moved] = await server.database.db.select().from(users).where(eq(users.name, 'Paging Person 0'));
    await server.database.db
      .update(users)
      .set({ createdAt: new Date('2025-03-10T03:00:00Z') })
      .where(eq(users.userNo, moved!.userNo));
    const inRange = await admin(api.users.list, {
      type: 'name',
      value: 'Paging Person',
      startDate: '2025-03-10',
      endDate: '2025-03-10',
    });
    expect(inRange.body.data.list.map((u) => u.name)).toEqual(['Paging Person 0']);
    const since = await admin(api.users.list, {
      type: 'name',
      value: 'Paging Person',
      startDate: '2025-03-11',
      pageSize: 100,
    });
    expect(since.body.data.totalCount).toBe(11);
    expect((await admin(api.users.list, { startDate: '2025-03-12', endDate: '2025-03-11' })).body.status).toBe(ERR.validation);
  });

  it('are refused to members, who get the picker of active users instead', async () => {
    const fields = newUser({ name: 'Picker Person' });
    await admin(api.users.create, fields);
    await admin(api.users.create, newUser({ name: 'Picker Gone', active: false }));
    const member = await server.as(fields);
    for (const adminCall of [api.users.list, api.users.detail, api.users.create, api.users.update]) {
      expect((await member(adminCall, {})).http, adminCall.path).toBe(403);
    }
    const picks = await member(api.users.picker, { value: 'Picker' });
    expect(picks.body.data.list).toEqual([
      { userNo: expect.any(Number), userId: fields.userId, name: 'Picker Person', departmentCode: 'QA', departmentName: 'Quality' },
    ]);
  });
});
