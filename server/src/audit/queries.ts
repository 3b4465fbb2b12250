import { and, count, desc, eq, ilike, inArray, isNull, lte, or, type SQL } from 'drizzle-orm';
import { ERR, type api, type AuditAction, type AuditDetailAnswer, type AuditRecord, type CallRequest, type ListAnswer } from '@eln/shared';
import { deletedNote } from '../notes/history.js';
import type { Db, Queryable } from '../db/client.js';
import { auditLog, users } from '../db/schema.js';
import { escapeLike } from '../db/like.js';
import { offsetOf, withinDates } from '../db/paging.js';
import { AppError } from '../http/errors.js';
import { toRecord } from './presenters.js';

/** The filters the list and the export share. */
export type AuditFilter = CallRequest<typeof api.audit.exportCsv>;
type AuditListRequest = CallRequest<typeof api.audit.list>;
type Paging = Pick<AuditListRequest, 'page' | 'pageSize'>;

/** A date-filtered list with at most this many records reads them by date and sorts them (see dateRangePageRows). */
const DATE_RANGE_SORTED_MAX = 200_000;

/** Sign-in attempts before anyone is signed in: their actor is nobody, and the typed ID is the target. */
const SIGN_IN_ATTEMPTS: AuditAction[] = ['user.signInFailed', 'user.signInRefused'];

/** Audit records with their actor's name. */
export const selectRecords = (q: Queryable) =>
  q.select({ record: auditLog, actorName: users.name }).from(auditLog).leftJoin(users, eq(users.userNo, auditLog.actorUserNo));

/**
 * The actor filter: records of the users whose ID or name contains the pattern (a user's ID never
 * changes, so it is the ID the records name), and failed or refused sign-ins (no actor yet) by the ID
 * that was typed, so "who tried to sign in as kim@…" finds every attempt. The users are looked up first
 * so that both parts are read through an index.
 */
async function actorMatches(db: Db, pattern: string): Promise<SQL | undefined> {
  const actors = await db
    .select({ userNo: users.userNo })
    .from(users)
    .where(or(ilike(users.userId, pattern), ilike(users.name, pattern)));
  return or(
    inArray(
      auditLog.actorUserNo,
      actors.map((actor) => actor.userNo),
    ),
    and(
      isNull(auditLog.actorUserNo),
      inArray(auditLog.action, SIGN_IN_ATTEMPTS),
      eq(auditLog.targetType, 'user'),
      ilike(auditLog.targetId, pattern),
    ),
  );
}

export async function filterOf(db: Db, filter: AuditFilter, timeZone: string): Promise<SQL | undefined> {
  const like = (value: string) => `%${escapeLike(value)}%`;
  return and(
    filter.actor ? await actorMatches(db, like(filter.actor)) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.targetType ? eq(auditLog.targetType, filter.targetType) : undefined,
    filter.targetId ? eq(auditLog.targetId, filter.targetId) : undefined,
    withinDates(auditLog.at, filter, timeZone),
  );
}

/** A page of the trail, newest first, each filter read the way that keeps its pages fast. */
export async function listAuditRecords(db: Db, request: AuditListRequest, timeZone: string): Promise<ListAnswer<AuditRecord>> {
  const where = await filterOf(db, request, timeZone);
  if (!where) return wholeTrailPage(db, request);
  if (request.action && !request.actor && !request.targetType && !request.targetId && !request.startDate && !request.endDate)
    return actionPage(db, request.action, request);
  if (request.startDate || request.endDate) {
    // Counted and read the sorted way side by side; a range too large for that (rare, and then its
    // count is the slow part anyway) is read again the general way.
    const [totalCount, sorted] = await Promise.all([countWhere(db, where), dateRangePageRows(db, where, request)]);
    const rows = totalCount <= DATE_RANGE_SORTED_MAX ? sorted : await pageRows(db, where, request);
    return { list: rows.map(toRecord), totalCount };
  }
  // The count and the page side by side: the count of a broad filter is the slow half.
  const [totalCount, rows] = await Promise.all([countWhere(db, where), pageRows(db, where, request)]);
  return { list: rows.map(toRecord), totalCount };
}

/** One record, whole, with the deleted note it names if any (see deletedNote); 404 when there is none of that number. */
export async function auditRecordDetail(db: Db, seq: number, timeZone: string): Promise<AuditDetailAnswer> {
  const [row] = await selectRecords(db).where(eq(auditLog.seq, seq));
  if (!row) throw new AppError(ERR.notFound);
  const record = toRecord(row);
  const noteNo = record.targetType === 'note' ? Number(record.targetId) : NaN;
  return { ...record, deletedNote: Number.isSafeInteger(noteNo) ? await deletedNote(db, noteNo, timeZone) : null };
}

/** Every record the filter matches, in chain order (the CSV export). */
export async function matchingRecords(db: Db, filter: AuditFilter, timeZone: string): Promise<AuditRecord[]> {
  const rows = await selectRecords(db)
    .where(await filterOf(db, filter, timeZone))
    .orderBy(auditLog.seq);
  return rows.map(toRecord);
}

async function countWhere(db: Db, where: SQL): Promise<number> {
  const [total] = await db.select({ n: count() }).from(auditLog).where(where);
  return Number(total?.n ?? 0);
}

/** Whole records (and actor names) of a filtered page, newest first, read from the filter's index. */
function pageRows(db: Db, where: SQL, paging: Paging) {
  const page = db
    .select({ seq: auditLog.seq })
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.seq))
    .limit(paging.pageSize)
    .offset(offsetOf(paging))
    .as('page');
  return selectRecords(db).innerJoin(page, eq(page.seq, auditLog.seq)).orderBy(desc(auditLog.seq));
}

/**
 * A date range orders nothing by seq, and PostgreSQL would walk the trail backwards from its newest
 * record to the range. When the range holds at most DATE_RANGE_SORTED_MAX records, they are read from
 * the date index first and then sorted (the LIMIT keeps the planner from merging the two steps; twice
 * the threshold, so it cuts nothing if records are appended meanwhile). (Counting and sorting in one
 * statement with a window function measured slower: the window materialises every record of the range.)
 */
function dateRangePageRows(db: Db, where: SQL, paging: Paging) {
  const matches = db
    .select({ seq: auditLog.seq })
    .from(auditLog)
    .where(where)
    .limit(DATE_RANGE_SORTED_MAX * 2)
    .as('matches');
  const page = db
    .select({ seq: matches.seq })
    .from(matches)
    .orderBy(desc(matches.seq))
    .limit(paging.pageSize)
    .offset(offsetOf(paging))
    .as('page');
  return selectRecords(db).innerJoin(page, eq(page.seq, auditLog.seq)).orderBy(desc(auditLog.seq));
}

/**
 * A page of the unfiltered trail, newest first: the head's row number is the total, and a page is a
 * range of row numbers, so the last page costs what the first does (no count, no OFFSET).
 */
async function wholeTrailPage(db: Db, paging: Paging): Promise<ListAnswer<AuditRecord>> {
  const [head] = await db.select({ rowNo: auditLog.rowNo }).from(auditLog).orderBy(desc(auditLog.rowNo)).limit(1);
  const totalCount = head?.rowNo ?? 0;
  const top = totalCount - offsetOf(paging);
  const rows = top > 0 ? await selectRecords(db).where(lte(auditLog.rowNo, top)).orderBy(desc(auditLog.rowNo)).limit(paging.pageSize) : [];
  return { list: rows.map(toRecord), totalCount };
}

/**
 * A page of one action's records, newest first, read as the whole trail is (see wholeTrailPage) by
 * their place among the action's records: the last one's is the total, so neither a count of
 * hundreds of thousands of records nor an OFFSET past them is needed.
 */
async function actionPage(db: Db, action: string, paging: Paging): Promise<ListAnswer<AuditRecord>> {
  const [last] = await db
    .select({ actionRowNo: auditLog.actionRowNo })
    .from(auditLog)
    .where(eq(auditLog.action, action))
    .orderBy(desc(auditLog.actionRowNo))
    .limit(1);
  const totalCount = last?.actionRowNo ?? 0;
  const top = totalCount - offsetOf(paging);
  const rows =
    top > 0
      ? await selectRecords(db)
          .where(and(eq(auditLog.action, action), lte(auditLog.actionRowNo, top)))
          .orderBy(desc(auditLog.actionRowNo))
          .limit(paging.pageSize)
      : [];
  return { list: rows.map(toRecord), totalCount };
}
