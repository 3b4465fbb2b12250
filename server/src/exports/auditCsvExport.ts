import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { and, asc, count, eq, gt } from 'drizzle-orm';
import { AUDIT_HEAD_LINE_PREFIX } from '@eln/shared';
import type { Db } from '../db/client.js';
import { auditLog, users } from '../db/schema.js';
import { withinDates } from '../db/paging.js';
import { auditCsv, toRecord, type AuditRow } from '../audit/presenters.js';
import type { ExportMaker } from './jobs.js';
import { dayInZone } from './eln/crate.js';

/** Records read per query: a million-record trail is written in bounded memory. */
const BATCH = 2_000;

/**
 * The audit trail (or the days asked for) as CSV, written in batches in chain order. Its last line names
 * the chain position and hash of the last record it holds, which `/v1/audit/verify` and a re-export confirm.
 */
export function auditCsvMaker(db: Db): ExportMaker {
  return async ({ job, outPath, progress, signal }) => {
    const range = withinDates(auditLog.at, { startDate: job.startDate ?? undefined, endDate: job.endDate ?? undefined }, job.timeZone);
    const [total] = await db.select({ n: count() }).from(auditLog).where(range);
    const totalCount = Number(total?.n ?? 0);
    const out = createWriteStream(outPath);
    const write = async (chunk: string) => {
      if (!out.write(chunk)) await once(out, 'drain');
    };
    let last: { seq: number; hash: string } | null = null;
    let written = 0;
    try {
      await write('\uFEFF');
      for (;;) {
        signal.throwIfAborted();
        const rows: AuditRow[] = await db
          .select({ record: auditLog, actorName: users.name })
          .from(auditLog)
          .leftJoin(users, eq(users.userNo, auditLog.actorUserNo))
          .where(and(range, last ? gt(auditLog.seq, last.seq) : undefined))
          .orderBy(asc(auditLog.seq))
          .limit(BATCH);
        if (!rows.length && written > 0) break;
        await write(auditCsv(rows.map(toRecord), { header: written === 0 }) + '\r\n');
        if (!rows.length) break;
        const tail: AuditRow['record'] = rows[rows.length - 1]!.record;
        last = { seq: tail.seq, hash: tail.hash };
        written += rows.length;
        progress(totalCount ? written / totalCount : 1);
      }
      await write(`${AUDIT_HEAD_LINE_PREFIX} seq=${last?.seq ?? 0} hash=${last?.hash ?? ''}\r\n`);
      out.end();
      await once(out, 'finish');
    } finally {
      out.destroy();
    }
    const days = [job.startDate, job.endDate].filter(Boolean).join('_');
    return { fileName: `audit-trail-${days || dayInZone(job.createdAt, job.timeZone)}.csv` };
  };
}
