import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import { auditLog } from '../db/schema.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { appendAudit, GENESIS_HASH, verifyAuditChain } from './audit.js';

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

describe('the audit trail', () => {
  it('chains every record to the one before it, from the genesis hash', async () => {
    await append(1);
    await append(2);
    const rows = await server.database.db.select().from(auditLog).orderBy(asc(auditLog.seq));
    expect(rows[0]?.prevHash).toBe(GENESIS_HASH);
    for (let i = 1; i < rows.length; i += 1) expect(rows[i]?.prevHash).toBe(rows[i - 1]?.hash);
    expect(await verifyAuditChain(server.database.db)).toEqual({ ok: true, checked: rows.length, firstBroken: null });
  });

  it('stays one unbroken chain when many changes append at once', async () => {
    await Promise.all(Array.from({ length: 25 }, (_, i) => append(100 + i)));
    const result = await verifyAuditChain(server.database.db, 7);
    expect(result.ok).toBe(true);
    const rows = await server.database.db.select({ seq: auditLog.seq }).from(auditLog);
    expect(new Set(rows.map((r) => r.seq)).size).toBe(rows.length);
  });

  it('rolls back with the change it belongs to', async () => {
    const before = (await server.database.db.select().from(auditLog)).length;
    await expect(
      server.database.db.transaction(async (tx) => {
        await appendAudit(tx, { actor: null, action: 'user.created', target: { type: 'user', id: 'never@lab.test' } });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await server.database.db.select().from(auditLog)).length).toBe(before);
    expect((await verifyAuditChain(server.database.db)).ok).toBe(true);
  });

  it('cannot be changed or removed: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const db = server.database.db;
    for (const statement of [sql`update audit_log set reason = 'edited' where seq = 1`, sql`delete from audit_log where seq = 1`, sql`truncate audit_log`]) {
      const error = await db.execute(statement).then(() => null, (e: unknown) => e);
      // Drizzle wraps the driver's error; the database's own refusal is its cause.
      expect(String((error as { cause?: Error } | null)?.cause?.message)).toMatch(/audit_log is append-only/);
    }
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it('names the first broken record when someone with superuser rights edits one behind the triggers', async () => {
    const db = server.database.db;
    const rows = await db.select().from(auditLog).orderBy(asc(auditLog.seq));
    const victim = rows[3];
    if (!victim) throw new Error('not enough audit rows');
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`update audit_log set after = '{"name":"Someone else"}'::jsonb where seq = ${victim.seq}`);
    });
    const tampered = await verifyAuditChain(db);
    expect(tampered).toEqual({ ok: false, checked: 3, firstBroken: victim.seq });

    const admin = await server.signIn(server.admin.userId, server.admin.password);
    const answer = await server.call('/v1/audit/verify', {}, { token: admin.accessToken });
    expect(answer.body.data).toEqual({ ok: false, checked: 3, firstBroken: victim.seq });
  });
});
