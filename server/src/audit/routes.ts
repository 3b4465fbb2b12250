import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { exportAuditTrail } from './commands/exportAuditTrail.js';
import { sendAuditCsv } from './presenters.js';
import { auditRecordDetail, listAuditRecords } from './queries.js';
import { verifyAuditTrail } from './verify.js';

/**
 * The audit trail for administrators: list, detail, chain verification against the heads kept outside
 * the database, and CSV export (itself audited; its last line and a header name the chain head the
 * export's own record made).
 */
export function auditRoutes(services: Services) {
  const { db, config, auditAnchor } = services;
  return bindCalls(api.audit, {
    verify: ({ body }) => verifyAuditTrail(db, auditAnchor, body),
    list: ({ body }) => listAuditRecords(db, body, config.timeZone),
    detail: ({ body }) => auditRecordDetail(db, body.seq, config.timeZone),
    exportCsv: async ({ body, actor, reply }) => sendAuditCsv(reply, await exportAuditTrail(services, actor, body)),
  });
}
