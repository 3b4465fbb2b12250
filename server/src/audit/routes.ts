import { and, count, desc, eq, ilike, inArray, isNull, lte, or, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import Papa from 'papaparse';
import {
  AUDIT_CSV_COLUMNS,
  AUDIT_HEAD_HEADER,
  AUDIT_HEAD_LINE_PREFIX,
  auditDetailRequest,
  auditExportRequest,
  auditListRequest,
  auditVerifyRequest,
  ERR,
  type AuditAction,
  type AuditRecord,
  type ListAnswer,
} from '@eln/shared';
import type { Db } from '../db/client.js';
import { auditLog, users } from '../db/schema.js';
import { escapeLike } from '../db/like.js';
import { offsetOf, withinDates } from '../db/paging.js';
import { AppError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import type { Services } from '../services.js';
import { appendAuditRecord, verifyAuditChain } from './audit.js';

interface AuditFilter {
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  startDate?: string;
  endDate?: string;
}

/** A date-filtered list with at most this many records reads them by date and sorts them (see dateRangePageRows). */
const DATE_RANGE_SORTED_MAX = 200_000;

/** Sign-in attempts before anyone is signed in: their actor is nobody, and the typed ID is the target. */
const SIGN_IN_ATTEMPTS: AuditAction[] = ['user.signInFailed', 'user.signInRefused'];

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

export type AuditRow = { record: typeof auditLog.$inferSelect; actorName: string | null };
/** The record as the API answers it (its row numbers are the list's own paging keys, not part of it). */
export const toRecord = ({ record: { rowNo: _rowNo, actionRowNo: _actionRowNo, ...record }, actorName }: AuditRow): AuditRecord => ({
  ...record,
  at: record.at.toISOString(),
  actorName,
});

/**
 * The audit trail for administrators: list, detail, chain verification and CSV export (itself audited;
 * its last line and a header name the chain head the export's own record made).
 */
export function registerAuditRoutes(app: FastifyInstance, services: Services): void {
  const { db, config } = services;
  const select = () =>
    db.select({ record: auditLog, actorName: users.name }).from(auditLog).leftJoin(users, eq(users.userNo, auditLog.actorUserNo));

  defineRoute(app, services, {
    path: '/v1/audit/verify',
    access: 'admin',
    body: auditVerifyRequest,
    handler: () => verifyAuditChain(db),
  });

  defineRoute(app, services, {
    path: '/v1/audit/list',
    access: 'admin',
    failure: ERR.auditLookup,
    body: auditListRequest,
    async handler({ body }): Promise<ListAnswer<AuditRecord>> {
      const where = await filterOf(db, body, config.timeZone);
      if (!where) return wholeTrailPage(body);
      if (body.action && !body.actor && !body.targetType && !body.targetId && !body.startDate && !body.endDate)
        return actionPage(body.action, body);
      if (body.startDate || body.endDate) {
        // Counted and read the sorted way side by side; a range too large for that (rare, and then its
        // count is the slow part anyway) is read again the general way.
        const [totalCount, sorted] = await Promise.all([countWhere(where), dateRangePageRows(where, body)]);
        const rows = totalCount <= DATE_RANGE_SORTED_MAX ? sorted : await pageRows(where, body);
        return { list: rows.map(toRecord), totalCount };
      }
      // The count and the page side by side: the count of a broad filter is the slow half.
      const [totalCount, rows] = await Promise.all([countWhere(where), pageRows(where, body)]);
      return { list: rows.map(toRecord), totalCount };
    },
  });

  async function countWhere(where: SQL): Promise<number> {
    const [total] = await db.select({ n: count() }).from(auditLog).where(where);
    return Number(total?.n ?? 0);
  }

  /** Whole records (and actor names) of a filtered page, newest first, read from the filter's index. */
  function pageRows(where: SQL, paging: { page: number; pageSize: number }) {
    const page = db
      .select({ seq: auditLog.seq })
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.seq))
      .limit(paging.pageSize)
      .offset(offsetOf(paging))
      .as('page');
    return select().innerJoin(page, eq(page.seq, auditLog.seq)).orderBy(desc(auditLog.seq));
  }

  /**
   * A date range orders nothing by seq, and PostgreSQL would walk the trail backwards from its newest
   * record to the range. When the range holds at most DATE_RANGE_SORTED_MAX records, they are read from
   * the date index first and then sorted (the LIMIT keeps the planner from merging the two steps; twice
   * the threshold, so it cuts nothing if records are appended meanwhile). (Counting and sorting in one
   * statement with a window function measured slower: the window materialises every record of the range.)
   */
  function dateRangePageRows(where: SQL, paging: { page: number; pageSize: number }) {
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
    return select().innerJoin(page, eq(page.seq, auditLog.seq)).orderBy(desc(auditLog.seq));
  }

  /**
   * A page of the unfiltered trail, newest first: the head's row number is the total, and a page is a
   * range of row numbers, so the last page costs what the first does (no count, no OFFSET).
   */
  async function wholeTrailPage(paging: { page: number; pageSize: number }): Promise<ListAnswer<AuditRecord>> {
    const [head] = await db.select({ rowNo: auditLog.rowNo }).from(auditLog).orderBy(desc(auditLog.rowNo)).limit(1);
    const totalCount = head?.rowNo ?? 0;
    const top = totalCount - offsetOf(paging);
    const rows = top > 0 ? await select().where(lte(auditLog.rowNo, top)).orderBy(desc(auditLog.rowNo)).limit(paging.pageSize) : [];
    return { list: rows.map(toRecord), totalCount };
  }

  /**
   * A page of one action's records, newest first, read as the whole trail is (see wholeTrailPage) by
   * their place among the action's records: the last one's is the total, so neither a count of
   * hundreds of thousands of records nor an OFFSET past them is needed.
   */
  async function actionPage(action: string, paging: { page: number; pageSize: number }): Promise<ListAnswer<AuditRecord>> {
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
        ? await select()
            .where(and(eq(auditLog.action, action), lte(auditLog.actionRowNo, top)))
            .orderBy(desc(auditLog.actionRowNo))
            .limit(paging.pageSize)
        : [];
    return { list: rows.map(toRecord), totalCount };
  }

  defineRoute(app, services, {
    path: '/v1/audit/detail',
    access: 'admin',
    failure: ERR.auditLookup,
    body: auditDetailRequest,
    async handler({ body }): Promise<AuditRecord> {
      const [row] = await select().where(eq(auditLog.seq, body.seq));
      if (!row) throw new AppError(ERR.notFound);
      return toRecord(row);
    },
  });

  // The export answers CSV itself (not the envelope), so a browser can save it as it downloads.
  defineRoute(app, services, {
    path: '/v1/audit/export',
    access: 'admin',
    body: auditExportRequest,
    answersItself: true,
    async handler({ body: filter, user: admin, reply, clientAddress }) {
      const rows = await select()
        .where(await filterOf(db, filter, config.timeZone))
        .orderBy(auditLog.seq);
      const head = await db.transaction((tx) =>
        appendAuditRecord(tx, {
          actor: admin,
          action: 'audit.exported',
          target: { type: 'audit', id: rows.length ? `${rows[0]?.record.seq}-${rows.at(-1)?.record.seq}` : 'none' },
          after: { records: rows.length, filter },
          clientAddress,
        }),
      );
      const body = `\uFEFF${auditCsv(rows.map(toRecord))}\r\n${AUDIT_HEAD_LINE_PREFIX} seq=${head.seq} hash=${head.hash}\r\n`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-trail-${new Date().toISOString().slice(0, 10)}.csv"`)
        .header(AUDIT_HEAD_HEADER, `${head.seq} ${head.hash}`)
        .header('content-length', String(Buffer.byteLength(body)))
        .send(body);
    },
  });
}

/** papaparse's own pattern (`escapeFormulae: true`) ends in `.*$`, so it misses a formula followed by a line break. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The records as CSV. A cell that a spreadsheet would run as a formula (it starts with = + - @, a tab
 * or a carriage return) is written with a leading apostrophe (papaparse's escapeFormulae), so that a
 * value an attacker chose (a user ID typed at sign-in) is shown as text, never run.
 */
export function auditCsv(records: readonly AuditRecord[], { header = true }: { header?: boolean } = {}): string {
  return Papa.unparse(
    {
      fields: [...AUDIT_CSV_COLUMNS],
      data: records.map((r) =>
        AUDIT_CSV_COLUMNS.map((column) => {
          const value = r[column];
          return value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
        }),
      ),
    },
    { escapeFormulae: FORMULA_START, header },
  );
}
