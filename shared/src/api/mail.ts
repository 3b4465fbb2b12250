import { z } from 'zod';
import { ERR } from '../errors.js';
import { NOTIFICATION_EVENTS } from '../notifications.js';
import { PAGING } from '../limits.js';
import { defineCall } from './call.js';
import { listAnswer } from './paging.js';

/*
 * The mail outbox as administrators see it (server/src/mail): every mail the notebook sends for a
 * notification or a daily digest, and why one was not delivered.
 */

/**
 * Where a mail is: waiting (`pending`, also between tries), being sent by a process (`sending`), `sent`,
 * `failed` after its last try, or `withheld`: not sent because its recipient was deactivated or may no
 * longer read what it tells of.
 */
export const MAIL_STATUSES = ['pending', 'sending', 'sent', 'failed', 'withheld'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** `notification`: one event's mail; `digest`: the day's events gathered into one mail. */
export const MAIL_KINDS = ['notification', 'digest'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

const mailId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const mailListRequest = z.strictObject({
  status: z.enum(MAIL_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(PAGING.startPage),
  pageSize: z.coerce.number().int().min(1).max(PAGING.maxPageSize).default(PAGING.defaultPageSize),
});
export type MailListRequest = z.input<typeof mailListRequest>;

export const mailIdRequest = z.strictObject({ mailId });

export const mailRow = z.strictObject({
  mailId: z.number(),
  kind: z.enum(MAIL_KINDS),
  status: z.enum(MAIL_STATUSES),
  recipient: z.strictObject({ userNo: z.number(), userId: z.string(), name: z.string(), active: z.boolean() }),
  /** The event a notification's mail tells of (null for a digest). */
  event: z.enum(NOTIFICATION_EVENTS).nullable(),
  /** How many notifications the mail tells of (1, or a digest's count). */
  notificationCount: z.number(),
  attempts: z.number(),
  /** The SMTP server's (or the network's) answer to the last try that failed, or why the mail was withheld. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
  /** When it is tried next (pending), or when the process sending it gives it up (sending). */
  nextAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  abilities: z.strictObject({ retry: z.boolean() }),
});
export type MailRow = z.infer<typeof mailRow>;

export const mailListAnswer = listAnswer(mailRow).safeExtend({
  /** Failed mails in all, whatever the filter: the admin card's count. */
  failedCount: z.number(),
});
export type MailListAnswer = z.infer<typeof mailListAnswer>;

/** The mail outbox (server/src/mail): administrators see what was not delivered and send it again. */
export const mailCalls = {
  list: defineCall({
    path: '/v1/admin/mail/list',
    auth: 'admin',
    kind: 'query',
    summary: 'Mails of the outbox, newest first, by status (failed ones with their last error), with the count of failed mails.',
    request: mailListRequest,
    answer: mailListAnswer,
    errors: [ERR.forbidden, ERR.mailLookup],
    failure: ERR.mailLookup,
  }),
  retry: defineCall({
    path: '/v1/admin/mail/retry',
    auth: 'admin',
    kind: 'command',
    summary: 'Sends a failed mail again: it is tried at once with a fresh count of tries (audited).',
    request: mailIdRequest,
    answer: z.strictObject({ mail: mailRow }),
    errors: [ERR.forbidden, ERR.mailMissing, ERR.mailNotFailed],
  }),
} as const;
