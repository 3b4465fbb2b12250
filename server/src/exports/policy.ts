import { eq, type SQL } from 'drizzle-orm';
import { ERR } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { exportJobs } from '../db/schema.js';
import type { Refusals } from '../http/verdicts.js';
import { isAdministrator } from '../users/policy.js';
import type { ExportJobRow } from './jobs.js';

/*
 * Who may see and fetch an export. Whether a project may be exported is the project's rule
 * (`canExportProject` in projects/policy.ts); the audit trail is the administrators' (audit/policy.ts).
 */

type Caller = Pick<AuthUser, 'userNo' | 'level'>;
type JobFacts = Pick<ExportJobRow, 'requestedByUserNo' | 'status' | 'removedAt'>;

export type SeeJobVerdict = 'allowed' | 'hidden';
export type DownloadVerdict = 'allowed' | 'hidden' | 'notRequester' | 'notReady' | 'failed' | 'gone';

export const SEE_JOB_REFUSALS: Refusals<SeeJobVerdict> = { hidden: ERR.notFound };
export const DOWNLOAD_REFUSALS: Refusals<DownloadVerdict> = {
  hidden: ERR.notFound,
  notRequester: ERR.forbidden,
  notReady: ERR.exportNotReady,
  failed: ERR.exportFailed,
  gone: ERR.exportGone,
};

/** The requester sees their jobs; administrators see everyone's (who exported what, and when). */
export function canSeeJob(user: Caller, job: JobFacts): SeeJobVerdict {
  return job.requestedByUserNo === user.userNo || isAdministrator(user) ? 'allowed' : 'hidden';
}

/** `canSeeJob` as the condition that the job list filters by (undefined: every job). */
export function visibleJobsSql(user: Caller): SQL | undefined {
  return isAdministrator(user) ? undefined : eq(exportJobs.requestedByUserNo, user.userNo);
}

/** Only the requester fetches the file (an administrator sees the job, not its content), once it is made and kept. */
export function canDownload(user: Caller, job: JobFacts): DownloadVerdict {
  if (canSeeJob(user, job) !== 'allowed') return 'hidden';
  if (job.requestedByUserNo !== user.userNo) return 'notRequester';
  if (job.status === 'failed') return 'failed';
  if (job.status !== 'done') return 'notReady';
  if (job.removedAt) return 'gone';
  return 'allowed';
}

export type SigningKeysVerdict = 'allowed' | 'notAdministrator';
export const SIGNING_KEYS_REFUSALS: Refusals<SigningKeysVerdict> = { notAdministrator: ERR.forbidden };

/**
 * Administrators add and remove the minisign keys imported archives are verified with, and check an
 * import's signature again; the verdict reaches the client as the key list's and import list's abilities.
 */
export function canManageSigningKeys(user: Pick<AuthUser, 'level'>): SigningKeysVerdict {
  return isAdministrator(user) ? 'allowed' : 'notAdministrator';
}
