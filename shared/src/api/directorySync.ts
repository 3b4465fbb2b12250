import type { ErrorCode } from '../errors.js';

/**
 * Directory synchronisation (`/v1/department/sync`, `/v1/department/sync/status`): the company's
 * departments and people read from an LDAP directory and applied in one transaction.
 */

/** Who started a run: an administrator's "Sync now", or the server's own interval. */
export type DirectorySyncTrigger = 'manual' | 'interval';

/** Where a running sync is: the progress the department screen shows while it waits. */
export type DirectorySyncPhase = 'connecting' | 'departments' | 'users' | 'applying';

/** `running` until it ends; a run whose process died is `interrupted` (it changed nothing). */
export type DirectorySyncOutcome = 'running' | 'succeeded' | 'failed' | 'interrupted';

export interface DirectorySyncCounts {
  departments: { read: number; created: number; updated: number; missing: number; restored: number; skipped: number };
  users: { read: number; created: number; updated: number; moved: number; deactivated: number; reactivated: number; skipped: number };
}

/** Why an entry of the directory was left out or kept as it was; the screen names each. */
export const DIRECTORY_NOTE_REASONS = [
  'departmentCodeInvalid',
  'departmentCodeDuplicate',
  'userIdInvalid',
  'userIdDuplicate',
  'departmentUnknown',
  'phoneFormat',
  'administratorKept',
] as const;
export type DirectoryNoteReason = (typeof DIRECTORY_NOTE_REASONS)[number];

/** One entry worth an administrator's attention: its DN (or user ID) and why. */
export interface DirectoryNote {
  entry: string;
  reason: DirectoryNoteReason;
}

/** The most notes a run keeps (the counts still count them all). */
export const DIRECTORY_NOTES_KEPT = 20;

export interface DirectorySyncRun {
  runNo: number;
  trigger: DirectorySyncTrigger;
  /** The administrator who started it (null for the interval). */
  actor: { userId: string; name: string | null } | null;
  startedAt: string;
  finishedAt: string | null;
  outcome: DirectorySyncOutcome;
  phase: DirectorySyncPhase | null;
  /** Directory entries read so far (departments and users). */
  entriesRead: number;
  counts: DirectorySyncCounts | null;
  errorCode: ErrorCode | null;
  /** The directory's or the network's own words, for the administrator (never SQL or a stack). */
  errorDetail: string | null;
  /** The first DIRECTORY_NOTES_KEPT notes, and how many there were. */
  notes: DirectoryNote[];
  notesTotal: number;
}

export interface DirectorySyncStatus {
  /** False when the server has no LDAP_URL: the screen says so instead of offering "Sync now". */
  configured: boolean;
  /** Where the directory is, for the administrator (URL and base DNs; never the password). */
  directory: { url: string; departmentBaseDn: string; userBaseDn: string; intervalMinutes: number | null } | null;
  /** A run in progress (any process's), or null. */
  running: DirectorySyncRun | null;
  /** The latest run that ended, or null when there has been none. */
  last: DirectorySyncRun | null;
}

/** `/v1/department/sync` answers the run it made. */
export interface DirectorySyncAnswer {
  run: DirectorySyncRun;
}
