import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  EXPORT_LIMITS,
  type api,
  type CallRequest,
  type ExportJob,
  type ExportLinkAnswer,
  type ExportSupport,
  type ListAnswer,
} from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { exportJobs, labNotes, projects, timestamps, users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { enforce } from '../http/verdicts.js';
import { READ_REFUSALS } from '../projects/policy.js';
import { findReadableProject } from '../projects/queries.js';
import type { Services } from '../services.js';
import { mayExportProject } from './access.js';
import type { ExportJobRow } from './jobs.js';
import { pdfSupport } from './pdf/support.js';
import { canDownload, canSeeJob, DOWNLOAD_REFUSALS, SEE_JOB_REFUSALS, visibleJobsSql } from './policy.js';
import { toJob, type JobListRow } from './presenters.js';

/** Export jobs with the names they refer to (the project, the note and the requester) and their file's time-stamp. */
export function selectJobs(q: Queryable) {
  return q
    .select({
      job: exportJobs,
      projectTitle: projects.title,
      labNoteNumber: labNotes.labNoteNumber,
      userId: users.userId,
      name: users.name,
      stamp: { status: timestamps.status, genTime: timestamps.genTime, authority: timestamps.authorityName, token: timestamps.token },
    })
    .from(exportJobs)
    .innerJoin(users, eq(users.userNo, exportJobs.requestedByUserNo))
    .leftJoin(projects, eq(projects.projectNo, exportJobs.projectNo))
    .leftJoin(labNotes, eq(labNotes.noteNo, exportJobs.noteNo))
    .leftJoin(timestamps, and(eq(timestamps.subjectKind, 'export'), eq(timestamps.subjectId, sql`${exportJobs.jobId}::text`)));
}

/** The jobs the caller sees, newest first (at most EXPORT_LIMITS.listSize), optionally of one project they may read. */
export async function listExportJobs(
  q: Queryable,
  user: AuthUser,
  request: CallRequest<typeof api.exports.list>,
): Promise<ListAnswer<ExportJob>> {
  const conditions: Array<SQL | undefined> = [visibleJobsSql(user)];
  if (request.projectNo !== undefined) {
    if (!(await findReadableProject(q, user, request.projectNo))) throw new AppError(READ_REFUSALS.hidden);
    conditions.push(eq(exportJobs.projectNo, request.projectNo));
  }
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    selectJobs(q).where(where).orderBy(desc(exportJobs.createdAt)).limit(EXPORT_LIMITS.listSize),
    q.select({ n: count() }).from(exportJobs).where(where),
  ]);
  return { list: rows.map((row) => toJob(user, row)), totalCount: Number(total?.n ?? 0) };
}

/** A job the caller may see (`canSeeJob`), else 9002. */
export async function visibleJob(q: Queryable, user: AuthUser, jobId: string): Promise<JobListRow> {
  const [row] = await selectJobs(q).where(eq(exportJobs.jobId, jobId));
  enforce(row ? canSeeJob(user, row.job) : 'hidden', SEE_JOB_REFUSALS);
  return row!;
}

/** A project's export is fetched only while its requester may still export the project. */
async function requireStillExportable(q: Queryable, user: AuthUser, job: ExportJobRow): Promise<void> {
  if (job.projectNo !== null && !(await mayExportProject(q, user, job.projectNo))) throw new AppError(READ_REFUSALS.hidden);
}

/** A job whose file the caller may fetch now (`canDownload`, and the project still theirs to export). */
export async function downloadableJob(q: Queryable, user: AuthUser, jobId: string): Promise<ExportJobRow> {
  const { job } = await visibleJob(q, user, jobId);
  enforce(canDownload(user, job), DOWNLOAD_REFUSALS);
  await requireStillExportable(q, user, job);
  return job;
}

/** A download token for a finished export, signed for the caller alone and valid a few minutes. */
export async function exportLink({ db, exportLinks }: Services, user: AuthUser, jobId: string): Promise<ExportLinkAnswer> {
  const job = await downloadableJob(db, user, jobId);
  const { token, expiresAt } = exportLinks.make(job.jobId, user.userNo);
  return { token, expiresAt: expiresAt.toISOString() };
}

/** What the server can export now: chromium, the fonts and Ghostscript, looked for where the export looks. */
export function exportSupport({ config }: Pick<Services, 'config'>): Promise<ExportSupport> {
  return pdfSupport({ chromiumPath: config.chromiumPath });
}
