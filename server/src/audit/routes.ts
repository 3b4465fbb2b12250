import { and, count, desc, eq, ilike, inArray, isNull, or, type SQL } from 'drizzle-orm';
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

/** Sign-in attempts before anyone is signed in: their actor is nobody, and the typed ID is the target. */
const SIGN_IN_ATTEMPTS: AuditAction[] = ['user.signInFailed', 'user.signInRefused'];

/**
 * The actor filter: by ID or name, and for failed or refused sign-ins (no actor yet) by the ID that was
 * typed, so "who tried to sign in as kim@…" finds every attempt.
 */
function actorMatches(pattern: string): SQL | undefined {
  return or(
    ilike(auditLog.actorUserId, pattern),
    ilike(users.name, pattern),
    and(isNull(auditLog.actorUserNo), inArray(auditLog.action, SIGN_IN_ATTEMPTS), eq(auditLog.targetType, 'user'), ilike(auditLog.targetId, pattern)),
  );
}

function filterOf(filter: AuditFilter, timeZone: string): SQL | undefined {
  const like = (value: string) => `%${escapeLike(value)}%`;
  return and(
    filter.actor ? actorMatches(like(filter.actor)) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.targetType ? eq(auditLog.targetType, filter.targetType) : undefined,
    filter.targetId ? eq(auditLog.targetId, filter.targetId) : undefined,
    withinDates(auditLog.at, filter, timeZone),
  );
}

type Row = { record: typeof auditLog.$inferSelect; actorName: string | null };
const toRecord = ({ record, actorName }: Row): AuditRecord => ({ ...record, at: record.at.toISOString(), actorName });

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
    body: auditListRequest,
    async handler({ body }): Promise<ListAnswer<AuditRecord>> {
      const where = filterOf(body, config.timeZone);
      const [total] = await db.select({ n: count() }).from(auditLog).leftJoin(users, eq(users.userNo, auditLog.actorUserNo)).where(where);
      const rows = await select().where(where).orderBy(desc(auditLog.seq)).limit(body.pageSize).offset(offsetOf(body));
      return { list: rows.map(toRecord), totalCount: Number(total?.n ?? 0) };
    },
  });

  defineRoute(app, services, {
    path: '/v1/audit/detail',
    access: 'admin',
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
      const rows = await select().where(filterOf(filter, config.timeZone)).orderBy(auditLog.seq);
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
export function auditCsv(records: readonly AuditRecord[]): string {
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
    { escapeFormulae: FORMULA_START },
  );
}
