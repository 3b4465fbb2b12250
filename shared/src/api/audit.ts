import { z } from 'zod';
import { ERR } from '../errors.js';
import { defineCall, fileAnswer } from './call.js';
import { deletedNoteAnswer } from './noteHistory.js';
import { listAnswer } from './paging.js';
import { timestampInfo } from './timestamps.js';
import { LIMITS, PAGING } from '../limits.js';
import { dateFilter, text } from '../validation.js';

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
  'account.settingsUpdated',
  'token.created',
  'token.revoked',
  'token.settingsUpdated',
  'department.created',
  'department.updated',
  'department.synced',
  'department.syncFailed',
  'project.created',
  'project.updated',
  'project.finished',
  'note.created',
  'note.deleted',
  'note.saved',
  'note.restored',
  'note.holdsCleared',
  'note.blockAppended',
  'file.uploaded',
  'file.typesUpdated',
  'signature.requested',
  'signature.updated',
  'signature.signed',
  'signature.declined',
  'signature.failed',
  'signature.removed',
  'signature.cancelled',
  'signature.reminded',
  'comment.created',
  'comment.updated',
  'comment.deleted',
  'comment.resolved',
  'comment.reopened',
  'audit.exported',
  'licence.registered',
  'dropbox.created',
  'dropbox.updated',
  'dropbox.imported',
  'schema.created',
  'schema.updated',
  'schema.thumbnail',
  'template.created',
  'template.renamed',
  'template.reopened',
  'template.checked',
  'template.approved',
  'template.approvalFailed',
  'template.returned',
  'template.deleted',
  'export.requested',
  'export.completed',
  'export.failed',
  'export.downloaded',
  'export.imported',
  'export.keyAdded',
  'export.keyRemoved',
  'export.importChecked',
  'mail.retried',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.redelivered',
  'webhook.secretRotated',
  'webhook.disabled',
  'system.started',
  'timestamp.authorityCreated',
  'timestamp.authorityUpdated',
  'timestamp.authorityMoved',
  'timestamp.authorityDeleted',
  'timestamp.failed',
  'timestamp.requeued',
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
  ssoCreated: 'created at the first single sign-on',
  ssoUnknownUser: 'single sign-on: no account for this identity',
  ssoStateMismatch: 'single sign-on: the answer does not belong to a sign-in started in this browser (state)',
  ssoNonceMismatch: 'single sign-on: the ID token was issued for another sign-in (nonce)',
  ssoAnswerInvalid: 'single sign-on: the ID token or identity could not be verified',
  ssoCodeSpent: 'single sign-on: the code was already used or has expired',
  directorySync: 'directory synchronisation',
  leftDirectory: 'no longer in the directory',
  projectClosed: 'the project was closed before it was answered',
} as const;
export type AuditSystemReason = keyof typeof AUDIT_SYSTEM_REASONS;

const SYSTEM_REASON_KEYS = new Map(Object.entries(AUDIT_SYSTEM_REASONS).map(([key, text]) => [text as string, key as AuditSystemReason]));

/** The system reason a stored reason is, or null for a person's own words. */
export function systemReasonOf(reason: string): AuditSystemReason | null {
  return SYSTEM_REASON_KEYS.get(reason) ?? null;
}

/** The chain's latest record, kept outside the database (the server's anchor file and log, each export) to compare against later. */
export interface AuditChainHead {
  seq: number;
  hash: string;
}

const chainHead = z.strictObject({
  seq: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  hash: z.string().regex(/^[0-9a-f]{64}$/, { error: 'invalidFormat' }),
});

/** Where a head kept outside the database came from: the anchor file this server writes as it appends, or an export handed to verify. */
export const AUDIT_ANCHOR_SOURCES = ['server', 'export'] as const;
/**
 * What the chain says of a head kept outside it: `matches` (the record is there with that hash), `differs`
 * (the record at that seq has another hash: rewritten), `missing` (no record at that seq, though the chain
 * goes on past it: removed), `beyondEnd` (the chain now ends before it: its tail was cut).
 */
export const AUDIT_ANCHOR_RESULTS = ['matches', 'differs', 'missing', 'beyondEnd'] as const;
export type AuditAnchorResult = (typeof AUDIT_ANCHOR_RESULTS)[number];

export const auditAnchorCheck = z.strictObject({
  source: z.enum(AUDIT_ANCHOR_SOURCES),
  seq: z.number(),
  hash: z.string(),
  /** When the server wrote it (its anchor file); null for an export's. */
  writtenAt: z.string().nullable(),
  result: z.enum(AUDIT_ANCHOR_RESULTS),
});
export type AuditAnchorCheck = z.infer<typeof auditAnchorCheck>;

/** A head of the chain time-stamped by an RFC 3161 authority (at most every TIMESTAMP_LIMITS.auditAnchorMinutes), and what the chain says of it now. */
export const auditStampedHead = z.strictObject({
  seq: z.number(),
  hash: z.string(),
  /** When the server asked for the stamp (the token's own time is `timestamp.genTime`). */
  anchoredAt: z.string(),
  result: z.enum(AUDIT_ANCHOR_RESULTS),
  timestamp: timestampInfo,
});
export type AuditStampedHead = z.infer<typeof auditStampedHead>;

export const auditVerifyAnswer = z.strictObject({
  /** No broken record, and every head kept outside the database is still in the chain (and the server's could be read). */
  ok: z.boolean(),
  /** Records read. */
  checked: z.number(),
  /** Sequence of the first record whose hash or link does not match, or null. */
  firstBroken: z.number().nullable(),
  /**
   * Every broken record, in order, at most AUDIT_VERIFY.maxBrokenListed of them. A record is broken when
   * its content no longer gives its stored hash, or when it does not name the stored hash of the record
   * before it (one was removed, inserted or re-hashed there).
   */
  broken: z.array(z.number()),
  /** How many records are broken in all (may exceed the list). */
  brokenCount: z.number(),
  /** The chain's last record as verify read it, or null while the trail is empty. */
  head: z.strictObject({ seq: z.number(), hash: z.string() }).nullable(),
  /**
   * The server's anchor file: `compared` (its head is among `anchors`), `none` (this server has written
   * none yet: nothing to compare with), `unreadable` (it is there but damaged: verify is not ok).
   */
  serverAnchor: z.enum(['compared', 'none', 'unreadable']),
  /** Each head kept outside the database that verify compared with the chain, and what it found. */
  anchors: z.array(auditAnchorCheck),
  /** The latest time-stamped heads (newest first), each compared with the chain: one no longer in it makes verify not ok. */
  stampedHeads: z.array(auditStampedHead),
});
export type AuditVerifyAnswer = z.infer<typeof auditVerifyAnswer>;

/** `exportHead`: the chain head an audit CSV export names (its last line), to compare with the chain as it is now. */
export const auditVerifyRequest = z.strictObject({ exportHead: chainHead.optional() });

/** The filters shared by the audit list and the export. */
const auditFilterFields = {
  actor: text().trim().max(LIMITS.email).optional(),
  action: text().trim().max(60).optional(),
  targetType: text().trim().max(30).optional(),
  targetId: text().trim().max(100).optional(),
  startDate: dateFilter,
  endDate: dateFilter,
};

/** Audit list filters: paging, a date range, and actor, action and target filters. */
export const auditListRequest = z
  .strictObject({
    ...auditFilterFields,
    page: z.number().int().min(1).max(LIMITS.maxRecordNo).default(1),
    pageSize: z.number().int().min(1).max(PAGING.maxPageSize).default(PAGING.defaultPageSize),
  })
  .refine((p) => !p.startDate || !p.endDate || p.startDate <= p.endDate, { error: 'dateOrder', path: ['endDate'] });

export const auditExportRequest = z.strictObject(auditFilterFields);

export const auditDetailRequest = z.strictObject({ seq: z.number().int().positive() });

/** Response header of the CSV export naming the chain head at the export (`<seq> <hash>`); the file's last line says the same. */
export const AUDIT_HEAD_HEADER = 'x-audit-chain-head';
/** Start of the export's last line, which names the chain head: `# audit chain head: seq=<seq> hash=<hash>`. */
export const AUDIT_HEAD_LINE_PREFIX = '# audit chain head:';

export const auditRecord = z.strictObject({
  seq: z.number(),
  at: z.string(),
  /** Who acted (null for the system and for sign-in attempts before anyone is signed in), by number and ID. */
  actorUserNo: z.number().nullable(),
  actorUserId: z.string().nullable(),
  actorName: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  /** The record's state before and after the change, as it was recorded (any JSON, or null). */
  before: z.unknown(),
  after: z.unknown(),
  reason: z.string().nullable(),
  clientAddress: z.string().nullable(),
  /** The personal access token the change was made with, or null (a signed-in session, or the system). */
  tokenId: z.string().nullable(),
  prevHash: z.string(),
  hash: z.string(),
});
export type AuditRecord = z.infer<typeof auditRecord>;

/**
 * One record as its detail answers it: whole, and when its target is a note since deleted, that note
 * with its last saved version (administrators read deleted notes here; nowhere else shows them).
 */
export const auditDetailAnswer = auditRecord.extend({ deletedNote: deletedNoteAnswer.nullable() });
export type AuditDetailAnswer = z.infer<typeof auditDetailAnswer>;

/** Columns of the audit CSV export, in order. */
export const AUDIT_CSV_COLUMNS = [
  'seq',
  'at',
  'actorUserId',
  'actorName',
  'action',
  'targetType',
  'targetId',
  'before',
  'after',
  'reason',
  'clientAddress',
  'tokenId',
  'prevHash',
  'hash',
] as const;

/** The audit calls (server/src/audit): the trail is the administrators'. */
export const auditCalls = {
  verify: defineCall({
    path: '/v1/audit/verify',
    auth: 'admin',
    kind: 'query',
    summary:
      "Recomputes the audit trail's hash chain, names every broken record, and compares the chain with the head this server last wrote outside the database and with an export's.",
    request: auditVerifyRequest,
    answer: auditVerifyAnswer,
    errors: [],
  }),
  list: defineCall({
    path: '/v1/audit/list',
    auth: 'admin',
    kind: 'query',
    summary: 'A page of the audit trail, newest first, filtered by actor, action, target and dates.',
    request: auditListRequest,
    answer: listAnswer(auditRecord),
    errors: [ERR.auditLookup],
    failure: ERR.auditLookup,
  }),
  detail: defineCall({
    path: '/v1/audit/detail',
    auth: 'admin',
    kind: 'query',
    summary: 'One audit record, whole; a deleted note it names comes with its last saved version.',
    request: auditDetailRequest,
    answer: auditDetailAnswer,
    errors: [ERR.notFound, ERR.auditLookup],
    failure: ERR.auditLookup,
  }),
  exportCsv: defineCall({
    path: '/v1/audit/export',
    auth: 'admin',
    kind: 'command',
    summary: 'The records the filters match as CSV, ending with the chain head its own (audited) record made.',
    request: auditExportRequest,
    answer: fileAnswer,
    answerBody: 'file',
    errors: [],
  }),
} as const;
