import { asc, desc, eq, gt, sql } from 'drizzle-orm';
import {
  asStoredJson,
  asStoredText,
  AUDIT_VERIFY,
  canonicalJson,
  type AuditAction,
  type AuditChainHead,
  type AuditVerifyAnswer,
} from '@eln/shared';
import { rawRows, type Db, type Queryable, type Tx } from '../db/client.js';
import { auditLog } from '../db/schema.js';
import { fixedStatement } from '../db/fixedStatement.js';
import { sha256Hex } from '../auth/secrets.js';
import type { Actor } from '../auth/authUser.js';

export const GENESIS_HASH = '0'.repeat(64);
/** Key of the transaction-scoped advisory lock that orders appends, so the chain never forks. */
const AUDIT_LOCK_KEY = 7_411_001;

export interface AuditActor {
  userNo: number | null;
  userId: string | null;
  /** The personal access token the caller acts with (an AuthUser of a token call carries it). */
  tokenId?: string | null;
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

/** The actor and client address of an audit record, from the actor of a command. */
export function auditedActor(actor: Actor): Pick<AuditEntry, 'actor' | 'clientAddress'> {
  return { actor: actor.user, clientAddress: actor.clientAddress };
}

type AuditRow = typeof auditLog.$inferSelect;
/** A record before its hash; `tokenId` may be left out (most records are made without a token). */
export type UnhashedRecord = Omit<AuditRow, 'hash' | 'tokenId'> & { tokenId?: string | null };

/** The fields a record's hash covers, in one fixed shape (exported for the scale bench's dataset). */
export function hashOf(row: UnhashedRecord): string {
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
      // Only records made with a personal access token name one, so that the records before tokens keep their hashes.
      ...(row.tokenId ? { tokenId: row.tokenId } : {}),
      prevHash: row.prevHash,
    }),
  );
}

const storedOrNull = (value: string | null | undefined) => (value === null || value === undefined ? null : asStoredText(value));

/**
 * Appends one record to the audit trail inside the caller's transaction, so the record exists exactly
 * when the change it describes does. Appends are serialised by an advisory lock held until commit.
 * The record is hashed in the form the database stores (see asStoredText, asStoredJson), so that the
 * hash verify recomputes from the stored row is the one computed here.
 */
export async function appendAudit(tx: Tx, entry: AuditEntry): Promise<number> {
  return (await appendAuditRecord(tx, entry)).seq;
}

type AppendListener = (seq: number) => void;
const appendListeners = new Set<AppendListener>();

/**
 * Tells the listener the seq of every record appended in this process, as it is inserted (its
 * transaction may still roll back): the anchor (anchor.ts) then reads the committed head. Answers the
 * function that stops it.
 */
export function onAuditAppended(listener: AppendListener): () => void {
  appendListeners.add(listener);
  return () => appendListeners.delete(listener);
}

const appended = (seq: number) => {
  for (const listener of appendListeners) listener(seq);
};

/** appendAudit, answering the new record's place in the chain (its seq and hash). */
export async function appendAuditRecord(tx: Tx, entry: AuditEntry): Promise<AuditChainHead> {
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
  const action = asStoredText(entry.action);
  const [[last], [next], lastOfAction] = await Promise.all([
    tx.select({ hash: auditLog.hash, rowNo: auditLog.rowNo }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1),
    rawRows<{ seq: string }>(tx, sql`select nextval(pg_get_serial_sequence('audit_log', 'seq')) as seq`),
    lastActionRowNos(tx, [action]),
  ]);
  const place = {
    seq: Number(next?.seq),
    rowNo: (last?.rowNo ?? 0) + 1,
    actionRowNo: (lastOfAction.get(action) ?? 0) + 1,
    at: new Date(),
    prevHash: last?.hash ?? GENESIS_HASH,
  };
  const head = await insertChecked(tx, unhashedRecord(entry, place));
  appended(head.seq);
  return head;
}

/**
 * Per action, the place of its last record among the action's records. One index lookup per action,
 * each reading the end of its action's range (a max grouped by action would read the whole ranges).
 */
const lastActionRowNosOf = fixedStatement<{ action: string; last: string | number | null }>(
  'audit_last_action_row_nos',
  `select a.action, (select l.action_row_no from audit_log l where l.action = a.action order by l.action_row_no desc limit 1) as last
    from unnest($1::text[]) as a(action)`,
);

/** Per action, the place of its last record among the action's records (none yet: 0). */
async function lastActionRowNos(tx: Tx, actions: string[]): Promise<Map<string, number>> {
  const rows = await lastActionRowNosOf(tx, [actions]);
  return new Map(rows.map((row) => [row.action, Number(row.last ?? 0)]));
}

/** Records inserted per statement by appendAuditBatch. */
const BATCH_INSERT_ROWS = 500;

/**
 * Appends several records, in the given order, inside the caller's transaction: the same chain that
 * appendAudit would make one record at a time, with one lock, one read of the head and one insert per
 * few hundred records. For changes made in bulk (a directory synchronisation creating thousands of people).
 */
export async function appendAuditBatch(tx: Tx, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
  const [last] = await tx.select({ hash: auditLog.hash, rowNo: auditLog.rowNo }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
  const seqs = (
    await rawRows<{ seq: string }>(
      tx,
      sql`select nextval(pg_get_serial_sequence('audit_log', 'seq')) as seq from generate_series(1, ${entries.length})`,
    )
  )
    .map((row) => Number(row.seq))
    .sort((a, b) => a - b);
  const at = new Date();
  let prevHash = last?.hash ?? GENESIS_HASH;
  const lastOfAction = await lastActionRowNos(tx, [...new Set(entries.map((entry) => asStoredText(entry.action)))]);
  const rows = entries.map((entry, i) => {
    const action = asStoredText(entry.action);
    const actionRowNo = (lastOfAction.get(action) ?? 0) + 1;
    lastOfAction.set(action, actionRowNo);
    const record = unhashedRecord(entry, { seq: seqs[i]!, rowNo: (last?.rowNo ?? 0) + i + 1, actionRowNo, at, prevHash });
    prevHash = hashOf(record);
    return { ...record, hash: prevHash };
  });
  for (let start = 0; start < rows.length; start += BATCH_INSERT_ROWS) {
    const chunk = rows.slice(start, start + BATCH_INSERT_ROWS);
    const stored = await tx.insert(auditLog).values(chunk).returning();
    // As insertChecked: a row the database stored differently from what was hashed rolls everything back.
    const storedHashes = new Map(stored.map((row) => [row.seq, hashOf(row)]));
    const altered = chunk.find((row) => storedHashes.get(row.seq) !== row.hash);
    if (altered) throw new Error(`audit record ${altered.seq} would be stored differently from what was hashed; nothing was recorded`);
  }
  appended(rows.at(-1)!.seq);
}

function unhashedRecord(
  entry: AuditEntry,
  place: Pick<UnhashedRecord, 'seq' | 'rowNo' | 'actionRowNo' | 'at' | 'prevHash'>,
): UnhashedRecord {
  return {
    ...place,
    actorUserNo: entry.actor?.userNo ?? null,
    actorUserId: storedOrNull(entry.actor?.userId),
    action: asStoredText(entry.action),
    targetType: storedOrNull(entry.target?.type),
    targetId: entry.target ? asStoredText(String(entry.target.id)) : null,
    before: asStoredJson(entry.before),
    after: asStoredJson(entry.after),
    reason: storedOrNull(entry.reason),
    clientAddress: storedOrNull(entry.clientAddress),
    tokenId: entry.actor?.tokenId ?? null,
  };
}

/**
 * Inserts a record with its hash and reads the stored row back: if the stored row does not give the
 * same hash (the database changed something on the way in), the append throws, so the transaction and
 * the change it records roll back rather than leave a record that verify would call broken.
 */
export async function insertChecked(tx: Tx, record: UnhashedRecord): Promise<AuditChainHead> {
  const hash = hashOf(record);
  const [stored] = await tx
    .insert(auditLog)
    .values({ ...record, hash })
    .returning();
  if (!stored || hashOf(stored) !== hash) {
    throw new Error(`audit record ${record.seq} would be stored differently from what was hashed; nothing was recorded`);
  }
  return { seq: stored.seq, hash };
}

/** Appends a record in a transaction of its own: for events that change nothing else (a failed sign-in). */
export function auditAlone(db: Db, entry: AuditEntry): Promise<number> {
  return db.transaction((tx) => appendAudit(tx, entry));
}

/** The chain's latest record, or null while the trail is empty. */
export async function auditChainHead(q: Queryable): Promise<AuditChainHead | null> {
  const [last] = await q.select({ seq: auditLog.seq, hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
  return last ?? null;
}

/** What verify finds in the chain itself (the anchors outside it are compared in anchor.ts). */
export type AuditChainVerdict = Pick<AuditVerifyAnswer, 'ok' | 'checked' | 'firstBroken' | 'broken' | 'brokenCount'>;

/**
 * Recomputes the chain from the first record and reports every broken record: one whose content no
 * longer gives its stored hash (it was changed), one that does not name the stored hash of the record
 * before it (a record was removed or inserted before it, or its predecessor was re-hashed), and one
 * whose row numbers are not the ones its place gives. The row numbers are outside the hash (records
 * stored before they existed keep their hashes) and derived instead: `row_no` follows the stored row
 * before it by one, `action_row_no` the stored record of the same action before it, both from 1. Each
 * record is compared with its stored predecessor, so one change is reported once (a changed row number
 * also at the record after it, which no longer follows it), and a change far after an earlier one is
 * still found. A cut tail leaves no record to report: the anchors outside the database show it.
 */
export async function verifyAuditChain(db: Db, batchSize = 1000): Promise<AuditChainVerdict> {
  let previousHash = GENESIS_HASH;
  let previousRowNo = 0;
  const previousActionRowNo = new Map<string, number>();
  let afterSeq = 0;
  let checked = 0;
  const broken: number[] = [];
  let brokenCount = 0;
  for (;;) {
    const batch = await db.select().from(auditLog).where(gt(auditLog.seq, afterSeq)).orderBy(asc(auditLog.seq)).limit(batchSize);
    for (const row of batch) {
      const linked = row.prevHash === previousHash && hashOf(row) === row.hash;
      const placed = row.rowNo === previousRowNo + 1 && row.actionRowNo === (previousActionRowNo.get(row.action) ?? 0) + 1;
      if (!linked || !placed) {
        brokenCount += 1;
        if (broken.length < AUDIT_VERIFY.maxBrokenListed) broken.push(row.seq);
      }
      previousHash = row.hash;
      previousRowNo = row.rowNo;
      previousActionRowNo.set(row.action, row.actionRowNo);
      afterSeq = row.seq;
      checked += 1;
    }
    if (batch.length < batchSize) return { ok: brokenCount === 0, checked, firstBroken: broken[0] ?? null, broken, brokenCount };
  }
}

/** The stored hash of the record `seq`, or null when there is none. */
export async function auditHashAt(q: Queryable, seq: number): Promise<string | null> {
  const [row] = await q.select({ hash: auditLog.hash }).from(auditLog).where(eq(auditLog.seq, seq));
  return row?.hash ?? null;
}
