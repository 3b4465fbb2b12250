import type { FastifyReply } from 'fastify';
import Papa from 'papaparse';
import { AUDIT_CSV_COLUMNS, AUDIT_HEAD_HEADER, AUDIT_HEAD_LINE_PREFIX, type AuditChainHead, type AuditRecord } from '@eln/shared';
import type { auditLog } from '../db/schema.js';

export type AuditRow = { record: typeof auditLog.$inferSelect; actorName: string | null };

/** The record as the API answers it (its row numbers are the list's own paging keys, not part of it). */
export const toRecord = ({ record: { rowNo: _rowNo, actionRowNo: _actionRowNo, ...record }, actorName }: AuditRow): AuditRecord => ({
  ...record,
  at: record.at.toISOString(),
  actorName,
});

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
          // Every value is JSON (the record's before and after are any JSON): text as it is, the rest as JSON.
          return value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
        }),
      ),
    },
    { escapeFormulae: FORMULA_START, header },
  );
}

/** An audit CSV export: the records, and the chain head its own record made. */
export interface AuditCsvFile {
  records: readonly AuditRecord[];
  head: AuditChainHead;
}

/**
 * Sends the export as the file itself (not the envelope), so a browser can save it as it downloads: a
 * byte order mark for spreadsheets, the records, and a last line and a header naming the chain head.
 */
export function sendAuditCsv(reply: FastifyReply, { records, head }: AuditCsvFile): FastifyReply {
  const body = `\uFEFF${auditCsv(records)}\r\n${AUDIT_HEAD_LINE_PREFIX} seq=${head.seq} hash=${head.hash}\r\n`;
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="audit-trail-${new Date().toISOString().slice(0, 10)}.csv"`)
    .header(AUDIT_HEAD_HEADER, `${head.seq} ${head.hash}`)
    .header('content-length', String(Buffer.byteLength(body)))
    .send(body);
}
