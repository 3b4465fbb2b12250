import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { ERR, EXPORT_LIMITS, EXPORT_STATUS, isErrorCode, type ErrorCode, type ExportFormat, type Language } from '@eln/shared';
import type { Db, Queryable, Tx } from '../db/client.js';
import { Drains } from '../db/drains.js';
import { exportJobs, labNotes, projects, users } from '../db/schema.js';
import { appendAudit } from '../audit/audit.js';
import { isAppError } from '../http/errors.js';
import { cleanFileName } from '../files/fileName.js';
import { notify } from '../notifications/notify.js';
import { queueTimestamp } from '../timestamps/queue.js';
import { exportSubject } from '../timestamps/subjects.js';
import { emitWebhook } from '../webhooks/emit.js';

export type ExportJobRow = typeof exportJobs.$inferSelect;

/** What a format's maker is given: the job, where to write its file, and how to report progress. */
export interface ExportWork {
  job: ExportJobRow;
  language: Language;
  outPath: string;
  /** Fraction done, 0-1; cheap to call often (stored at most every PROGRESS_STORE_MS). */
  progress(fraction: number): void;
  signal: AbortSignal;
}

/** Writes the job's file at `outPath` and names it for the person who downloads it. */
export type ExportMaker = (work: ExportWork) => Promise<{ fileName: string }>;

export type ExportMakers = Record<ExportFormat, ExportMaker>;

/** A running job whose heartbeat is older than this belongs to a server that stopped. */
const STALE_AFTER_MS = 60_000;
const HEARTBEAT_MS = 10_000;
const PROGRESS_STORE_MS = 400;
/** How often a server looks for jobs another process queued (its own start at once). */
const POLL_MS = 5_000;

export const exportsDir = (filesDir: string) => path.join(filesDir, 'exports');

/**
 * The export queue. Jobs are rows; any server process claims the oldest queued one (FOR UPDATE SKIP LOCKED,
 * so two processes never run the same job) and runs one at a time, since a PDF print holds a browser
 * and an archive holds a disk stream. Files live under FILES_DIR/exports, which every process shares.
 */
export class ExportJobs {
  private readonly drains = new Drains(
    () => this.drain(),
    (error: unknown) => this.log.error({ err: error }, 'export queue failed'),
  );
  private aborter = new AbortController();

  constructor(
    private readonly db: Db,
    private readonly filesDir: string,
    private readonly log: FastifyBaseLogger,
    private readonly makers: ExportMakers,
    /** Told after a job's file was recorded and its time-stamp asked for (the stamper looks at its queue then). */
    private readonly onCompleted: () => void = () => undefined,
  ) {}

  start(): void {
    if (this.aborter.signal.aborted) this.aborter = new AbortController();
    this.drains.start(POLL_MS);
  }

  async stop(): Promise<void> {
    this.aborter.abort();
    await this.drains.stop();
  }

  /** Looks for work now (after a job was queued). */
  kick(): void {
    this.drains.kick();
  }

  /** Resolves when no job of this process is running or waiting to be looked at (tests). */
  async idle(): Promise<void> {
    await this.drains.idle();
  }

  private async drain(): Promise<void> {
    await this.failStale();
    await this.removeExpired();
    for (;;) {
      if (this.aborter.signal.aborted) return;
      const job = await this.claim();
      if (!job) return;
      await this.run(job);
    }
  }

  /**
   * Takes the oldest queued job. Locked first, then marked, in one transaction: an UPDATE whose `IN`
   * subquery locks with LIMIT may run that subquery more than once and mark several jobs (seen on PGlite).
   */
  private async claim(): Promise<ExportJobRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [oldest] = await tx
        .select({ jobId: exportJobs.jobId })
        .from(exportJobs)
        .where(eq(exportJobs.status, EXPORT_STATUS.queued))
        .orderBy(asc(exportJobs.createdAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!oldest) return undefined;
      const [job] = await tx
        .update(exportJobs)
        .set({ status: EXPORT_STATUS.running, startedAt: sql`now()`, heartbeatAt: sql`now()`, progress: 0 })
        .where(eq(exportJobs.jobId, oldest.jobId))
        .returning();
      return job;
    });
  }

  private async run(job: ExportJobRow): Promise<void> {
    const dir = exportsDir(this.filesDir);
    await mkdir(dir, { recursive: true });
    const storagePath = path.join('exports', `${job.jobId}.${job.format === 'auditCsv' ? 'csv' : job.format}`);
    const outPath = path.join(this.filesDir, storagePath);
    const reporter = new ProgressReporter(this.db, job.jobId);
    try {
      const { fileName } = await this.makers[job.format]({
        job,
        language: job.language as Language,
        outPath,
        progress: (fraction) => reporter.report(fraction),
        signal: this.aborter.signal,
      });
      await reporter.stop();
      const { size } = await stat(outPath);
      const sha256 = await fileSha256(outPath);
      const completed = await this.db.transaction(async (tx) => {
        // Only a job still running here: one another process already failed as interrupted stays failed.
        const [done] = await tx
          .update(exportJobs)
          .set({ status: EXPORT_STATUS.done, progress: 100, fileName, storagePath, size, sha256, finishedAt: sql`now()` })
          .where(and(eq(exportJobs.jobId, job.jobId), eq(exportJobs.status, EXPORT_STATUS.running)))
          .returning({ jobId: exportJobs.jobId });
        if (!done) return false;
        await appendAudit(tx, {
          actor: { userNo: job.requestedByUserNo, userId: null },
          action: 'export.completed',
          target: { type: 'export', id: job.jobId },
          after: { format: job.format, projectNo: job.projectNo, fileName, size, sha256 },
        });
        await notifyRequester(tx, job, 'exportFinished', fileName);
        await emitWebhook(tx, {
          event: 'export.finished',
          projectNo: job.projectNo,
          data: { jobId: job.jobId, format: job.format, projectNo: job.projectNo, requestedByUserNo: job.requestedByUserNo, size, sha256 },
        });
        // The file made is time-stamped: its SHA-256 with what the job was, in the transaction that records it.
        const [requester] = await tx.select({ userId: users.userId }).from(users).where(eq(users.userNo, job.requestedByUserNo));
        await queueTimestamp(
          tx,
          'export',
          job.jobId,
          exportSubject({ ...job, fileName, size, sha256, requestedBy: requester?.userId ?? '' }),
        );
        return true;
      });
      if (!completed) await rm(outPath, { force: true });
      else this.onCompleted();
    } catch (error) {
      await reporter.stop();
      await rm(outPath, { force: true });
      const errorCode: ErrorCode = this.aborter.signal.aborted
        ? ERR.exportInterrupted
        : isAppError(error) && isErrorCode(error.code)
          ? error.code
          : ERR.exportFailed;
      if (errorCode === ERR.exportFailed) this.log.error({ err: error, jobId: job.jobId }, 'export failed');
      await this.fail([job], errorCode);
    }
  }

  private async fail(
    jobs: Pick<ExportJobRow, 'jobId' | 'requestedByUserNo' | 'format' | 'projectNo' | 'noteNo' | 'version'>[],
    errorCode: ErrorCode,
  ): Promise<void> {
    for (const job of jobs) {
      await this.db.transaction(async (tx) => {
        const [failed] = await tx
          .update(exportJobs)
          .set({ status: EXPORT_STATUS.failed, errorCode, finishedAt: sql`now()` })
          .where(and(eq(exportJobs.jobId, job.jobId), inArray(exportJobs.status, [EXPORT_STATUS.queued, EXPORT_STATUS.running])))
          .returning({ jobId: exportJobs.jobId });
        if (!failed) return;
        await appendAudit(tx, {
          actor: { userNo: job.requestedByUserNo, userId: null },
          action: 'export.failed',
          target: { type: 'export', id: job.jobId },
          after: { format: job.format, projectNo: job.projectNo, errorCode },
        });
        await notifyRequester(tx, job, 'exportFailed', await plannedFileName(tx, job));
      });
    }
  }

  /** Jobs whose server stopped while running them fail with "interrupted", so nobody waits for them forever. */
  private async failStale(): Promise<void> {
    const stale = await this.db
      .select()
      .from(exportJobs)
      .where(and(eq(exportJobs.status, EXPORT_STATUS.running), lt(exportJobs.heartbeatAt, new Date(Date.now() - STALE_AFTER_MS))));
    if (!stale.length) return;
    await this.fail(stale, ERR.exportInterrupted);
    // What their processes had written (whole or partial files) goes too: nothing will ever fetch it.
    const names = await readdir(exportsDir(this.filesDir)).catch(() => [] as string[]);
    for (const job of stale) {
      for (const name of names.filter((file) => file.startsWith(`${job.jobId}.`)))
        await rm(path.join(exportsDir(this.filesDir), name), { force: true });
    }
  }

  /** Files past their keeping time are removed; the job row (and its audit records) stay. */
  private async removeExpired(): Promise<void> {
    const cutoff = new Date(Date.now() - EXPORT_LIMITS.keepDays * 86_400_000);
    const expired = await this.db
      .select({ jobId: exportJobs.jobId, storagePath: exportJobs.storagePath })
      .from(exportJobs)
      .where(and(eq(exportJobs.status, EXPORT_STATUS.done), isNull(exportJobs.removedAt), lt(exportJobs.finishedAt, cutoff)));
    for (const job of expired) {
      if (job.storagePath) await rm(path.join(this.filesDir, job.storagePath), { force: true });
      await this.db
        .update(exportJobs)
        .set({ removedAt: sql`now()` })
        .where(eq(exportJobs.jobId, job.jobId));
    }
  }
}

/** Stores a running job's progress (and so its heartbeat) now and then, never two writes at once. */
class ProgressReporter {
  private percent = 0;
  private stored = -1;
  private writing: Promise<void> = Promise.resolve();
  private lastWrite = 0;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly jobId: string,
  ) {
    this.heartbeat = setInterval(() => this.write(true), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  report(fraction: number): void {
    // 99 at most until the file is checked and recorded: 100 means it can be downloaded.
    this.percent = Math.max(this.percent, Math.min(99, Math.floor(fraction * 100)));
    if (this.percent !== this.stored && Date.now() - this.lastWrite >= PROGRESS_STORE_MS) this.write(false);
  }

  private write(beat: boolean): void {
    if (!beat && this.percent === this.stored) return;
    const percent = this.percent;
    this.lastWrite = Date.now();
    this.writing = this.writing
      .then(async () => {
        await this.db
          .update(exportJobs)
          .set({ progress: percent, heartbeatAt: sql`now()` })
          .where(and(eq(exportJobs.jobId, this.jobId), eq(exportJobs.status, EXPORT_STATUS.running)));
        this.stored = percent;
      })
      .catch(() => undefined);
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.writing;
  }
}

export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export const newJobId = (): string => randomUUID();

/** Tells a job's requester it finished or failed, naming its file (the system did it, whoever asked). */
async function notifyRequester(
  tx: Tx,
  job: Pick<ExportJobRow, 'jobId' | 'requestedByUserNo' | 'projectNo'>,
  event: 'exportFinished' | 'exportFailed',
  file: string,
): Promise<void> {
  await notify(tx, {
    event,
    recipients: [job.requestedByUserNo],
    actorUserNo: null,
    projectNo: job.projectNo,
    jobId: job.jobId,
    payload: { file },
  });
}

/** What a job that made no file was to be called, for its requester's notification: the project's title, the note's number. */
async function plannedFileName(q: Queryable, job: Pick<ExportJobRow, 'format' | 'projectNo' | 'noteNo' | 'version'>): Promise<string> {
  const extension = job.format === 'auditCsv' ? 'csv' : job.format;
  if (job.projectNo === null) return `audit-trail.${extension}`;
  const [row] = await q
    .select({ title: projects.title, labNoteNumber: labNotes.labNoteNumber })
    .from(projects)
    .leftJoin(labNotes, eq(labNotes.noteNo, job.noteNo ?? -1))
    .where(eq(projects.projectNo, job.projectNo));
  const name = row?.labNoteNumber ? `${row.labNoteNumber}-v${job.version}` : (row?.title ?? 'export');
  return cleanFileName(`${name}.${extension}`);
}
