import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, desc, eq, gt } from 'drizzle-orm';
import { Client, SizeLimitExceededError } from 'ldapts';
import { api, AUDIT_SYSTEM_REASONS, ERR, type DirectorySyncCounts, type DirectorySyncStatus } from '@eln/shared';
import { auditLog, departments, directorySyncRuns, users } from '../db/schema.js';
import { startTestServer, type Caller, type TestServer } from '../testing/harness.js';
import {
  companyDirectory,
  DEPARTMENT_BASE,
  departmentDn,
  DIRECTORY_READER,
  PEOPLE_BASE,
  personDn,
  personLdif,
  startTestDirectory,
  type SeedPerson,
  type TestDirectory,
} from '../testing/ldap.js';
import { DirectorySync } from './directorySync.js';

/**
 * Directory synchronisation against a real OpenLDAP (slapd on loopback, 1,200 people: more than the 500
 * an unpaged search may answer), applied to a real database. The tests run in order: each starts from
 * what the previous one left in the directory and the notebook.
 */
const PEOPLE = 1_200;
const seed = companyDirectory(PEOPLE);
const withMail = seed.people.filter((p): p is SeedPerson & { mail: string } => p.mail !== null);

let directory: TestDirectory;
let server: TestServer;
let admin: Caller;
let member: Caller;

beforeAll(async () => {
  directory = await startTestDirectory(seed);
  server = await startTestServer({ config: { directory: directory.config() } });
  admin = await server.as(server.admin);
  member = await server.as(await server.createUser({ userId: 'local.member@lab.example', name: 'Local Member' }));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await directory?.dispose();
});

const sync = () => admin(api.departments.sync);
const status = async () => (await admin(api.departments.syncStatus)).body.data;
const listDepartments = async () => (await admin(api.departments.list)).body.data.list;
const userRow = async (userId: string) => (await server.database.db.select().from(users).where(eq(users.userId, userId)))[0];
const lastAuditSeq = async () =>
  (await server.database.db.select({ seq: auditLog.seq }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1))[0]?.seq ?? 0;
const auditSince = (seq: number) => server.database.db.select().from(auditLog).where(gt(auditLog.seq, seq)).orderBy(auditLog.seq);
const runCount = async () => (await server.database.db.select({ n: count() }).from(directorySyncRuns))[0]!.n;

/** Everything the sync may change, to prove that a refused run changed nothing. */
async function notebookState() {
  const db = server.database.db;
  return {
    users: await db.select().from(users).orderBy(users.userNo),
    departments: await db.select().from(departments).orderBy(departments.code),
  };
}

const changesOf = (counts: DirectorySyncCounts | null) => ({
  departments: {
    created: counts?.departments.created,
    updated: counts?.departments.updated,
    missing: counts?.departments.missing,
    restored: counts?.departments.restored,
  },
  users: {
    created: counts?.users.created,
    updated: counts?.users.updated,
    moved: counts?.users.moved,
    deactivated: counts?.users.deactivated,
    reactivated: counts?.users.reactivated,
  },
});
const noChanges = {
  departments: { created: 0, updated: 0, missing: 0, restored: 0 },
  users: { created: 0, updated: 0, moved: 0, deactivated: 0, reactivated: 0 },
};

describe('the test directory', () => {
  it('answers an unpaged search with at most 500 people, so only a paged search reads them all', async () => {
    const client = new Client({ url: directory.url, timeout: 5_000 });
    try {
      await client.bind(DIRECTORY_READER.dn, DIRECTORY_READER.password);
      await expect(client.search(PEOPLE_BASE, { filter: '(objectClass=inetOrgPerson)', attributes: ['mail'] })).rejects.toBeInstanceOf(
        SizeLimitExceededError,
      );
    } finally {
      await client.unbind();
    }
  });
});

describe('directory synchronisation', () => {
  it('is refused to members (1003) and starts nothing', async () => {
    for (const spec of [api.departments.sync, api.departments.syncStatus]) {
      const refused = await member(spec);
      expect(refused.http).toBe(403);
      expect(refused.body.status).toBe(ERR.forbidden);
    }
    expect((await server.call(api.departments.sync)).http).toBe(401);
    expect(await runCount()).toBe(0);
    const before = await status();
    expect(before).toMatchObject({
      configured: true,
      running: null,
      last: null,
      directory: { url: directory.url, departmentBaseDn: DEPARTMENT_BASE, userBaseDn: PEOPLE_BASE },
    });
  });

  it('first reads every department and person through paged searches and creates them in one run', async () => {
    const startSeq = await lastAuditSeq();
    const answer = await sync();
    expect(answer.body.status).toBe('0000');
    const { run } = answer.body.data;
    expect(run).toMatchObject({ trigger: 'manual', outcome: 'succeeded', actor: { userId: server.admin.userId }, errorCode: null });
    expect(run.counts).toEqual({
      departments: { read: seed.departments.length + 1, created: seed.departments.length, updated: 0, missing: 0, restored: 0, skipped: 1 },
      users: { read: PEOPLE + 1, created: PEOPLE, updated: 0, moved: 0, deactivated: 0, reactivated: 0, skipped: 1 },
    });
    expect(run.notes).toEqual(
      expect.arrayContaining([
        { entry: `ou=Temporary Task Force,${DEPARTMENT_BASE}`, reason: 'departmentCodeInvalid' },
        { entry: personDn('nomail'), reason: 'userIdInvalid' },
      ]),
    );

    // The tree is the directory's, nested as its OUs are, marked as synchronised.
    const listed = await listDepartments();
    for (const d of seed.departments) {
      expect(listed.find((row) => row.code === d.code)).toMatchObject({
        name: d.name,
        parentCode: d.parentCode,
        source: 'directory',
        missingSince: null,
      });
    }
    const [stored] = await server.database.db.select().from(departments).where(eq(departments.code, 'RND-CHEM-ORG'));
    expect(stored?.directoryId).toBe(departmentDn('RND-CHEM-ORG', seed.departments));

    // Every person, with the mapped fields; none has a password anyone knows.
    const people = await server.database.db.select().from(users).where(eq(users.source, 'directory'));
    expect(people).toHaveLength(PEOPLE);
    const sample = withMail[PEOPLE - 1]!;
    expect(await userRow(sample.mail)).toMatchObject({
      name: sample.name,
      employeeNo: sample.employeeNo,
      phone: sample.phone,
      departmentCode: sample.departmentCode,
      active: true,
      level: 1,
      passwordHash: '',
    });
    const signIn = await server.call(api.auth.signIn, { userId: sample.mail, password: 'any password at all' });
    expect(signIn.body.status).toBe(ERR.badCredentials);

    // Audited: each creation with the sync as its reason, and the run with its counts.
    const records = await auditSince(startSeq);
    expect(records.filter((r) => r.action === 'user.created')).toHaveLength(PEOPLE);
    expect(records.filter((r) => r.action === 'department.created')).toHaveLength(seed.departments.length);
    expect(records.find((r) => r.action === 'user.created')).toMatchObject({
      reason: AUDIT_SYSTEM_REASONS.directorySync,
      actorUserId: server.admin.userId,
    });
    expect(records.find((r) => r.action === 'department.synced')).toMatchObject({
      action: 'department.synced',
      actorUserId: server.admin.userId,
      after: { runNo: run.runNo, trigger: 'manual', counts: run.counts },
    });

    expect((await status()).last).toEqual(run);
    // The records made in bulk are one unbroken chain with the rest.
    expect((await admin(api.audit.verify)).body.data).toMatchObject({ ok: true });
  });

  it('changes nothing when run again with nothing changed in the directory', async () => {
    const before = await notebookState();
    const startSeq = await lastAuditSeq();
    const { run } = (await sync()).body.data;
    expect(run.outcome).toBe('succeeded');
    expect(changesOf(run.counts)).toEqual(noChanges);
    expect(await notebookState()).toEqual(before);
    // The run itself is recorded (an administrator asked for it), nothing else.
    expect((await auditSince(startSeq)).map((r) => r.action)).toEqual(['department.synced']);
  });

  it('moves a person whose department changed in the directory, audited', async () => {
    const person = withMail.find((p) => p.departmentCode === 'QA-LAB')!;
    await directory.modify(`dn: ${personDn(person.uid)}\nchangetype: modify\nreplace: departmentNumber\ndepartmentNumber: RND-BIO\n`);
    const startSeq = await lastAuditSeq();
    const { run } = (await sync()).body.data;
    expect(changesOf(run.counts)).toEqual({ ...noChanges, users: { ...noChanges.users, moved: 1 } });
    expect((await userRow(person.mail))?.departmentCode).toBe('RND-BIO');
    const moved = (await auditSince(startSeq)).find((r) => r.action === 'user.updated');
    expect(moved).toMatchObject({
      targetId: person.mail,
      before: { departmentCode: 'QA-LAB' },
      after: { departmentCode: 'RND-BIO' },
      reason: AUDIT_SYSTEM_REASONS.directorySync,
    });
  });

  it('deactivates a person who left the directory and ends their sessions; takes them back when they return', async () => {
    const leaver = withMail[10]!;
    const { userNo } = (await userRow(leaver.mail))!;
    // An administrator gave them a password; they are signed in.
    expect((await admin(api.users.update, { userNo, password: 'a-password-for-the-leaver' })).body.status).toBe('0000');
    const { accessToken } = await server.signIn(leaver.mail, 'a-password-for-the-leaver');
    expect((await server.call(api.auth.flags, {}, { token: accessToken })).body.status).toBe('0000');

    await directory.modify(`dn: ${personDn(leaver.uid)}\nchangetype: delete\n`);
    const startSeq = await lastAuditSeq();
    const { run } = (await sync()).body.data;
    expect(changesOf(run.counts)).toEqual({ ...noChanges, users: { ...noChanges.users, deactivated: 1 } });
    expect(await userRow(leaver.mail)).toMatchObject({ active: false });
    // Deactivated, never deleted: the token stops working and signing in is refused.
    const refused = await server.call(api.auth.flags, {}, { token: accessToken });
    expect(refused.http).toBe(401);
    expect((await server.call(api.auth.signIn, { userId: leaver.mail, password: 'a-password-for-the-leaver' })).body.status).toBe(
      ERR.accountDisabled,
    );
    expect((await auditSince(startSeq)).find((r) => r.action === 'user.updated')).toMatchObject({
      targetId: leaver.mail,
      before: { active: true },
      after: { active: false },
      reason: AUDIT_SYSTEM_REASONS.leftDirectory,
    });
    // Gone stays gone: the next run changes nothing.
    expect(changesOf((await sync()).body.data.run.counts)).toEqual(noChanges);

    await directory.modify(`${personLdif(leaver).replace(/\n(?=objectClass)/, '\nchangetype: add\n')}`);
    const back = (await sync()).body.data.run;
    expect(changesOf(back.counts)).toEqual({ ...noChanges, users: { ...noChanges.users, reactivated: 1 } });
    expect(await userRow(leaver.mail)).toMatchObject({ active: true, directoryMissingAt: null });
  });

  it('never deactivates someone an administrator deactivated back into activity, nor an administrator who left', async () => {
    const adminPerson: SeedPerson = {
      uid: 'admin',
      mail: server.admin.userId,
      name: 'Directory Admin',
      employeeNo: 'E0000',
      phone: '02-555-0001',
      departmentCode: 'ADM',
    };
    await directory.modify(personLdif(adminPerson).replace(/\n(?=objectClass)/, '\nchangetype: add\n'));
    const adopted = (await sync()).body.data.run;
    expect(changesOf(adopted.counts)).toEqual({ ...noChanges, users: { ...noChanges.users, updated: 1, moved: 1 } });
    expect(await userRow(server.admin.userId)).toMatchObject({
      source: 'directory',
      name: 'Directory Admin',
      departmentCode: 'ADM',
      level: 10,
    });

    const benched = withMail[20]!;
    const { userNo } = (await userRow(benched.mail))!;
    expect((await admin(api.users.update, { userNo, active: false })).body.status).toBe('0000');

    await directory.modify(`dn: ${personDn('admin')}\nchangetype: delete\n`);
    const run = (await sync()).body.data.run;
    expect(changesOf(run.counts)).toEqual(noChanges);
    expect(run.notes).toContainEqual({ entry: server.admin.userId, reason: 'administratorKept' });
    expect(await userRow(server.admin.userId)).toMatchObject({ active: true });
    expect(await userRow(benched.mail)).toMatchObject({ active: false, directoryMissingAt: null });
  });

  it('marks a department the directory no longer lists, keeping it and its people', async () => {
    const [{ n: stayers }] = (await server.database.db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.departmentCode, 'RND-CHEM-ANA'), eq(users.active, true)))) as [{ n: number }];
    expect(stayers).toBeGreaterThan(100);
    await directory.modify(`dn: ${departmentDn('RND-CHEM-ANA', seed.departments)}\nchangetype: delete\n`);
    const startSeq = await lastAuditSeq();
    const { run } = (await sync()).body.data;
    expect(changesOf(run.counts)).toEqual({ ...noChanges, departments: { ...noChanges.departments, missing: 1 } });
    const marked = (await listDepartments()).find((d) => d.code === 'RND-CHEM-ANA');
    expect(marked).toMatchObject({ name: 'Analytical Chemistry', parentCode: 'RND-CHEM', source: 'directory', userCount: stayers });
    expect(marked?.missingSince).not.toBeNull();
    expect((await auditSince(startSeq)).find((r) => r.action === 'department.updated')).toMatchObject({
      targetId: 'RND-CHEM-ANA',
      reason: AUDIT_SYSTEM_REASONS.leftDirectory,
    });
    expect(changesOf((await sync()).body.data.run.counts)).toEqual(noChanges);
  });

  describe('when it fails, changes nothing and says why', () => {
    const renamed = () => withMail[30]!;

    beforeAll(async () => {
      // A change waits in the directory: a run that applied anything would apply it.
      await directory.modify(`dn: ${personDn(renamed().uid)}\nchangetype: modify\nreplace: cn\ncn: Renamed While Failing\n`);
    });

    async function expectRefusal(code: string, http: number) {
      const before = await notebookState();
      const startSeq = await lastAuditSeq();
      const started = Date.now();
      const answer = await sync();
      const took = Date.now() - started;
      expect(answer.http).toBe(http);
      expect(answer.body.status).toBe(code);
      expect(await notebookState()).toEqual(before);
      const last = (await status()).last;
      expect(last).toMatchObject({ outcome: 'failed', errorCode: code });
      expect((await auditSince(startSeq)).map((r) => [r.action, (r.after as { errorCode?: string }).errorCode])).toEqual([
        ['department.syncFailed', code],
      ]);
      return { took, last: last! };
    }

    it('a wrong bind password: 6007', async () => {
      server.config.directory = directory.config({ bindPassword: 'not-the-password' });
      const { last } = await expectRefusal(ERR.directoryBindRefused, 502);
      expect(last.errorDetail).toMatch(/credentials/i);
    });

    it('an invalid directory URL: 6002', async () => {
      server.config.directory = directory.config({ url: 'http://directory.example' });
      await expectRefusal(ERR.directoryUrl, 422);
    });

    it('an unreachable directory: 6001, at once', async () => {
      server.config.directory = directory.config({ url: 'ldap://127.0.0.1:1' });
      const { took, last } = await expectRefusal(ERR.departmentSync, 502);
      expect(took).toBeLessThan(3_000);
      expect(last.errorDetail).toMatch(/ECONNREFUSED/);
    });

    it('no departments or no people under the base DNs: 6003, 6004', async () => {
      server.config.directory = directory.config({
        departments: { ...directory.config().departments, baseDn: `ou=nowhere,${DEPARTMENT_BASE}` },
      });
      await expectRefusal(ERR.noDepartment, 404);
      server.config.directory = directory.config({ users: { ...directory.config().users, filter: '(employeeNumber=nobody)' } });
      await expectRefusal(ERR.noUsers, 404);
    });

    it('a server that hangs: 6001 within its timeout', async () => {
      server.config.directory = directory.config({ operationTimeoutMs: 1_500 });
      directory.freeze();
      try {
        const { took } = await expectRefusal(ERR.departmentSync, 502);
        expect(took).toBeLessThan(5_000);
      } finally {
        directory.thaw();
      }
    });

    it('a server that stops in the middle of reading the people: 6001, nothing half-applied', async () => {
      server.config.directory = directory.config();
      const pagesSeen: number[] = [];
      const stopWatching = server.services.directorySync.observe((phase, entriesRead) => {
        if (phase !== 'users') return;
        pagesSeen.push(entriesRead);
        // After the first page of people, and before the directory is asked for the next one.
        if (pagesSeen.length === 1) directory.kill();
      });
      try {
        const { took, last } = await expectRefusal(ERR.departmentSync, 502);
        expect(took).toBeLessThan(5_000);
        expect(pagesSeen).toHaveLength(1);
        expect(last.entriesRead).toBeGreaterThan(0);
      } finally {
        stopWatching();
        await directory.start();
      }
    });

    it('once the directory is back, the waiting change is applied', async () => {
      server.config.directory = directory.config();
      const { run } = (await sync()).body.data;
      expect(changesOf(run.counts)).toEqual({ ...noChanges, users: { ...noChanges.users, updated: 1 } });
      expect((await userRow(renamed().mail))?.name).toBe('Renamed While Failing');
    });
  });

  it('runs one at a time: a second request while one runs is refused with 6009, and the screen sees its progress', async () => {
    let seen: DirectorySyncStatus | null = null;
    let second: Awaited<ReturnType<typeof sync>> | null = null;
    let asked = false;
    const stopWatching = server.services.directorySync.observe(async (phase) => {
      if (phase !== 'users' || asked) return;
      asked = true;
      seen = await status();
      second = await sync();
    });
    try {
      const first = await sync();
      expect(first.body.status).toBe('0000');
    } finally {
      stopWatching();
    }
    expect(second).toMatchObject({ http: 409, body: { status: ERR.directorySyncRunning } });
    const running = (seen as DirectorySyncStatus | null)?.running;
    expect(running).toMatchObject({ outcome: 'running', trigger: 'manual', phase: 'users' });
  });

  it('by the interval: one run at a time even with two processes, each run audited only when it changed something', async () => {
    const intervalMs = 1_200;
    const config = { ...server.config, directory: directory.config({ intervalMs }) };
    const processes = [1, 2].map(
      () => new DirectorySync({ db: server.database.db, config, live: server.services.live, log: server.services.log }),
    );
    const startSeq = await lastAuditSeq();
    const since = new Date();
    processes.forEach((p) => p.start());
    await new Promise((resolve) => setTimeout(resolve, intervalMs * 4));
    await Promise.all(processes.map((p) => p.stop()));

    const runs = await server.database.db
      .select()
      .from(directorySyncRuns)
      .where(and(eq(directorySyncRuns.trigger, 'interval'), gt(directorySyncRuns.startedAt, since)))
      .orderBy(directorySyncRuns.runNo);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(5);
    for (const [i, run] of runs.entries()) {
      expect(run.status).toBe('succeeded');
      const next = runs[i + 1];
      if (next) expect(next.startedAt.getTime()).toBeGreaterThanOrEqual(run.finishedAt!.getTime());
    }
    expect(runs.every((run) => run.actorUserNo === null)).toBe(true);
    expect((await auditSince(startSeq)).filter((r) => r.action.startsWith('department.'))).toEqual([]);
  });

  it('leaves the audit chain unbroken after every run', async () => {
    const verified = (await admin(api.audit.verify)).body.data;
    expect(verified).toMatchObject({ ok: true, firstBroken: null });
    expect(verified.checked).toBeGreaterThan(PEOPLE);
  });

  it('says "not configured" when the server has no directory (6008)', async () => {
    server.config.directory = null;
    try {
      expect(await status()).toMatchObject({ configured: false, directory: null });
      const refused = await sync();
      expect(refused.http).toBe(409);
      expect(refused.body.status).toBe(ERR.directoryNotConfigured);
    } finally {
      server.config.directory = directory.config();
    }
  });
});
