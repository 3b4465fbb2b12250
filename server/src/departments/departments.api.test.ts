import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc } from 'drizzle-orm';
import { api, ERR, type DepartmentSearchAnswer, type ValidationErrorData } from '@eln/shared';
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

const list = async () => (await admin(api.departments.list)).body.data.list;

describe('departments', () => {
  it('are created by administrators as a tree, listed with user counts and audited', async () => {
    expect((await admin(api.departments.create, { code: 'RND', name: 'Research' })).body.status).toBe('0000');
    expect((await admin(api.departments.create, { code: 'RND-CHEM', name: 'Chemistry', parentCode: 'RND' })).body.status).toBe('0000');
    const chemist = await server.createUser();
    await server.database.db.update(users).set({ departmentCode: 'RND-CHEM' }).where(eq(users.userNo, chemist.userNo));

    const rows = await list();
    expect(rows.find((d) => d.code === 'RND-CHEM')).toEqual({
      code: 'RND-CHEM',
      name: 'Chemistry',
      parentCode: 'RND',
      userCount: 1,
      source: 'local',
      missingSince: null,
    });
    const [audit] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(audit).toMatchObject({
      action: 'department.created',
      targetId: 'RND-CHEM',
      after: { code: 'RND-CHEM', name: 'Chemistry', parentCode: 'RND' },
    });
  });

  it('answer the company tree to join, and refuse an unknown company', async () => {
    const joined = await member(api.departments.companyTree, { companyCode: server.config.company.code });
    expect(joined.body.data.list).toHaveLength(1);
    const company = joined.body.data.list[0]!;
    expect(company.companyName).toBe(server.config.company.name);
    const research = company.children.find((d) => d.code === 'RND');
    expect(research?.children.map((c) => c.code)).toEqual(['RND-CHEM']);
    const unknown = await member(api.departments.companyTree, { companyCode: 'NOPE' });
    expect(unknown.http).toBe(404);
    expect(unknown.body.status).toBe(ERR.noDepartment);
  });

  it('are renamed and moved, never under themselves or their own descendants', async () => {
    await admin(api.departments.create, { code: 'RND-CHEM-ORG', name: 'Organic', parentCode: 'RND-CHEM' });
    const cycle = await admin(api.departments.update, { code: 'RND', parentCode: 'RND-CHEM-ORG' });
    expect(cycle.http).toBe(422);
    expect(cycle.body.status).toBe(ERR.departmentCycle);
    expect((await admin(api.departments.update, { code: 'RND', parentCode: 'RND' })).body.status).toBe(ERR.departmentCycle);

    expect((await admin(api.departments.update, { code: 'RND-CHEM-ORG', name: 'Organic chemistry', parentCode: 'RND' })).body.status).toBe(
      '0000',
    );
    const moved = (await list()).find((d) => d.code === 'RND-CHEM-ORG');
    expect(moved).toMatchObject({ name: 'Organic chemistry', parentCode: 'RND' });
    const [audit] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(audit).toMatchObject({
      action: 'department.updated',
      before: { name: 'Organic', parentCode: 'RND-CHEM' },
      after: { name: 'Organic chemistry', parentCode: 'RND' },
    });
    expect((await admin(api.departments.update, { code: 'RND-CHEM-ORG', parentCode: null })).body.status).toBe('0000');
    expect((await list()).find((d) => d.code === 'RND-CHEM-ORG')?.parentCode).toBeNull();
  });

  it('refuse duplicates, unknown parents, bad codes and long names, changing nothing', async () => {
    const before = await list();
    expect((await admin(api.departments.create, { code: 'RND', name: 'Again' })).body.status).toBe(ERR.departmentDuplicate);
    expect((await admin(api.departments.create, { code: 'QA', name: 'Quality', parentCode: 'NOPE' })).body.status).toBe(
      ERR.departmentMissing,
    );
    const bad = await admin<ValidationErrorData>(api.departments.create.path, { code: 'has space', name: 'x'.repeat(51) });
    expect(bad.http).toBe(400);
    expect(bad.body.data.fields.map((f) => [f.field, f.reason])).toEqual([
      ['code', 'invalidFormat'],
      ['name', 'tooLong'],
    ]);
    expect((await admin(api.departments.update, { code: 'NOPE', name: 'x' })).body.status).toBe(ERR.departmentMissing);
    expect(await list()).toEqual(before);
  });

  it('are kept by administrators only', async () => {
    const refused = await member(api.departments.create, { code: 'X1', name: 'Mine' });
    expect(refused.http).toBe(403);
    expect((await member(api.departments.update, { code: 'RND', name: 'Mine' })).http).toBe(403);
  });

  it('search users by name or ID, grouped by department, with their auth flags', async () => {
    const lee = await server.createUser({ name: 'Lee Seoyeon', auth: { project: 'Y', schema: 'Y', dropbox: 'N', template: 'N' } });
    await server.database.db.update(users).set({ departmentCode: 'RND' }).where(eq(users.userNo, lee.userNo));
    await server.createUser({ name: 'Lee Minho', active: false });
    const found = await member(api.departments.searchUsers, { type: 'user', value: 'lee s' });
    expect(found.body.data.list).toEqual([
      {
        code: 'RND',
        name: 'Research',
        children: [
          {
            departmentCode: 'RND',
            userNo: lee.userNo,
            userId: lee.userId,
            name: 'Lee Seoyeon',
            project: 'Y',
            schema: 'Y',
            dropbox: 'N',
            template: 'N',
          },
        ],
      },
    ]);
    const everyLee = await member(api.departments.searchUsers, { type: 'user', value: 'Lee' });
    expect(everyLee.body.data.list.flatMap((g) => g.children.map((u) => u.name))).toEqual(['Lee Seoyeon']);
    expect((await member(api.departments.searchUsers, { type: 'project', value: 'x' })).http).toBe(400);
  });

  it('answer a department’s people a page at a time, in a stable order, and the people of none apart', async () => {
    await admin(api.departments.create, { code: 'BIG', name: 'Big lab' });
    await admin(api.departments.create, { code: 'BIG-SUB', name: 'Big lab subgroup', parentCode: 'BIG' });
    const db = server.database.db;
    // Same names on purpose: the user number breaks the tie, so no page repeats or skips anyone.
    const made: number[] = [];
    for (let i = 0; i < 23; i += 1) {
      const user = await server.createUser({ name: `Pager ${String(i % 5)}` });
      await db
        .update(users)
        .set({ departmentCode: i < 20 ? 'BIG' : 'BIG-SUB' })
        .where(eq(users.userNo, user.userNo));
      made.push(user.userNo);
    }
    const pages: number[][] = [];
    let after: DepartmentSearchAnswer['next'] = null;
    do {
      const page: DepartmentSearchAnswer = (
        await member(api.departments.searchUsers, {
          type: 'user',
          departmentCodes: ['BIG'],
          pageSize: 6,
          ...(after ? { after } : {}),
        })
      ).body.data;
      pages.push(page.list.flatMap((g) => g.children.map((u) => u.userNo)));
      after = page.next;
    } while (after && pages.length < 10);
    expect(pages.map((p) => p.length)).toEqual([6, 6, 6, 2]);
    expect(pages.flat().sort((a, b) => a - b)).toEqual(made.slice(0, 20).sort((a, b) => a - b));
    // A subtree is asked for by its codes; the answer keeps departments together.
    const subtree = (await member(api.departments.searchUsers, { type: 'user', departmentCodes: ['BIG', 'BIG-SUB'] })).body.data;
    expect(subtree.list.map((g) => [g.code, g.children.length])).toEqual([
      ['BIG', 20],
      ['BIG-SUB', 3],
    ]);
    expect(subtree.next).toBeNull();
    // The tree carries each department's head count, and how many people are in none.
    const company = (await member(api.departments.companyTree, { companyCode: server.config.company.code })).body.data.list[0]!;
    const big = company.children.find((d) => d.code === 'BIG');
    expect(big).toMatchObject({ userCount: 20, children: [{ code: 'BIG-SUB', userCount: 3, children: [] }] });
    const none = (await member(api.departments.searchUsers, { type: 'user', noDepartment: true })).body.data;
    expect(none.list.every((g) => g.code === null)).toBe(true);
    expect(none.list.flatMap((g) => g.children)).toHaveLength(company.unassignedUserCount);
    expect(company.unassignedUserCount).toBeGreaterThan(0);
  });

  it('refuse a search page that is too large, a malformed cursor, or both scopes at once', async () => {
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ pageSize: 501 }, 'pageSize'],
      [{ pageSize: 0 }, 'pageSize'],
      [{ after: { departmentName: null, name: 'x' } }, 'after.userNo'],
      [{ departmentCodes: [] }, 'departmentCodes'],
      [{ departmentCodes: ['bad code!'] }, 'departmentCodes.0'],
      [{ departmentCodes: ['BIG'], noDepartment: true }, 'noDepartment'],
    ];
    for (const [body, field] of refusals) {
      const refused = await member<ValidationErrorData>(api.departments.searchUsers.path, { type: 'user', ...body });
      expect(refused.http, JSON.stringify(body)).toBe(400);
      expect(
        refused.body.data.fields.map((f) => f.field),
        JSON.stringify(body),
      ).toContain(field);
    }
  });
});
