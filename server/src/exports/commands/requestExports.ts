import { and, count, desc, eq, inArray } from 'drizzle-orm';
import {
  ERR,
  EXPORT_LIMITS,
  EXPORT_STATUS,
  isProjectFormat,
  type api,
  type CallRequest,
  type ExportCreateAnswer,
  type Language,
} from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import { AUDIT_EXPORT_REFUSALS, canExportAudit } from '../../audit/policy.js';
import type { Actor, AuthUser } from '../../auth/authUser.js';
import type { Db } from '../../db/client.js';
import { exportJobs } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import { findNoteFor } from '../../notes/queries.js';
import { canExportProject, READ_REFUSALS } from '../../projects/policy.js';
import { findReadableProject } from '../../projects/queries.js';
import type { Services } from '../../services.js';
import { newJobId } from '../jobs.js';
import { toJob } from '../presenters.js';
import { selectJobs } from '../queries.js';

type ExportRequest = CallRequest<typeof api.exports.create>;

/**
 * Queues exports, one job per project (or one for a note's version, or the audit trail), each audited
 * as requested. Every project is checked before anything is written: one refusal refuses the request.
 * The jobs' files are made in the requester's language (`language`) and zone.
 */
export async function requestExports(
  { db, config, exportJobs: queue }: Services,
  actor: Actor,
  input: ExportRequest,
  language: Language,
): Promise<ExportCreateAnswer> {
  const { user } = actor;
  if (input.format === 'auditCsv') enforce(canExportAudit(user), AUDIT_EXPORT_REFUSALS);
  for (const projectNo of new Set(input.projectNos)) {
    const found = await findReadableProject(db, user, projectNo);
    enforce(found ? canExportProject(user, found.project, found.participant) : 'hidden', READ_REFUSALS);
  }
  const note = input.noteNo === undefined ? null : await exportableNote(db, user, input.noteNo, input.version);
  const targets: Array<number | null> = note ? [note.projectNo] : isProjectFormat(input.format) ? [...new Set(input.projectNos)] : [null];
  const jobIds = await db.transaction(async (tx) => {
    const [open] = await tx
      .select({ n: count() })
      .from(exportJobs)
      .where(and(eq(exportJobs.requestedByUserNo, user.userNo), inArray(exportJobs.status, [EXPORT_STATUS.queued, EXPORT_STATUS.running])));
    if (Number(open?.n ?? 0) + targets.length > EXPORT_LIMITS.openJobsPerUser) {
      throw new AppError(ERR.exportQueueFull, { params: { max: EXPORT_LIMITS.openJobsPerUser } });
    }
    const ids: string[] = [];
    for (const projectNo of targets) {
      const jobId = newJobId();
      const job = {
        jobId,
        requestedByUserNo: user.userNo,
        format: input.format,
        projectNo,
        startDate: input.startDate || null,
        endDate: input.endDate || null,
        language,
        timeZone: input.timeZone ?? config.timeZone,
        pdfA: input.pdfA,
        changes: input.changes,
        comments: input.comments,
        noteNo: note?.noteNo ?? null,
        version: note?.version ?? null,
      };
      await tx.insert(exportJobs).values(job);
      await appendAudit(tx, {
        ...auditedActor(actor),
        action: 'export.requested',
        target: { type: 'export', id: jobId },
        after: {
          format: job.format,
          projectNo,
          noteNo: job.noteNo,
          version: job.version,
          startDate: job.startDate,
          endDate: job.endDate,
          timeZone: job.timeZone,
          pdfA: job.pdfA,
          changes: job.changes,
          comments: job.comments,
        },
      });
      ids.push(jobId);
    }
    return ids;
  });
  queue.kick();
  const rows = await selectJobs(db).where(inArray(exportJobs.jobId, jobIds)).orderBy(desc(exportJobs.createdAt));
  return { list: rows.map((row) => toJob(user, row)) };
}

/** A note whose saved version the caller may take out as PDF: readable, not deleted, the version saved. */
async function exportableNote(db: Db, user: AuthUser, noteNo: number, version: number | undefined) {
  const found = await findNoteFor(db, user, noteNo);
  if (!found || found.note.deletedAt) throw new AppError(READ_REFUSALS.hidden);
  enforce(canExportProject(user, found.project, found.participant), READ_REFUSALS);
  const wanted = version ?? found.note.version;
  if (wanted < 1 || wanted > found.note.version) throw new AppError(ERR.exportNoVersion);
  return { noteNo, projectNo: found.project.projectNo, version: wanted };
}
