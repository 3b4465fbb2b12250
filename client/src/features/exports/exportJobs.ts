import { useCallback } from 'react';
import { api, errorMessage, EXPORT_STATUS, type ExportCreateRequest, type ExportJob } from '@eln/shared';
import { call, isApiError } from '../../api';
import { useApiQuery } from '../../api/queries';
import { alert, alertApiError, hideProgress, showProgress } from '../../modals/store';
import { currentLanguage } from '../../i18n';
import { markSessionEnded } from '../../session/store';
import { saveFile } from '../../lib/saveFile';
import { browserDeps } from '../audit/useAuditExport';
import { downloadFile } from '../audit/csvExport';
import { viewerTimeZone } from '../../lib/timeZone';

/** How often the list is asked again while a job is waiting or running. */
const POLL_MS = 1_500;
/** A job done within this time is downloaded at once, under the loading overlay; a longer one stays in the list, or is followed by the screen that asked (see startExport). */
const SHORT_JOB_MS = 8_000;

export const isActive = (job: ExportJob) => job.status === EXPORT_STATUS.queued || job.status === EXPORT_STATUS.running;

/**
 * Fetches a finished export's file (a fresh token, then the file) and saves it. Its progress goes to the
 * loading overlay unless `onProgress` takes it (a screen that followed a long export shows it itself: an
 * overlay appearing minutes later would take the keyboard from whoever is typing there).
 */
export async function downloadExport(job: ExportJob, onProgress?: (percent: number) => void): Promise<void> {
  const { token } = await call(api.exports.link, { jobId: job.jobId });
  const progress = onProgress ?? showProgress;
  progress(0);
  try {
    const file = await downloadFile(
      api.exports.download,
      { token },
      (percent) => progress(percent ?? 0),
      browserDeps,
      () => job.fileName ?? 'export',
    );
    saveFile(file.blob, file.filename);
  } finally {
    if (!onProgress) hideProgress();
  }
}

function reportError(error: unknown): void {
  if (isApiError(error) && error.httpStatus === 401) markSessionEnded();
  else void alertApiError(error);
}

/**
 * The export jobs the caller sees (one project's, or all of theirs; an administrator's: everyone's), asked
 * again while any of them runs, so progress moves and a reload finds them where they were.
 */
export function useExportJobs(projectNo?: number) {
  const loaded = useApiQuery(api.exports.list, projectNo === undefined ? {} : { projectNo }, {
    refetchInterval: (query) => (query.state.data?.list.some(isActive) ? POLL_MS : false),
    refetchIntervalInBackground: true,
  });
  const jobs = loaded.data?.list ?? null;
  const failed = loaded.phase === 'error' ? loaded.error : null;
  const { reload: refresh } = loaded;

  /** Starts exports (see startExport); the list shows them at once and follows their progress. */
  const start = useCallback(
    async (request: ExportCreateRequest): Promise<ExportJob[] | null> => {
      const created = await startExport(request, { onCreated: refresh });
      refresh();
      return created;
    },
    [refresh],
  );

  const download = useCallback(async (job: ExportJob) => {
    try {
      await downloadExport(job);
    } catch (error) {
      reportError(error);
    }
  }, []);

  return { jobs, failed, refresh, start, download };
}

/** A screen that follows its own long export: told each percent while the job runs; `signal` aborts when it closes. */
export interface LongExportFollower {
  onProgress(percent: number): void;
  signal: AbortSignal;
}

/**
 * Starts exports. One that finishes within a few seconds is downloaded at once under the loading overlay
 * (a single job). A longer one goes on in the background: listed with its progress where a list shows it
 * (`onCreated` runs once the jobs exist), or, given `followLong`, followed by the screen that asked and
 * downloaded once done (until that screen closes; the job then stays in the project's export list).
 */
export async function startExport(
  request: ExportCreateRequest,
  options: { onCreated?: () => void; followLong?: LongExportFollower } = {},
): Promise<ExportJob[] | null> {
  let created: ExportJob[];
  try {
    created = (await call(api.exports.create, { ...request, timeZone: viewerTimeZone() })).list;
  } catch (error) {
    reportError(error);
    return null;
  }
  options.onCreated?.();
  const [only] = created;
  if (created.length !== 1 || !only) return created;
  const seen = await waitShortly(only);
  const followed = seen && isActive(seen) ? options.followLong : undefined;
  const finished = followed ? await followToEnd(seen!, followed) : seen && !isActive(seen) ? seen : null;
  if (finished?.downloadable) {
    try {
      await downloadExport(finished, followed?.onProgress);
    } catch (error) {
      reportError(error);
    }
  } else if (finished?.status === EXPORT_STATUS.failed && finished.errorCode) {
    void alert(errorMessage(finished.errorCode, currentLanguage()), { tone: 'error' });
  }
  return created;
}

/** Failed calls in a row a follow puts up with (a network blip, a restarting server) before it gives up. */
const FOLLOW_RETRIES = 3;
const isTransient = (error: unknown) => isApiError(error) && (error.httpStatus === 0 || error.httpStatus >= 500);

/** What one look at a followed job found: the job, a failure borne (look again), or the end of the follow. */
type Look = { job: ExportJob } | 'again' | 'stop';

/**
 * Asks for one job, bearing a few failed calls in a row; past them (or on a refusal) it says why and stops
 * the follow: silence would leave the user with neither the file nor a word (the note screen lists no jobs).
 */
function jobLooker(jobId: string, signal?: AbortSignal): () => Promise<Look> {
  let failures = 0;
  return async () => {
    try {
      const job = await call(api.exports.detail, { jobId }, { signal });
      failures = 0;
      return { job };
    } catch (error) {
      if (signal?.aborted) return 'stop';
      if (isTransient(error) && ++failures < FOLLOW_RETRIES) return 'again';
      reportError(error);
      return 'stop';
    }
  };
}

const pause = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

/**
 * Follows a job past the overlay's few seconds, without blocking the screen; answers it once finished,
 * else null (the screen closed, the session ended, or the server could not be asked several times in a row).
 */
async function followToEnd(job: ExportJob, { onProgress, signal }: LongExportFollower): Promise<ExportJob | null> {
  onProgress(job.progress);
  const look = jobLooker(job.jobId, signal);
  while (!signal.aborted) {
    await pause(POLL_MS);
    if (signal.aborted) return null;
    const seen = await look();
    if (seen === 'stop') return null;
    if (seen === 'again') continue;
    if (!isActive(seen.job)) return seen.job;
    onProgress(seen.job.progress);
  }
  return null;
}

/** Follows one job under the loading overlay for a few seconds; answers it as last seen (finished, or still running), or null once the follow stopped (said). */
async function waitShortly(job: ExportJob): Promise<ExportJob | null> {
  const until = Date.now() + SHORT_JOB_MS;
  showProgress(job.progress);
  const look = jobLooker(job.jobId);
  let current = job;
  try {
    while (isActive(current) && Date.now() < until) {
      await pause(400);
      const seen = await look();
      if (seen === 'stop') return null;
      if (seen === 'again') continue;
      current = seen.job;
      showProgress(current.progress);
    }
    return current;
  } finally {
    hideProgress();
  }
}
