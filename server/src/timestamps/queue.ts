import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { canonicalJson, TIMESTAMP_LIMITS, type TimestampInfo, type TimestampSubject } from '@eln/shared';
import type { Db, Queryable, Tx } from '../db/client.js';
import { timestampAuthorities, timestamps } from '../db/schema.js';

/** The exact bytes stamped for a record: its canonical JSON, the same on every process and in every archive. */
export function subjectBytes(subject: Record<string, unknown>): Uint8Array {
  return new TextEncoder().encode(canonicalJson(subject));
}

/**
 * Asks, in the transaction of the change, for a time-stamp over `subject`: a row the stampers of every
 * process take from. Nothing is asked while no authority is enabled (the record then has no time-stamp, and
 * says so); a record stamped once is not stamped again.
 */
export async function queueTimestamp(
  tx: Tx,
  kind: TimestampSubject,
  subjectId: string | number,
  subject: Record<string, unknown>,
): Promise<boolean> {
  const [authority] = await tx
    .select({ authorityNo: timestampAuthorities.authorityNo })
    .from(timestampAuthorities)
    .where(eq(timestampAuthorities.enabled, true))
    .limit(1);
  if (!authority) return false;
  await tx
    .insert(timestamps)
    .values({ subjectKind: kind, subjectId: String(subjectId), subject: subjectBytes(subject) })
    .onConflictDoNothing();
  return true;
}

/** A record's stamp as stored: what its answer shows, and what an offline check needs (the token, the chain, the bytes stamped). */
export interface StoredStamp {
  status: TimestampInfo['status'];
  genTime: Date | null;
  authority: string | null;
  token: Uint8Array | null;
  chainPem: string | null;
  subject: Uint8Array;
}

/** The stored stamps of records of one kind, by record id; absent: none was asked. */
export async function storedStamps(
  q: Queryable,
  kind: TimestampSubject,
  ids: readonly (string | number)[],
): Promise<Map<string, StoredStamp>> {
  const result = new Map<string, StoredStamp>();
  if (ids.length === 0) return result;
  const rows = await q
    .select({
      id: timestamps.subjectId,
      status: timestamps.status,
      genTime: timestamps.genTime,
      authority: timestamps.authorityName,
      token: timestamps.token,
      chainPem: timestamps.chainPem,
      subject: timestamps.subject,
    })
    .from(timestamps)
    .where(and(eq(timestamps.subjectKind, kind), inArray(timestamps.subjectId, ids.map(String))));
  for (const { id, ...stamp } of rows) result.set(id, stamp);
  return result;
}

/** A stamp as answers show it (contract §10: `timestamp`). */
export function timestampInfoOf(stamp: Pick<StoredStamp, 'status' | 'genTime' | 'authority' | 'token'>): TimestampInfo {
  return {
    status: stamp.status,
    ...(stamp.genTime ? { genTime: stamp.genTime.toISOString() } : {}),
    ...(stamp.authority ? { authority: stamp.authority } : {}),
    ...(stamp.token ? { token: Buffer.from(stamp.token).toString('base64') } : {}),
  };
}

/** The time-stamps of records of one kind, as their answers show them (`timestamp`); absent: none was asked. */
export async function timestampsOf(
  q: Queryable,
  kind: TimestampSubject,
  ids: readonly (string | number)[],
): Promise<Map<string, TimestampInfo>> {
  const stored = await storedStamps(q, kind, ids);
  return new Map([...stored].map(([id, stamp]) => [id, timestampInfoOf(stamp)]));
}

export type ClaimedStamp = { stampId: number; subject: Uint8Array; attempts: number };

/**
 * Claims due stamps for this process: pending ones whose next attempt has come and that no live process
 * holds (a claim ends after TIMESTAMP_LIMITS.claimMs, so a process that died leaves them to the others).
 */
export async function claimDueStamps(db: Db): Promise<ClaimedStamp[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ stampId: timestamps.stampId, subject: timestamps.subject, attempts: timestamps.attempts })
      .from(timestamps)
      .where(
        and(
          eq(timestamps.status, 'pending'),
          lte(timestamps.nextAttemptAt, sql`now()`),
          or(isNull(timestamps.claimedUntil), lt(timestamps.claimedUntil, sql`now()`)),
        ),
      )
      .orderBy(asc(timestamps.stampId))
      .limit(TIMESTAMP_LIMITS.batch)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    await tx
      .update(timestamps)
      .set({ claimedUntil: sql`now() + ${`${TIMESTAMP_LIMITS.claimMs} milliseconds`}::interval` })
      .where(
        inArray(
          timestamps.stampId,
          due.map((d) => d.stampId),
        ),
      );
    return due;
  });
}

export async function enabledAuthorities(q: Queryable) {
  return q.select().from(timestampAuthorities).where(eq(timestampAuthorities.enabled, true)).orderBy(asc(timestampAuthorities.position));
}

/** The wait before the next try: doubling from the first retry, at most the longest. */
export function retryDelayMs(attempts: number): number {
  return Math.min(TIMESTAMP_LIMITS.firstRetryMs * 2 ** Math.max(0, attempts - 1), TIMESTAMP_LIMITS.maxRetryMs);
}
