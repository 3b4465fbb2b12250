import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { api, ERR, type ValidationErrorData } from '@eln/shared';
import { auditLog, projects, users } from '../db/schema.js';
import { startTestServer, type Caller, type NewUser, type TestServer } from '../testing/harness.js';

let server: TestServer;
let admin: Caller;
let leaderUser: NewUser & { userNo: number };
let leader: Caller;
let participantUser: NewUser & { userNo: number };
let participant: Caller;
let outsider: Caller;
let noFlag: Caller;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.as(server.admin);
  await admin(api.departments.create, { code: 'BIO', name: 'Biology' });
  leaderUser = await server.createUser({ name: 'Park Leader' });
  await server.database.db.update(users).set({ departmentCode: 'BIO' }).where(eq(users.userNo, leaderUser.userNo));
  participantUser = await server.createUser({ name: 'Jung Participant' });
  leader = await server.as(leaderUser);
  participant = await server.as(participantUser);
  outsider = await server.as(await server.createUser({ name: 'Outsider' }));
  noFlag = await server.as(await server.createUser({ auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' } }));
});
afterAll(async () => {
  await server?.stop();
});

const create = (caller: Caller, title: string, users = [participantUser.userId], department = '') =>
  caller(api.projects.create, {
    title,
    description: `About ${title}`,
    signatureList: { department, user: users.join(',') },
  });

const lastAudit = async () => (await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1))[0];

describe('creating projects', () => {
  it('makes the creator the leader, stores participants and departments, and audits it', async () => {
    const created = await create(leader, 'Enzyme kinetics', [participantUser.userId, leaderUser.userId.toUpperCase()], 'BIO');
    expect(created.body.status).toBe('0000');
    const projectNo = created.body.data.projectNo;
    const detail = await leader(api.projects.detail, { projectNo });
    expect(detail.body.data).toMatchObject({
      no: projectNo,
      title: 'Enzyme kinetics',
      description: 'About Enzyme kinetics',
      status: 'ING',
      userId: leaderUser.userId,
      leaderName: 'Park Leader',
      departments: [{ code: 'BIO', name: 'Biology' }],
      abilities: expect.objectContaining({ modify: true }),
    });
    expect(detail.body.data.participants.map((p) => p.name)).toEqual(['Jung Participant', 'Park Leader']);
    expect(detail.body.data.signatureList.department).toBe('BIO');
    expect(detail.body.data.signatureList.user.split(',').sort()).toEqual([leaderUser.userId, participantUser.userId].sort());
    expect(await lastAudit()).toMatchObject({
      action: 'project.created',
      targetId: String(projectNo),
      after: { title: 'Enzyme kinetics', status: 'ING' },
    });
  });

  it('trims the title and enforces the lengths of the spec (25 and 100)', async () => {
    const exact = await create(leader, `  ${'가'.repeat(25)}  `);
    expect(exact.body.status).toBe('0000');
    const tooLong = await leader<ValidationErrorData>(api.projects.create.path, {
      title: 'x'.repeat(26),
      description: 'y'.repeat(101),
      signatureList: { department: '', user: participantUser.userId },
    });
    expect(tooLong.http).toBe(400);
    expect(tooLong.body.data.fields.map((f) => [f.field, f.reason, f.params])).toEqual([
      ['title', 'tooLong', { max: 25 }],
      ['description', 'tooLong', { max: 100 }],
    ]);
    const blank = await leader<ValidationErrorData>(api.projects.create.path, {
      title: '   ',
      signatureList: { department: '', user: participantUser.userId },
    });
    expect(blank.body.data.fields).toMatchObject([{ field: 'title', reason: 'required' }]);
  });

  it('needs at least one participant user, all of them existing and active', async () => {
    const none = await leader<ValidationErrorData>(api.projects.create.path, {
      title: 'Lonely',
      signatureList: { department: 'BIO', user: ' , ' },
    });
    expect(none.http).toBe(400);
    expect(none.body.data.fields).toMatchObject([
      { field: 'signatureList.user', reason: 'tooFew', params: { min: 1 }, message: 'Add at least 1.' },
    ]);
    const ghost = await create(leader, 'Ghostly', ['ghost@lab.test']);
    expect(ghost.http).toBe(422);
    expect(ghost.body).toMatchObject({ status: ERR.participantMissing, data: { missing: ['ghost@lab.test'] } });
    const badDepartment = await create(leader, 'Nowhere', [participantUser.userId], 'NOPE');
    expect(badDepartment.body.status).toBe(ERR.departmentMissing);
    const titles = (await server.database.db.select().from(projects)).map((p) => p.title);
    expect(titles).not.toContain('Lonely');
    expect(titles).not.toContain('Ghostly');
    expect(titles).not.toContain('Nowhere');
  });

  it('refuses a duplicate title with 2001, whoever owns the other project', async () => {
    await create(leader, 'Unique title');
    const duplicate = await create(admin, 'Unique title');
    expect(duplicate.http).toBe(409);
    expect(duplicate.body.status).toBe(ERR.projectDuplicate);
  });

  it('is refused to users without the project flag', async () => {
    const refused = await create(noFlag, 'Not allowed');
    expect(refused.http).toBe(403);
    expect(refused.body.status).toBe(ERR.forbidden);
  });
});

describe('seeing projects', () => {
  let secretNo: number;
  beforeAll(async () => {
    const other = await server.createUser({ name: 'Other Leader' });
    secretNo = (await create(await server.as(other), 'Someone else’s secret', [other.userId])).body.data.projectNo;
  });

  it('members see what they lead or take part in; administrators see all', async () => {
    const titlesOf = async (caller: Caller) => (await caller(api.projects.list, { pageSize: 100 })).body.data.list.map((p) => p.title);
    expect(await titlesOf(participant)).toContain('Enzyme kinetics');
    expect(await titlesOf(participant)).not.toContain('Someone else’s secret');
    expect(await titlesOf(outsider)).toEqual([]);
    expect(await titlesOf(admin)).toContain('Someone else’s secret');
  });

  it('another member’s project is unreachable by number: 404 on check, editor and update', async () => {
    for (const spec of [api.projects.detail, api.projects.editor]) {
      const result = await leader(spec, { projectNo: secretNo });
      expect(result.http, spec.path).toBe(404);
      expect(result.body.status).toBe(ERR.notFound);
    }
    const update = await leader(api.projects.update, { projectNo: secretNo, signatureList: { department: '', user: leaderUser.userId } });
    expect(update.http).toBe(404);
    expect((await leader(api.projects.detail, { projectNo: 999_999 })).http).toBe(404);
  });

  it('a title taken by a project the caller cannot see answers 2001 and nothing more (titles are not secret)', async () => {
    const before = await server.database.db.select().from(projects);
    const auditBefore = await lastAudit();
    const taken = await create(outsider, 'Someone else’s secret');
    expect(taken.http).toBe(409);
    // The decision (docs/decisions.md): titles are unique company-wide, so that a title is taken is
    // public; which project holds it, who leads it and what it contains stay hidden.
    expect(taken.body).toEqual({ status: ERR.projectDuplicate, message: expect.any(String), data: null });
    expect(JSON.stringify(taken.body)).not.toContain(String(secretNo));
    expect(await server.database.db.select().from(projects)).toHaveLength(before.length);
    expect((await lastAudit())?.seq).toBe(auditBefore?.seq);
    expect((await outsider(api.projects.detail, { projectNo: secretNo })).http).toBe(404);
  });

  it('answers editor with the project info and its (for now empty) note list', async () => {
    const [enzyme] = await server.database.db.select().from(projects).where(eq(projects.title, 'Enzyme kinetics'));
    const editor = await participant(api.projects.editor, { projectNo: enzyme!.projectNo });
    expect(editor.body.data.info.title).toBe('Enzyme kinetics');
    expect(editor.body.data.info.abilities.modify).toBe(false);
    expect(editor.body.data.list).toEqual([]);
  });

  it('searches by title or leader, filters by created date, and pages with a numeric total', async () => {
    for (let i = 1; i <= 12; i += 1) await create(leader, `Batch ${String(i).padStart(2, '0')}`);
    const page1 = await leader(api.projects.list, { type: 'title', value: 'batch', page: 1, pageSize: 5 });
    expect(page1.body.data.totalCount).toBe(12);
    expect(typeof page1.body.data.totalCount).toBe('number');
    expect(page1.body.data.list.map((p) => p.title)).toEqual(['Batch 12', 'Batch 11', 'Batch 10', 'Batch 09', 'Batch 08']);
    expect(page1.body.data.list[0]).toMatchObject({
      userId: leaderUser.userId,
      leaderName: 'Park Leader',
      department: 'Biology',
      participantCount: 1,
      status: 'ING',
    });
    const page3 = await leader(api.projects.list, { type: 'title', value: 'batch', page: 3, pageSize: 5 });
    expect(page3.body.data.list.map((p) => p.title)).toEqual(['Batch 02', 'Batch 01']);
    const beyond = await leader(api.projects.list, { type: 'title', value: 'batch', page: 10_000, pageSize: 5 });
    expect(beyond.body.data).toEqual({ list: [], totalCount: 12 });

    const byLeader = await participant(api.projects.list, { type: 'leader', value: 'park', pageSize: 100 });
    expect(byLeader.body.data.list.every((p) => p.leaderName === 'Park Leader')).toBe(true);
    expect(byLeader.body.data.totalCount).toBeGreaterThan(12);

    const today = new Date().toISOString().slice(0, 10);
    const inRange = await leader(api.projects.list, { value: 'batch', startDate: today, endDate: today });
    expect(inRange.body.data.totalCount).toBe(12);
    const past = await leader(api.projects.list, {
      value: 'batch',
      startDate: '2020-01-01',
      endDate: '2020-12-31',
    });
    expect(past.body.data.totalCount).toBe(0);
  });

  it('refuses paging out of bounds and dates in the wrong order', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ page: 0 }, 'page', 'tooSmall'],
      [{ pageSize: 101 }, 'pageSize', 'tooBig'],
      [{ pageSize: 0 }, 'pageSize', 'tooSmall'],
      [{ startDate: '2026-03-02', endDate: '2026-03-01' }, 'endDate', 'dateOrder'],
      [{ startDate: '03/02/2026' }, 'startDate', 'invalidFormat'],
      [{ type: 'secret' }, 'type', 'invalidValue'],
    ];
    for (const [body, field, reason] of cases) {
      const result = await leader<ValidationErrorData>(api.projects.list.path, body);
      expect(result.http, JSON.stringify(body)).toBe(400);
      expect(result.body.data.fields).toMatchObject([{ field, reason }]);
    }
  });
});

describe('changing projects', () => {
  it('the leader changes participants, title and description; audited with before and after', async () => {
    const projectNo = (await create(leader, 'Changing one')).body.data.projectNo;
    const extra = await server.createUser({ name: 'Added Later' });
    const result = await leader(api.projects.update, {
      projectNo,
      title: 'Changed one',
      description: 'New words',
      signatureList: { department: 'BIO', user: `${participantUser.userId},${extra.userId}` },
    });
    expect(result.body.status).toBe('0000');
    const detail = (await leader(api.projects.detail, { projectNo })).body.data;
    expect(detail).toMatchObject({ title: 'Changed one', description: 'New words', departments: [{ code: 'BIO' }] });
    expect(detail.participants.map((p) => p.name).sort()).toEqual(['Added Later', 'Jung Participant']);
    expect(await lastAudit()).toMatchObject({
      action: 'project.updated',
      before: { title: 'Changing one', signatureList: { department: '', user: participantUser.userId } },
      after: { title: 'Changed one', description: 'New words' },
    });
    const extraCaller = await server.as(extra);
    expect((await extraCaller(api.projects.detail, { projectNo })).body.status).toBe('0000');
  });

  it('a participant who is not the leader cannot change it; an administrator can', async () => {
    const projectNo = (await create(leader, 'Leader only')).body.data.projectNo;
    const refused = await participant(api.projects.update, {
      projectNo,
      title: 'Hijacked',
      signatureList: { department: '', user: participantUser.userId },
    });
    expect(refused.http).toBe(403);
    expect((await leader(api.projects.detail, { projectNo })).body.data.title).toBe('Leader only');
    const byAdmin = await admin(api.projects.update, {
      projectNo,
      description: 'Admin note',
      signatureList: { department: '', user: participantUser.userId },
    });
    expect(byAdmin.body.status).toBe('0000');
  });

  it('refuses a rename onto another project’s title and an update with no participant', async () => {
    await create(leader, 'Taken name');
    const projectNo = (await create(leader, 'Free name')).body.data.projectNo;
    const taken = await leader(api.projects.update, {
      projectNo,
      title: 'Taken name',
      signatureList: { department: '', user: participantUser.userId },
    });
    expect(taken.body.status).toBe(ERR.projectDuplicate);
    const empty = await leader(api.projects.update, { projectNo, signatureList: { department: '', user: '' } });
    expect(empty.http).toBe(400);
    expect((await leader(api.projects.detail, { projectNo })).body.data.participants).toHaveLength(1);
  });

  it('a completed project refuses every change (2002) and stays as it was', async () => {
    const projectNo = (await create(leader, 'Finished work')).body.data.projectNo;
    await server.database.db.update(projects).set({ status: 'C', finishedAt: new Date() }).where(eq(projects.projectNo, projectNo));
    const before = (await leader(api.projects.detail, { projectNo })).body.data;
    expect(before.abilities.modify).toBe(false);
    for (const caller of [leader, admin]) {
      const refused = await caller(api.projects.update, {
        projectNo,
        title: 'Reopened',
        signatureList: { department: '', user: leaderUser.userId },
      });
      expect(refused.http).toBe(422);
      expect(refused.body.status).toBe(ERR.projectModify);
    }
    expect((await leader(api.projects.detail, { projectNo })).body.data).toEqual(before);
  });
});

describe('the dashboard', () => {
  it('counts the projects the caller can see by state, and the libraries (templates, schemas, dropboxes) it may see', async () => {
    const counts = (await leader(api.dashboard.counts)).body.data;
    const all = (await leader(api.projects.list, { pageSize: 100 })).body.data.list;
    expect(counts.ongoing).toBe(all.filter((p) => p.status === 'ING').length);
    expect(counts.closed).toBe(all.filter((p) => p.status === 'C').length);
    expect(counts.closed).toBeGreaterThanOrEqual(1);
    expect(counts).toMatchObject({ closable: 0, templates: 0, schemas: 0, dropboxes: 0 });
    expect((await outsider(api.dashboard.counts)).body.data).toMatchObject({ ongoing: 0, closed: 0 });
  });

  it('filters the project list by status exactly as the dashboard counts', async () => {
    const counts = (await leader(api.dashboard.counts)).body.data;
    for (const [status, expected] of [
      ['ING', counts.ongoing],
      ['C', counts.closed],
      ['closable', counts.closable],
    ] as const) {
      const answer = (await leader(api.projects.list, { pageSize: 100, status })).body.data;
      expect(answer.totalCount, status).toBe(expected);
      if (status !== 'closable') expect(answer.list.every((p) => p.status === status)).toBe(true);
    }
    expect((await leader(api.projects.list, { status: 'DONE' })).body.status).toBe(ERR.validation);
  });
});
