import { asc, desc, gt, sql } from 'drizzle-orm';
import type { AuditAction, AuditVerifyAnswer } from '@eln/shared';
import { rawRows, type Db, type Tx } from '../db/client.js';
import { auditLog } from '../db/schema.js';
import { sha256Hex } from '../auth/secrets.js';
import { asStoredJson, canonicalJson } from '@eln/shared';

export const GENESIS_HASH = '0'.repeat(64);
/** Key of the transaction-scoped advisory lock that orders appends, so the chain never forks. */
const AUDIT_LOCK_KEY = 7_411_001;

export interface AuditActor {
  userNo: number | null;
  userId: string | null;
}

export interface AuditEntry {
  actor: AuditActor | null;
  action: AuditAction;
  target?: { type: string; id: string | number } | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
  clientAddress?: string | null;
}

type AuditRow = typeof auditLog.$inferSelect;

/** The fields a record's hash covers, in one fixed shape. */
function hashOf(row: Omit<AuditRow, 'hash'>): string {
  return sha256Hex(
    canonicalJson({
      seq: row.seq,
      at: row.at.toISOString(),
      actorUserNo: row.actorUserNo,
      actorUserId: row.actorUserId,
      action: row.action,
      targetType: row.targetType,
      targetId: row.targetId,
      before: row.before,
      after: row.after,
      reason: row.reason,
      clientAddress: row.clientAddress,
      prevHash: row.prevHash,
    }),
  );
}

/**
 * Appends one record to the audit trail inside the caller's transaction, so the record exists exactly
 * when the change it describes does. Appends are serialised by an advisory lock held until commit.
 */
export async function appendAudit(tx: Tx, entry: AuditEntry): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
  const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
  const [next] = await rawRows<{ seq: string }>(tx, sql`select nextval(pg_get_serial_sequence('audit_log', 'seq')) as seq`);
  const record: Omit<AuditRow, 'hash'> = {
    seq: Number(next?.seq),
    at: new Date(),
    actorUserNo: entry.actor?.userNo ?? null,
    actorUserId: entry.actor?.userId ?? null,
    action: entry.action,
    targetType: entry.target?.type ?? null,
    targetId: entry.target ? String(entry.target.id) : null,
    before: asStoredJson(entry.before),
    after: asStoredJson(entry.after),
    reason: entry.reason ?? null,
    clientAddress: entry.clientAddress ?? null,
    prevHash: last?.hash ?? GENESIS_HASH,
  };
  await tx.insert(auditLog).values({ ...record, hash: hashOf(record) });
  return record.seq;
}

/** Appends a record in a transaction of its own: for events that change nothing else (a failed sign-in). */
export function auditAlone(db: Db, entry: AuditEntry): Promise<number> {
  return db.transaction((tx) => appendAudit(tx, entry));
}

/**
 * Recomputes the chain from the first record: every hash must match its record, and every record must
 * name its predecessor's hash. Answers the first record where either fails.
 */
export async function verifyAuditChain(db: Db, batchSize = 1000): Promise<AuditVerifyAnswer> {
  let previousHash = GENESIS_HASH;
  let afterSeq = 0;
  let checked = 0;
  for (;;) {
    const batch = await db.select().from(auditLog).where(gt(auditLog.seq, afterSeq)).orderBy(asc(auditLog.seq)).limit(batchSize);
    for (const row of batch) {
      if (row.prevHash !== previousHash || hashOf(row) !== row.hash) return { ok: false, checked, firstBroken: row.seq };
      previousHash = row.hash;
      afterSeq = row.seq;
      checked += 1;
    }
    if (batch.length < batchSize) return { ok: true, checked, firstBroken: null };
  }
}
