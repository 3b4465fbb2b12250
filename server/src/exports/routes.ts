import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API_BASE,
  ELN_IMPORT_LIMITS,
  ELN_IMPORT_PATH,
  ERR,
  EXPORT_LIMITS,
  EXPORT_MEDIA_TYPES,
  EXPORT_STATUS,
  exportCreateRequest,
  exportDownloadRequest,
  exportJobRequest,
  exportListRequest,
  exportPublicKeyRequest,
  isProjectFormat,
  type ExportCreateAnswer,
  type ExportJob,
  type ElnImportAnswer,
  type ExportLinkAnswer,
  type ExportPublicKey,
  type ListAnswer,
} from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { exportJobs, labNotes, projects, users } from '../db/schema.js';
import { appendAudit } from '../audit/audit.js';
import { AppError } from '../http/errors.js';
import { languageOf, success } from '../http/envelope.js';
import { authenticate, defineRoute } from '../http/route.js';
import { enforce } from '../http/verdicts.js';
import { canExportProject, READ_REFUSALS } from '../projects/policy.js';
import { isAdministrator } from '../users/policy.js';
import { findReadableProject } from '../projects/queries.js';
import { findNoteFor } from '../notes/queries.js';
import type { Services } from '../services.js';
import { mayExportProject } from './access.js';
import { exportPublicKey, importElnArchive } from './eln/index.js';
import { newJobId, type ExportJobRow } from './jobs.js';
import { AUDIT_EXPORT_REFUSALS, canDownload, canExportAudit, canSeeJob, DOWNLOAD_REFUSALS, SEE_JOB_REFUSALS } from './policy.js';

type JobListRow = { job: ExportJobRow; projectTitle: string | null; labNoteNumber: string | null; userId: string; name: string };

const toJob = (user: AuthUser, { job, projectTitle, labNoteNumber, userId, name }: JobListRow): ExportJob => ({
  jobId: job.jobId,
  format: job.format,
  status: job.status,
  progress: job.progress,
  projectNo: job.projectNo,
  projectTitle,
  startDate: job.startDate,
  endDate: job.endDate,
  pdfA: job.pdfA,
  noteNo: job.noteNo,
  labNoteNumber,
  version: job.version,
  requestedBy: { userId, name },
  createdAt: job.createdAt.toISOString(),
  finishedAt: job.finishedAt?.toISOString() ?? null,
  fileName: job.fileName,
  size: job.size,
  sha256: job.sha256,
  errorCode: job.errorCode,
  downloadable: canDownload(user, job) === 'allowed',
});

function selectJobs(q: Queryable) {
  return q
    .select({
      job: exportJobs,
      projectTitle: projects.title,
      labNoteNumber: labNotes.labNoteNumber,
      userId: users.userId,
      name: users.name,
    })
    .from(exportJobs)
    .innerJoin(users, eq(users.userNo, exportJobs.requestedByUserNo))
    .leftJoin(projects, eq(projects.projectNo, exportJobs.projectNo))
    .leftJoin(labNotes, eq(labNotes.noteNo, exportJobs.noteNo));
}

/**
 * Export jobs: start (PDF or .eln of projects, audit CSV of the trail), list with progress, and fetch the
 * file through a signed token made for the requester alone. Each step is audited.
 */
export function registerExportRoutes(app: FastifyInstance, services: Services): void {
  const { db, config, exportJobs: queue, exportLinks } = services;

  /** A note whose saved version the caller may take out as PDF: readable, not deleted, the version saved. */
  async function exportableNote(user: AuthUser, noteNo: number, version: number | undefined) {
    const found = await findNoteFor(db, user, noteNo);
    if (!found || found.note.deletedAt) throw new AppError(READ_REFUSALS.hidden);
    enforce(canExportProject(user, found.project, found.participant), READ_REFUSALS);
    const wanted = version ?? found.note.version;
    if (wanted < 1 || wanted > found.note.version) throw new AppError(ERR.exportNoVersion);
    return { noteNo, projectNo: found.project.projectNo, version: wanted };
  }

  defineRoute(app, services, {
    path: '/v1/export/create',
    access: 'user',
    body: exportCreateRequest,
    async handler({ body, user, request, clientAddress }): Promise<ExportCreateAnswer> {
      if (body.format === 'auditCsv') enforce(canExportAudit(user), AUDIT_EXPORT_REFUSALS);
      // Every project is checked before anything is written: one refusal refuses the request.
      for (const projectNo of new Set(body.projectNos)) {
        const found = await findReadableProject(db, user, projectNo);
        enforce(found ? canExportProject(user, found.project, found.participant) : 'hidden', READ_REFUSALS);
      }
      const note = body.noteNo === undefined ? null : await exportableNote(user, body.noteNo, body.version);
      const targets: Array<number | null> = note ? [note.projectNo] : isProjectFormat(body.format) ? [...new Set(body.projectNos)] : [null];
      const jobIds = await db.transaction(async (tx) => {
        const [open] = await tx
          .select({ n: count() })
          .from(exportJobs)
          .where(
            and(eq(exportJobs.requestedByUserNo, user.userNo), inArray(exportJobs.status, [EXPORT_STATUS.queued, EXPORT_STATUS.running])),
          );
        if (Number(open?.n ?? 0) + targets.length > EXPORT_LIMITS.openJobsPerUser) {
          throw new AppError(ERR.exportQueueFull, { params: { max: EXPORT_LIMITS.openJobsPerUser } });
        }
        const ids: string[] = [];
        for (const projectNo of targets) {
          const jobId = newJobId();
          const job = {
            jobId,
            requestedByUserNo: user.userNo,
            format: body.format,
            projectNo,
            startDate: body.startDate || null,
            endDate: body.endDate || null,
            language: languageOf(request),
            timeZone: body.timeZone ?? config.timeZone,
            pdfA: body.pdfA,
            noteNo: note?.noteNo ?? null,
            version: note?.version ?? null,
          };
          await tx.insert(exportJobs).values(job);
          await appendAudit(tx, {
            actor: user,
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
            },
            clientAddress,
          });
          ids.push(jobId);
        }
        return ids;
      });
      queue.kick();
      const rows = await selectJobs(db).where(inArray(exportJobs.jobId, jobIds)).orderBy(desc(exportJobs.createdAt));
      return { list: rows.map((row) => toJob(user, row)) };
    },
  });

  defineRoute(app, services, {
    path: '/v1/export/list',
    access: 'user',
    body: exportListRequest,
    async handler({ body, user }): Promise<ListAnswer<ExportJob>> {
      const conditions: SQL[] = [];
      if (!isAdministrator(user)) conditions.push(eq(exportJobs.requestedByUserNo, user.userNo));
      if (body.projectNo !== undefined) {
        if (!(await findReadableProject(db, user, body.projectNo))) throw new AppError(READ_REFUSALS.hidden);
        conditions.push(eq(exportJobs.projectNo, body.projectNo));
      }
      const where = and(...conditions);
      const [rows, [total]] = await Promise.all([
        selectJobs(db).where(where).orderBy(desc(exportJobs.createdAt)).limit(EXPORT_LIMITS.listSize),
        db.select({ n: count() }).from(exportJobs).where(where),
      ]);
      return { list: rows.map((row) => toJob(user, row)), totalCount: Number(total?.n ?? 0) };
    },
  });

  /** A project's export is fetched only while its requester may still export the project. */
  async function requireStillExportable(user: AuthUser, job: ExportJobRow): Promise<void> {
    if (job.projectNo !== null && !(await mayExportProject(db, user, job.projectNo))) throw new AppError(READ_REFUSALS.hidden);
  }

  async function visibleJob(user: AuthUser, jobId: string): Promise<JobListRow> {
    const [row] = await selectJobs(db).where(eq(exportJobs.jobId, jobId));
    enforce(row ? canSeeJob(user, row.job) : 'hidden', SEE_JOB_REFUSALS);
    return row!;
  }

  defineRoute(app, services, {
    path: '/v1/export/detail',
    access: 'user',
    body: exportJobRequest,
    handler: async ({ body, user }): Promise<ExportJob> => toJob(user, await visibleJob(user, body.jobId)),
  });

  defineRoute(app, services, {
    path: '/v1/export/link',
    access: 'user',
    body: exportJobRequest,
    async handler({ body, user }): Promise<ExportLinkAnswer> {
      const row = await visibleJob(user, body.jobId);
      enforce(canDownload(user, row.job), DOWNLOAD_REFUSALS);
      await requireStillExportable(user, row.job);
      const { token, expiresAt } = exportLinks.make(row.job.jobId, user.userNo);
      return { token, expiresAt: expiresAt.toISOString() };
    },
  });

  // Answers the file itself (not the envelope); refusals still come as the envelope.
  defineRoute(app, services, {
    path: '/v1/export/download',
    access: 'user',
    body: exportDownloadRequest,
    answersItself: true,
    async handler({ body, user, reply, clientAddress }) {
      const checked = exportLinks.check(body.token);
      if (!checked.ok) throw new AppError(checked.reason === 'expired' ? ERR.exportLinkExpired : ERR.forbidden);
      // A token is the requester's alone: someone else presenting it is refused, even an administrator.
      if (checked.claims.userNo !== user.userNo) throw new AppError(ERR.forbidden);
      const row = await visibleJob(user, checked.claims.jobId);
      enforce(canDownload(user, row.job), DOWNLOAD_REFUSALS);
      await requireStillExportable(user, row.job);
      const { job } = row;
      const filePath = path.join(config.filesDir, job.storagePath ?? '');
      if (
        !job.storagePath ||
        !(await access(filePath).then(
          () => true,
          () => false,
        ))
      )
        throw new AppError(ERR.exportGone);
      await db.transaction((tx) =>
        appendAudit(tx, {
          actor: user,
          action: 'export.downloaded',
          target: { type: 'export', id: job.jobId },
          after: { fileName: job.fileName, size: job.size, sha256: job.sha256 },
          clientAddress,
        }),
      );
      const fileName = job.fileName ?? path.basename(filePath);
      return reply
        .header('content-type', EXPORT_MEDIA_TYPES[job.format])
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
        .header('content-length', String(job.size ?? ''))
        .header('x-content-sha256', job.sha256 ?? '')
        .send(createReadStream(filePath));
    },
  });

  // The key that signs .eln archives, in minisign's .pub format, for checking them offline.
  defineRoute(app, services, {
    path: '/v1/export/publicKey',
    access: 'user',
    body: exportPublicKeyRequest,
    handler: (): Promise<ExportPublicKey> => exportPublicKey(db),
  });

  // A .eln archive becomes a new project (multipart: one file part). The archive is kept in a temporary
  // folder only while it is checked and read; a refused one changes nothing.
  app.post(`${API_BASE}${ELN_IMPORT_PATH}`, async (request, reply) => {
    try {
      return success(request, await receiveImport(request));
    } catch (error) {
      reply.header('connection', 'close');
      throw error;
    }
  });

  async function receiveImport(request: FastifyRequest): Promise<ElnImportAnswer> {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > ELN_IMPORT_LIMITS.archiveBytes + 64 * 1024) throw new AppError(ERR.tooLarge);
    const user = await authenticate(services, request, 'user');
    if (!user) throw new AppError(ERR.sessionEnded);
    if (!request.isMultipart()) throw new AppError(ERR.unsupportedMediaType);
    const part = await request.file({ limits: { fileSize: ELN_IMPORT_LIMITS.archiveBytes + 1, files: 1 } });
    if (!part) throw new AppError(ERR.validation);
    const folder = await mkdtemp(path.join(tmpdir(), 'eln-import-'));
    try {
      const archive = path.join(folder, 'archive.eln');
      await pipeline(part.file, createWriteStream(archive));
      if (part.file.truncated) throw new AppError(ERR.tooLarge);
      const imported = await importElnArchive(db, config, user, archive, {
        lang: languageOf(request),
        archiveName: path.basename(part.filename || 'archive.eln'),
        clientAddress: request.ip,
      });
      return { projectNo: imported.projectNo, title: imported.title, noteCount: imported.noteCount, signed: imported.signed };
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }
}
