import { desc, eq, sql } from 'drizzle-orm';
import { TIMESTAMP_LIMITS, type AuditChainHead } from '@eln/shared';
import { auditChainHead } from '../audit/audit.js';
import type { Db, Queryable } from '../db/client.js';
import { timestamps } from '../db/schema.js';
import { enabledAuthorities, queueTimestamp, storedStamps, type StoredStamp } from './queue.js';
import { auditAnchorSubject } from './subjects.js';

/*
 * The audit chain's head, time-stamped: at most every TIMESTAMP_LIMITS.auditAnchorMinutes, and only when
 * records were appended since the last stamped head. The head's hash covers every record before it, so a
 * token over it proves the whole trail up to it existed then; verify (audit/verify.ts) compares the
 * latest stamped heads with the chain as it is.
 */

export const AUDIT_ANCHOR_EVERY_MS = TIMESTAMP_LIMITS.auditAnchorMinutes * 60_000;

/** Keeps processes anchoring at one moment apart: one asks, the others then find its stamp and ask none. */
const ANCHOR_LOCK = sql`hashtext('timestamp:auditAnchor')`;

/** Whether the head should be stamped now: it moved past the last stamped head, and that one is older than `everyMs`. */
async function anchorDue(q: Queryable, everyMs: number): Promise<AuditChainHead | null> {
  const [last] = await q
    .select({
      seq: timestamps.subjectId,
      recent: sql<boolean>`${timestamps.createdAt} > now() - make_interval(secs => ${everyMs / 1000})`,
    })
    .from(timestamps)
    .where(eq(timestamps.subjectKind, 'auditAnchor'))
    .orderBy(desc(timestamps.stampId))
    .limit(1);
  if (last?.recent) return null;
  const head = await auditChainHead(q);
  if (!head || (last && Number(last.seq) >= head.seq)) return null;
  return head;
}

/**
 * Asks for a stamp over the audit chain's head when one is due (see above); answers whether it did. Any
 * process's stamper calls it on each pass: the check is two small reads, and the asking is serialised.
 */
export async function anchorAuditHead(db: Db, everyMs: number = AUDIT_ANCHOR_EVERY_MS): Promise<boolean> {
  if (!(await anchorDue(db, everyMs))) return false;
  if ((await enabledAuthorities(db)).length === 0) return false;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ANCHOR_LOCK})`);
    const head = await anchorDue(tx, everyMs);
    if (!head) return false;
    return queueTimestamp(tx, 'auditAnchor', head.seq, auditAnchorSubject(head, new Date()));
  });
}

/** A stamped (or pending) head as verify shows it. */
export interface StampedHead extends AuditChainHead {
  anchoredAt: string;
  stamp: StoredStamp;
}

/** The latest heads asked to be stamped, newest first (at most TIMESTAMP_LIMITS.auditAnchorsShown). */
export async function latestStampedHeads(q: Queryable): Promise<StampedHead[]> {
  const rows = await q
    .select({ id: timestamps.subjectId })
    .from(timestamps)
    .where(eq(timestamps.subjectKind, 'auditAnchor'))
    .orderBy(desc(timestamps.stampId))
    .limit(TIMESTAMP_LIMITS.auditAnchorsShown);
  const stamps = await storedStamps(
    q,
    'auditAnchor',
    rows.map((row) => row.id),
  );
  return rows.flatMap(({ id }) => {
    const stamp = stamps.get(id);
    if (!stamp) return [];
    const subject = JSON.parse(new TextDecoder().decode(stamp.subject)) as { seq: number; hash: string; anchoredAt: string };
    return [{ seq: subject.seq, hash: subject.hash, anchoredAt: subject.anchoredAt, stamp }];
  });
}
