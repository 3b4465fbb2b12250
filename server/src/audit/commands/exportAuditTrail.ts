import type { CallRequest, api } from '@eln/shared';
import type { Actor } from '../../auth/authUser.js';
import type { Services } from '../../services.js';
import { appendAuditRecord, auditedActor } from '../audit.js';
import type { AuditCsvFile } from '../presenters.js';
import { matchingRecords } from '../queries.js';

/**
 * The records the filter matches, for the CSV export. Taking the trail out is itself audited; the
 * export names the chain head its own record made, so that a later verify can confirm the file.
 */
export async function exportAuditTrail(
  { db, config }: Services,
  actor: Actor,
  filter: CallRequest<typeof api.audit.exportCsv>,
): Promise<AuditCsvFile> {
  const records = await matchingRecords(db, filter, config.timeZone);
  const head = await db.transaction((tx) =>
    appendAuditRecord(tx, {
      ...auditedActor(actor),
      action: 'audit.exported',
      target: { type: 'audit', id: records.length ? `${records[0]?.seq}-${records.at(-1)?.seq}` : 'none' },
      after: { records: records.length, filter },
    }),
  );
  return { records, head };
}
