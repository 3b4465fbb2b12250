import { and, desc, eq, lt, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  ERR,
  isErrorCode,
  type DirectoryNote,
  type DirectorySyncCounts,
  type DirectorySyncPhase,
  type DirectorySyncRun,
  type DirectorySyncStatus,
  type DirectorySyncTrigger,
} from '@eln/shared';
import { appendAudit, type AuditActor } from '../audit/audit.js';
import type { LiveDocuments } from '../collab/commands/liveDocuments.js';
import type { Db } from '../db/client.js';
import { directorySyncRuns, users } from '../db/schema.js';
import type { ServerConfig } from '../config.js';
import { AppError } from '../http/errors.js';
import { applySnapshot, emptyCounts } from './directoryApply.js';
import type { DirectoryConfig } from './directoryConfig.js';
import { DirectorySyncError, readDirectory, type ProgressListener } from './directoryReader.js';
import { snapshotOf } from './directorySnapshot.js';

/** Transaction-scoped advisory lock: one claim or apply at a time, across every process on the database. */
const SYNC_LOCK_KEY = 7_411_020;
/** A running sync shows it is alive this often; one silent for STALE_AFTER_MS has lost its process. */
const HEARTBEAT_MS = 5_000;
const STALE_AFTER_MS = 60_000;
/** The interval looks at most this often whether a run is due (so a restart or another process is noticed). */
const MAX_TICK_MS = 60_000;

type RunRecord = typeof directorySyncRuns.$inferSelect;

interface Starter {
  trigger: DirectorySyncTrigger;
  actor: AuditActor | null;
  clientAddress: string | null;
}

/**
 * Directory synchronisation: runs started by an administrator or by the interval, one at a time even
 * when several server processes share the database. A run reads the whole directory first and then
 * applies it in one transaction, so a failure at any point leaves the notebook as it was; the run's
 * record says how it ended either way.
 */
export class DirectorySync {
  private readonly listeners = new Set<ProgressListener>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: { db: Db; config: ServerConfig; live: LiveDocuments; log: FastifyBaseLogger }) {}

  /** Hears every run's progress in this process (phase, entries read so far). */
  observe(listener: ProgressListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** With LDAP_SYNC_INTERVAL_MINUTES, runs the sync when it is due, checking at least every minute. */
  start(): void {
    const intervalMs = this.deps.config.directory?.intervalMs;
    if (!intervalMs || this.timer) return;
    const tick = Math.min(intervalMs, MAX_TICK_MS);
    this.timer = setInterval(() => void this.track(this.runWhenDue(intervalMs - tick / 2)), tick);
    this.timer.unref();
  }

  /** Stops the interval and waits for a run of this process to end (its timeouts bound the wait). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.inFlight]);
  }

  /** An administrator's "Sync now": the run it made, or the refusal of its failure (recorded all the same). */
  async runNow(actor: AuditActor, clientAddress: string): Promise<DirectorySyncRun> {
    const directory = this.deps.config.directory;
    if (!directory) throw new AppError(ERR.directoryNotConfigured);
    const runNo = await this.claim('manual', actor.userNo, null);
    if (runNo === null) throw new AppError(ERR.directorySyncRunning);
    const failure = await this.track(this.execute(runNo, directory, { trigger: 'manual', actor, clientAddress }));
    if (failure) throw new AppError(failure.code, { data: { run: await this.runView(runNo) } });
    const run = await this.runView(runNo);
    if (!run) throw new Error(`directory sync run ${runNo} vanished`);
    return run;
  }

  /** The interval's run, when no run is going on and none started within `minGapMs` (by any process). */
  async runWhenDue(minGapMs: number): Promise<void> {
    const directory = this.deps.config.directory;
    if (!directory) return;
    try {
      const runNo = await this.claim('interval', null, minGapMs);
      if (runNo === null) return;
      const failure = await this.execute(runNo, directory, { trigger: 'interval', actor: null, clientAddress: null });
      if (failure) this.deps.log.warn({ runNo, code: failure.code, detail: failure.detail }, 'directory sync by the interval failed');
    } catch (error) {
      this.deps.log.error({ err: error }, 'directory sync by the interval could not run');
    }
  }

  async status(): Promise<DirectorySyncStatus> {
    const directory = this.deps.config.directory;
    await this.endAbandonedRuns(this.deps.db);
    const [running] = await this.runRows(eq(directorySyncRuns.status, 'running'), 1);
    const [last] = await this.runRows(ne(directorySyncRuns.status, 'running'), 1);
    return {
      configured: directory !== null,
      directory: directory
        ? {
            url: directory.url,
            departmentBaseDn: directory.departments.baseDn,
            userBaseDn: directory.users.baseDn,
            intervalMinutes: directory.intervalMs ? directory.intervalMs / 60_000 : null,
          }
        : null,
      running: running ?? null,
      last: last ?? null,
    };
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  /**
   * Starts a run unless one is going on (or, for the interval, one started too recently): answers its
   * number, or null. Serialised by the advisory lock, so two processes never both start one.
   */
  private async claim(trigger: DirectorySyncTrigger, actorUserNo: number | null, minGapMs: number | null): Promise<number | null> {
    return this.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SYNC_LOCK_KEY})`);
      await this.endAbandonedRuns(tx);
      const [running] = await tx
        .select({ runNo: directorySyncRuns.runNo })
        .from(directorySyncRuns)
        .where(eq(directorySyncRuns.status, 'running'))
        .limit(1);
      if (running) return null;
      if (minGapMs !== null) {
        const [latest] = await tx
          .select({ startedAt: directorySyncRuns.startedAt })
          .from(directorySyncRuns)
          .orderBy(desc(directorySyncRuns.startedAt))
          .limit(1);
        if (latest && Date.now() - latest.startedAt.getTime() < minGapMs) return null;
      }
      const [run] = await tx
        .insert(directorySyncRuns)
        .values({ trigger, actorUserNo, startedAt: new Date(), heartbeatAt: new Date(), phase: 'connecting' })
        .returning({ runNo: directorySyncRuns.runNo });
      return run!.runNo;
    });
  }

  /** Runs whose process stopped beating end as interrupted: they changed nothing. */
  private async endAbandonedRuns(q: Pick<Db, 'update'>): Promise<void> {
    await q
      .update(directorySyncRuns)
      .set({ status: 'interrupted', finishedAt: new Date() })
      .where(and(eq(directorySyncRuns.status, 'running'), lt(directorySyncRuns.heartbeatAt, new Date(Date.now() - STALE_AFTER_MS))));
  }

  /** Reads, checks and applies; answers the failure (recorded and audited) or null on success. */
  private async execute(runNo: number, directory: DirectoryConfig, starter: Starter): Promise<DirectorySyncError | null> {
    const { db, live, config } = this.deps;
    const heartbeat = setInterval(() => void this.beat(runNo, {}), HEARTBEAT_MS);
    const counts = emptyCounts();
    try {
      const read = await readDirectory(directory, (phase, entriesRead) => this.progress(runNo, phase, entriesRead));
      const snapshot = snapshotOf(read, directory);
      counts.departments = { ...counts.departments, read: snapshot.read.departments, skipped: snapshot.skipped.departments };
      counts.users = { ...counts.users, read: snapshot.read.users, skipped: snapshot.skipped.users };
      // Nothing usable must never read as "everyone left": no departments or no people refuse the run.
      if (snapshot.departments.length === 0)
        throw new DirectorySyncError(
          ERR.noDepartment,
          `${directory.departments.baseDn} ${directory.departments.filter}: ${snapshot.read.departments} entries, none usable`,
        );
      if (snapshot.users.length === 0)
        throw new DirectorySyncError(
          ERR.noUsers,
          `${directory.users.baseDn} ${directory.users.filter}: ${read.users.length} entries, none usable`,
        );
      await this.progress(runNo, 'applying', read.departments.length + read.users.length);
      await live.transaction(db, async (tx, commands) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${SYNC_LOCK_KEY})`);
        const now = new Date();
        await applySnapshot(tx, commands, snapshot, counts, {
          companyCode: config.company.code,
          actor: starter.actor,
          clientAddress: starter.clientAddress,
          now,
        });
        await tx
          .update(directorySyncRuns)
          .set({
            status: 'succeeded',
            finishedAt: new Date(),
            phase: null,
            counts,
            notes: { total: snapshot.notes.total, kept: snapshot.notes.kept },
          })
          .where(eq(directorySyncRuns.runNo, runNo));
        // The interval's runs that change nothing leave no record in the trail (the runs table keeps them).
        if (starter.trigger === 'manual' || changedAnything(counts)) {
          await appendAudit(tx, {
            actor: starter.actor,
            action: 'department.synced',
            target: { type: 'department', id: 'directory' },
            after: { runNo, trigger: starter.trigger, counts, notes: snapshot.notes.total },
            clientAddress: starter.clientAddress,
          });
        }
      });
      return null;
    } catch (error) {
      const failure = error instanceof DirectorySyncError ? error : new DirectorySyncError(ERR.departmentSync, null);
      if (!(error instanceof DirectorySyncError)) this.deps.log.error({ err: error, runNo }, 'directory sync failed');
      await this.recordFailure(runNo, failure, counts, starter).catch((recordError: unknown) =>
        this.deps.log.error({ err: recordError, runNo }, 'directory sync failure not recorded'),
      );
      return failure;
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async recordFailure(runNo: number, failure: DirectorySyncError, counts: DirectorySyncCounts, starter: Starter): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(directorySyncRuns)
        .set({ status: 'failed', finishedAt: new Date(), errorCode: failure.code, errorDetail: failure.detail, counts })
        .where(eq(directorySyncRuns.runNo, runNo));
      if (starter.trigger === 'manual') {
        await appendAudit(tx, {
          actor: starter.actor,
          action: 'department.syncFailed',
          target: { type: 'department', id: 'directory' },
          after: { runNo, errorCode: failure.code, detail: failure.detail },
          clientAddress: starter.clientAddress,
        });
      }
    });
  }

  private async progress(runNo: number, phase: DirectorySyncPhase, entriesRead: number): Promise<void> {
    await this.beat(runNo, { phase, entriesRead });
    for (const listener of this.listeners) await listener(phase, entriesRead);
  }

  private async beat(runNo: number, progress: { phase?: DirectorySyncPhase; entriesRead?: number }): Promise<void> {
    await this.deps.db
      .update(directorySyncRuns)
      .set({ ...progress, heartbeatAt: new Date() })
      .where(and(eq(directorySyncRuns.runNo, runNo), eq(directorySyncRuns.status, 'running')))
      .catch((error: unknown) => this.deps.log.warn({ err: error, runNo }, 'directory sync progress not recorded'));
  }

  private async runView(runNo: number): Promise<DirectorySyncRun | null> {
    const [run] = await this.runRows(eq(directorySyncRuns.runNo, runNo), 1);
    return run ?? null;
  }

  private async runRows(where: ReturnType<typeof eq>, limit: number): Promise<DirectorySyncRun[]> {
    const rows = await this.deps.db
      .select({ run: directorySyncRuns, actorUserId: users.userId, actorName: users.name })
      .from(directorySyncRuns)
      .leftJoin(users, eq(users.userNo, directorySyncRuns.actorUserNo))
      .where(where)
      .orderBy(desc(directorySyncRuns.runNo))
      .limit(limit);
    return rows.map(({ run, actorUserId, actorName }) => toRunView(run, actorUserId ? { userId: actorUserId, name: actorName } : null));
  }
}

function changedAnything(counts: DirectorySyncCounts): boolean {
  const { departments: d, users: u } = counts;
  return d.created + d.updated + d.missing + d.restored + u.created + u.updated + u.moved + u.deactivated + u.reactivated > 0;
}

/** What the notes column holds: the first notes and how many there were. */
interface StoredNotes {
  total: number;
  kept: DirectoryNote[];
}

function toRunView(run: RunRecord, actor: DirectorySyncRun['actor']): DirectorySyncRun {
  const notes = run.notes as StoredNotes | null;
  return {
    runNo: run.runNo,
    trigger: run.trigger,
    actor,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    outcome: run.status,
    phase: run.phase,
    entriesRead: run.entriesRead,
    counts: (run.counts as DirectorySyncCounts | null) ?? null,
    errorCode: isErrorCode(run.errorCode) ? run.errorCode : null,
    errorDetail: run.errorDetail,
    notes: notes?.kept ?? [],
    notesTotal: notes?.total ?? 0,
  };
}
