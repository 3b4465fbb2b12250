import { z } from 'zod';

/** The actions the audit trail records. New features add theirs here, so the admin screen can name them. */
export const AUDIT_ACTIONS = [
  'user.signIn',
  'user.signInFailed',
  'user.signInRefused',
  'user.signOut',
  'user.refreshReuse',
  'user.passwordResetRequested',
  'user.passwordReset',
  'user.created',
  'user.updated',
  'department.created',
  'department.updated',
  'project.created',
  'project.updated',
  'project.finished',
  'note.created',
  'note.deleted',
  'note.saved',
  'note.holdsCleared',
  'file.uploaded',
  'signature.requested',
  'signature.updated',
  'signature.signed',
  'signature.declined',
  'signature.failed',
  'signature.removed',
  'audit.exported',
  'system.started',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Reasons the system itself records. They are stored as this text (the record is immutable and the CSV
 * export shows it as stored); screens show them in the reader's language.
 */
export const AUDIT_SYSTEM_REASONS = {
  wrongPassword: 'wrong password',
  locked: 'locked',
  deactivated: 'deactivated',
  refreshReuse: 'a spent refresh token was presented again; the session was revoked',
  firstStart: 'first start: administrator created',
  demoData: 'demo data',
} as const;
export type AuditSystemReason = keyof typeof AUDIT_SYSTEM_REASONS;

const SYSTEM_REASON_KEYS = new Map(Object.entries(AUDIT_SYSTEM_REASONS).map(([key, text]) => [text as string, key as AuditSystemReason]));

/** The system reason a stored reason is, or null for a person's own words. */
export function systemReasonOf(reason: string): AuditSystemReason | null {
  return SYSTEM_REASON_KEYS.get(reason) ?? null;
}

export interface AuditVerifyAnswer {
  ok: boolean;
  checked: number;
  /** Sequence of the first record whose hash or link does not match, or null. */
  firstBroken: number | null;
}

export const auditVerifyRequest = z.strictObject({});

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'invalidFormat' });

/** Audit list filters: paging, a date range, and actor, action and target filters. */
export const auditListRequest = z
  .strictObject({
    actor: z.string().trim().max(254).optional(),
    action: z.string().trim().max(60).optional(),
    targetType: z.string().trim().max(30).optional(),
    targetId: z.string().trim().max(100).optional(),
    startDate: isoDate.optional().or(z.literal('')),
    endDate: isoDate.optional().or(z.literal('')),
    page: z.number().int().min(1).default(1),
    pageSize: z.number().int().min(1).max(100).default(20),
  })
  .refine((p) => !p.startDate || !p.endDate || p.startDate <= p.endDate, { error: 'dateOrder', path: ['endDate'] });

export const auditExportRequest = z.strictObject({
  actor: z.string().trim().max(254).optional(),
  action: z.string().trim().max(60).optional(),
  targetType: z.string().trim().max(30).optional(),
  targetId: z.string().trim().max(100).optional(),
  startDate: isoDate.optional().or(z.literal('')),
  endDate: isoDate.optional().or(z.literal('')),
});

export const auditDetailRequest = z.strictObject({ seq: z.number().int().positive() });

export interface AuditRecord {
  seq: number;
  at: string;
  actorUserId: string | null;
  actorName: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  clientAddress: string | null;
  prevHash: string;
  hash: string;
}

/** Columns of the audit CSV export, in order. */
export const AUDIT_CSV_COLUMNS = ['seq', 'at', 'actorUserId', 'actorName', 'action', 'targetType', 'targetId', 'before', 'after', 'reason', 'clientAddress', 'prevHash', 'hash'] as const;
