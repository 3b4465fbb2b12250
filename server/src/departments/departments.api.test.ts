import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc } from 'drizzle-orm';
import { ERR, type CompanyDepartments, type DepartmentRow, type DepartmentSearchGroup, type ValidationErrorData } from '@eln/shared';
import { auditLog, users } from '../db/schema.js';
import { startTestServer, type Caller, type TestServer } from '../testing/harness.js';
import { eq } from 'drizzle-orm';

let server: TestServer;
let admin: Caller;
let member: Caller;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.as(server.admin);
  member = await server.as(await server.createUser());
});
afterAll(async () => {
  await server?.stop();
});

const list = async () => (await admin<{ list: DepartmentRow[] }>('/v1/department/list')).body.data.list;

describe('departments', () => {
  it('are created by administrators as a tree, listed with user counts and audited', async () => {
    expect((await admin('/v1/department/create', { code: 'RND', name: 'Research' })).body.status).toBe('0000');
    expect((await admin('/v1/department/create', { code: 'RND-CHEM', name: 'Chemistry', parentCode: 'RND' })).body.status).toBe('0000');
    const chemist = await server.createUser();
    await server.database.db.update(users).set({ departmentCode: 'RND-CHEM' }).where(eq(users.userNo, chemist.userNo));

    const rows = await list();
    expect(rows.find((d) => d.code === 'RND-CHEM')).toEqual({ code: 'RND-CHEM', name: 'Chemistry', parentCode: 'RND', userCount: 1, source: 'local' });
    const [audit] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(audit).toMatchObject({ action: 'department.created', targetId: 'RND-CHEM', after: { code: 'RND-CHEM', name: 'Chemistry', parentCode: 'RND' } });
  });

  it('answer the company tree to join, and refuse an unknown company', async () => {
    const joined = await member<{ list: CompanyDepartments[] }>('/v1/department/join', { companyCode: server.config.company.code });
    expect(joined.body.data.list).toHaveLength(1);
    const company = joined.body.data.list[0]!;
    expect(company.companyName).toBe(server.config.company.name);
    const research = company.children.find((d) => d.code === 'RND');
    expect(research?.children.map((c) => c.code)).toEqual(['RND-CHEM']);
    const unknown = await member('/v1/department/join', { companyCode: 'NOPE' });
    expect(unknown.http).toBe(404);
    expect(unknown.body.status).toBe(ERR.noDepartment);
  });

  it('are renamed and moved, never under themselves or their own descendants', async () => {
    await admin('/v1/department/create', { code: 'RND-CHEM-ORG', name: 'Organic', parentCode: 'RND-CHEM' });
    const cycle = await admin('/v1/department/update', { code: 'RND', parentCode: 'RND-CHEM-ORG' });
    expect(cycle.http).toBe(422);
    expect(cycle.body.status).toBe(ERR.departmentCycle);
    expect((await admin('/v1/department/update', { code: 'RND', parentCode: 'RND' })).body.status).toBe(ERR.departmentCycle);

    expect((await admin('/v1/department/update', { code: 'RND-CHEM-ORG', name: 'Organic chemistry', parentCode: 'RND' })).body.status).toBe('0000');
    const moved = (await list()).find((d) => d.code === 'RND-CHEM-ORG');
    expect(moved).toMatchObject({ name: 'Organic chemistry', parentCode: 'RND' });
    const [audit] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(audit).toMatchObject({
      action: 'department.updated',
      before: { name: 'Organic', parentCode: 'RND-CHEM' },
      after: { name: 'Organic chemistry', parentCode: 'RND' },
    });
    expect((await admin('/v1/department/update', { code: 'RND-CHEM-ORG', parentCode: null })).body.status).toBe('0000');
    expect((await list()).find((d) => d.code === 'RND-CHEM-ORG')?.parentCode).toBeNull();
  });

  it('refuse duplicates, unknown parents, bad codes and long names, changing nothing', async () => {
    const before = await list();
    expect((await admin('/v1/department/create', { code: 'RND', name: 'Again' })).body.status).toBe(ERR.departmentDuplicate);
    expect((await admin('/v1/department/create', { code: 'QA', name: 'Quality', parentCode: 'NOPE' })).body.status).toBe(ERR.departmentMissing);
    const bad = await admin<ValidationErrorData>('/v1/department/create', { code: 'has space', name: 'x'.repeat(51) });
    expect(bad.http).toBe(400);
    expect(bad.body.data.fields.map((f) => [f.field, f.reason])).toEqual([
      ['code', 'invalidFormat'],
      ['name', 'tooLong'],
    ]);
    expect((await admin('/v1/department/update', { code: 'NOPE', name: 'x' })).body.status).toBe(ERR.departmentMissing);
    expect(await list()).toEqual(before);
  });

  it('are kept by administrators only', async () => {
    const refused = await member('/v1/department/create', { code: 'X1', name: 'Mine' });
    expect(refused.http).toBe(403);
    expect((await member('/v1/department/update', { code: 'RND', name: 'Mine' })).http).toBe(403);
  });

  it('search users by name or ID, grouped by department, with their auth flags', async () => {
    const lee = await server.createUser({ name: 'Lee Seoyeon', auth: { project: 'Y', schema: 'Y', dropbox: 'N', template: 'N' } });
    await server.database.db.update(users).set({ departmentCode: 'RND' }).where(eq(users.userNo, lee.userNo));
    await server.createUser({ name: 'Lee Minho', active: false });
    const found = await member<{ list: DepartmentSearchGroup[] }>('/v1/department/search', { type: 'user', value: 'lee s' });
    expect(found.body.data.list).toEqual([
      {
        code: 'RND',
        name: 'Research',
        children: [{ departmentCode: 'RND', userNo: lee.userNo, userId: lee.userId, name: 'Lee Seoyeon', project: 'Y', schema: 'Y', dropbox: 'N', template: 'N' }],
      },
    ]);
    const everyLee = await member<{ list: DepartmentSearchGroup[] }>('/v1/department/search', { type: 'user', value: 'Lee' });
    expect(everyLee.body.data.list.flatMap((g) => g.children.map((u) => u.name))).toEqual(['Lee Seoyeon']);
    expect((await member('/v1/department/search', { type: 'project', value: 'x' })).http).toBe(400);
  });
});
