import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors.js';

/**
 * Directory synchronisation (`api.departments.sync`, `api.departments.syncStatus`): the company's
 * departments and people read from an LDAP directory and applied in one transaction.
 */

/** Who started a run: an administrator's "Sync now", or the server's own interval. */
export const DIRECTORY_SYNC_TRIGGERS = ['manual', 'interval'] as const;
export type DirectorySyncTrigger = (typeof DIRECTORY_SYNC_TRIGGERS)[number];

/** Where a running sync is: the progress the department screen shows while it waits. */
export const DIRECTORY_SYNC_PHASES = ['connecting', 'departments', 'users', 'applying'] as const;
export type DirectorySyncPhase = (typeof DIRECTORY_SYNC_PHASES)[number];

/** `running` until it ends; a run whose process died is `interrupted` (it changed nothing). */
export const DIRECTORY_SYNC_OUTCOMES = ['running', 'succeeded', 'failed', 'interrupted'] as const;
export type DirectorySyncOutcome = (typeof DIRECTORY_SYNC_OUTCOMES)[number];

const count = z.number();
export const directorySyncCounts = z.strictObject({
  departments: z.strictObject({ read: count, created: count, updated: count, missing: count, restored: count, skipped: count }),
  users: z.strictObject({
    read: count,
    created: count,
    updated: count,
    moved: count,
    deactivated: count,
    reactivated: count,
    skipped: count,
  }),
});
export type DirectorySyncCounts = z.infer<typeof directorySyncCounts>;

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
export const directoryNote = z.strictObject({ entry: z.string(), reason: z.enum(DIRECTORY_NOTE_REASONS) });
export type DirectoryNote = z.infer<typeof directoryNote>;

/** The most notes a run keeps (the counts still count them all). */
export const DIRECTORY_NOTES_KEPT = 20;

export const directorySyncRun = z.strictObject({
  runNo: z.number(),
  trigger: z.enum(DIRECTORY_SYNC_TRIGGERS),
  /** The administrator who started it (null for the interval). */
  actor: z.strictObject({ userId: z.string(), name: z.string().nullable() }).nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  outcome: z.enum(DIRECTORY_SYNC_OUTCOMES),
  phase: z.enum(DIRECTORY_SYNC_PHASES).nullable(),
  /** Directory entries read so far (departments and users). */
  entriesRead: z.number(),
  counts: directorySyncCounts.nullable(),
  errorCode: z.enum(Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]]).nullable(),
  /** The directory's or the network's own words, for the administrator (never SQL or a stack). */
  errorDetail: z.string().nullable(),
  /** The first DIRECTORY_NOTES_KEPT notes, and how many there were. */
  notes: z.array(directoryNote),
  notesTotal: z.number(),
});
export type DirectorySyncRun = z.infer<typeof directorySyncRun>;

export const directorySyncStatus = z.strictObject({
  /** False when the server has no LDAP_URL: the screen says so instead of offering "Sync now". */
  configured: z.boolean(),
  /** Where the directory is, for the administrator (URL and base DNs; never the password). */
  directory: z
    .strictObject({ url: z.string(), departmentBaseDn: z.string(), userBaseDn: z.string(), intervalMinutes: z.number().nullable() })
    .nullable(),
  /** A run in progress (any process's), or null. */
  running: directorySyncRun.nullable(),
  /** The latest run that ended, or null when there has been none. */
  last: directorySyncRun.nullable(),
});
export type DirectorySyncStatus = z.infer<typeof directorySyncStatus>;

/** `api.departments.sync` answers the run it made. */
export const directorySyncAnswer = z.strictObject({ run: directorySyncRun });
export type DirectorySyncAnswer = z.infer<typeof directorySyncAnswer>;
