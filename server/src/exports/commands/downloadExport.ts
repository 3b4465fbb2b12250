import { access } from 'node:fs/promises';
import path from 'node:path';
import { ERR, type api, type CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { AppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import type { ExportFile } from '../presenters.js';
import { downloadableJob } from '../queries.js';

const exists = (filePath: string) =>
  access(filePath).then(
    () => true,
    () => false,
  );

/**
 * Hands out a finished export's file for a download token: the token must be valid, unexpired and the
 * caller's own (someone else presenting it is refused, even an administrator), and the caller still
 * allowed the job. The download is audited before the file goes out.
 */
export async function downloadExport(
  { db, config, exportLinks }: Services,
  actor: Actor,
  input: CallRequest<typeof api.exports.download>,
): Promise<ExportFile> {
  const checked = exportLinks.check(input.token);
  if (!checked.ok) throw new AppError(checked.reason === 'expired' ? ERR.exportLinkExpired : ERR.forbidden);
  if (checked.claims.userNo !== actor.user.userNo) throw new AppError(ERR.forbidden);
  const job = await downloadableJob(db, actor.user, checked.claims.jobId);
  const filePath = path.join(config.filesDir, job.storagePath ?? '');
  if (!job.storagePath || !(await exists(filePath))) throw new AppError(ERR.exportGone);
  await db.transaction((tx) =>
    appendAudit(tx, {
      ...auditedActor(actor),
      action: 'export.downloaded',
      target: { type: 'export', id: job.jobId },
      after: { fileName: job.fileName, size: job.size, sha256: job.sha256 },
    }),
  );
  return { job, filePath, fileName: job.fileName ?? path.basename(filePath) };
}
