import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { GENESIS_HASH, hashOf, verifyAuditChain, type UnhashedRecord } from '../audit/audit.js';
import { testDatabaseTarget } from '../testing/harness.js';
import { MIGRATIONS_DIR, openDatabase, type DatabaseTarget } from './client.js';
import { auditLog, templateRevisions } from './schema.js';

/**
 * Each test migrates a database from the first migration, stops, stores old-shaped rows and migrates on:
 * on PGlite (a file, every migration again) that takes tens of seconds, minutes beside a loaded suite.
 */
const MIGRATING_TIMEOUT_MS = 180_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A copy of the migrations folder that stops before the migration tagged `tag`. */
async function migrationsBefore(tag: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'eln-migrations-'));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  await cp(MIGRATIONS_DIR, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  const stop = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(stop).toBeGreaterThan(0);
  await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, stop) }));
  return folder;
}

/** Runs `statements` on a database migrated with the migrations in `folder` only. */
async function atMigrations(target: DatabaseTarget, folder: string, statements: string[]): Promise<void> {
  if (target.kind === 'postgres') {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const { migrate } = await import('drizzle-orm/postgres-js/migrator');
    const client = postgres(target.url, { max: 1, onnotice: () => undefined });
    await migrate(drizzle(client), { migrationsFolder: folder });
    for (const statement of statements) await client.unsafe(statement);
    await client.end();
    return;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = new PGlite(target.dataDir ?? undefined);
  await migrate(drizzle(client), { migrationsFolder: folder });
  for (const statement of statements) await client.exec(statement);
  await client.close();
}

describe('migrations of existing data', { timeout: MIGRATING_TIMEOUT_MS }, () => {
  it('number the audit records already stored within their action, in chain order (0022)', async () => {
    const pgliteDir = await mkdtemp(path.join(tmpdir(), 'eln-pglite-'));
    cleanups.push(() => rm(pgliteDir, { recursive: true, force: true }));
    const { target, drop } = await testDatabaseTarget(pgliteDir);
    cleanups.push(drop);
    const actions = ['user.created', 'project.created', 'user.created', 'note.created', 'project.created', 'user.created'];
    await atMigrations(target, await migrationsBefore('0022_audit_action_row_no'), [
      `insert into audit_log (seq, row_no, at, action, prev_hash, hash)
        select n, n, now(), (array['${actions.join("','")}'])[n], 'prev', 'hash' from generate_series(1, ${actions.length}) as n`,
    ]);
    const database = await openDatabase(target);
    cleanups.unshift(() => database.close());
    const rows = await database.db
      .select({ action: auditLog.action, actionRowNo: auditLog.actionRowNo })
      .from(auditLog)
      .orderBy(asc(auditLog.seq));
    expect(rows).toEqual([
      { action: 'user.created', actionRowNo: 1 },
      { action: 'project.created', actionRowNo: 1 },
      { action: 'user.created', actionRowNo: 2 },
      { action: 'note.created', actionRowNo: 1 },
      { action: 'project.created', actionRowNo: 2 },
      { action: 'user.created', actionRowNo: 3 },
    ]);
  });

  it('write each approved template version as it was shown, major, a point and minor, and keep it unchangeable (0024)', async () => {
    const pgliteDir = await mkdtemp(path.join(tmpdir(), 'eln-pglite-'));
    cleanups.push(() => rm(pgliteDir, { recursive: true, force: true }));
    const { target, drop } = await testDatabaseTarget(pgliteDir);
    cleanups.push(drop);
    // Approved when versions were two integers: 1.9, then 1.10 after it; a third revision waits for approval.
    const revision = (no: number, major: string, minor: string, approved: boolean) =>
      `(1, ${no}, '[]', 'hash${no}', '\\x00', 1, ${major}, ${minor}, ${approved ? '1, now()' : 'null, null'})`;
    await atMigrations(target, await migrationsBefore('0024_template_writers_decimal_versions'), [
      `insert into users (user_no, user_id, name, password_hash) values (1, 'author@eln.local', 'Author', 'x')`,
      `insert into templates (template_no, title, author_user_no, state, revision, approved_revision) values (1, 'Yield log', 1, 'C', 3, 2)`,
      `insert into template_revisions (template_no, revision, blocks, blocks_hash, document_state, checked_by_user_no,
        version_major, version_minor, approved_by_user_no, approved_at) values
        ${[revision(1, '1', '9', true), revision(2, '1', '10', true), revision(3, 'null', 'null', false)].join(', ')}`,
    ]);
    const database = await openDatabase(target);
    cleanups.unshift(() => database.close());
    const rows = await database.db
      .select({ revision: templateRevisions.revision, version: templateRevisions.version })
      .from(templateRevisions)
      .orderBy(asc(templateRevisions.revision));
    expect(rows).toEqual([
      { revision: 1, version: '1.9' },
      { revision: 2, version: '1.10' },
      { revision: 3, version: null },
    ]);
    const approved = and(eq(templateRevisions.templateNo, 1), eq(templateRevisions.revision, 2));
    await expect(database.db.update(templateRevisions).set({ version: '1.2' }).where(approved)).rejects.toThrow();
  });
});

describe('a chain stored before its records had row numbers', { timeout: MIGRATING_TIMEOUT_MS }, () => {
  it('still verifies after the migrations numbered it (0014, 0022), and a row number changed since is found', async () => {
    const pgliteDir = await mkdtemp(path.join(tmpdir(), 'eln-pglite-'));
    cleanups.push(() => rm(pgliteDir, { recursive: true, force: true }));
    const { target, drop } = await testDatabaseTarget(pgliteDir);
    cleanups.push(drop);
    // Hashed as the server hashed them then: the row numbers were never under the hash.
    const actions = ['user.created', 'project.created', 'user.created', 'note.created', 'user.created'];
    let prevHash = GENESIS_HASH;
    const records = actions.map((action, i) => {
      const record: UnhashedRecord = {
        seq: i + 1,
        rowNo: 0,
        actionRowNo: 0,
        at: new Date(Date.UTC(2025, 0, i + 1)),
        actorUserNo: null,
        actorUserId: null,
        action,
        targetType: 'user',
        targetId: `t${i}`,
        before: null,
        after: { n: i },
        reason: null,
        clientAddress: null,
        prevHash,
      };
      prevHash = hashOf(record);
      return { ...record, hash: prevHash };
    });
    await atMigrations(
      target,
      await migrationsBefore('0014_list_paging_and_draft_key'),
      records.map(
        (r) => `insert into audit_log (seq, at, action, target_type, target_id, after, prev_hash, hash)
          values (${r.seq}, '${r.at.toISOString()}', '${r.action}', 'user', '${r.targetId}', '${JSON.stringify(r.after)}', '${r.prevHash}', '${r.hash}')`,
      ),
    );
    const database = await openDatabase(target);
    cleanups.unshift(() => database.close());
    expect(await verifyAuditChain(database.db)).toEqual({ ok: true, checked: 5, firstBroken: null, broken: [], brokenCount: 0 });
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`update audit_log set action_row_no = 7 where seq = 3`);
    });
    // The record changed, and the next of its action, which no longer follows it.
    expect(await verifyAuditChain(database.db)).toMatchObject({ ok: false, broken: [3, 5], brokenCount: 2 });
  });
});
