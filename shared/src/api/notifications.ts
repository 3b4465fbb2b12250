import { z } from 'zod';
import { ERR } from '../errors.js';
import { NOTIFICATION_LIMITS } from '../limits.js';
import { NOTIFICATION_EVENTS } from '../notifications.js';
import { defineCall } from './call.js';
import { emptyRequest } from './identity.js';
import { pageFields } from './paging.js';
import { SIGNATURE_TYPES } from './signatures.js';

/** A notification's id (a bigserial, well inside JavaScript's safe integers). */
const notificationId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * One notification as its reader sees it: the event and the parts its sentence names (shared
 * `notificationSentence` makes the sentence in the reader's language), when, whether read, and the
 * client path it opens. Titles are today's, read when listed; a record its reader may no longer read is
 * never listed (server/src/notifications/policy.ts).
 */
export const notificationItem = z.strictObject({
  id: z.number(),
  event: z.enum(NOTIFICATION_EVENTS),
  /** Who did it; null when the system did (directory synchronisation, an export job). */
  actorName: z.string().nullable(),
  note: z.strictObject({ labNoteNo: z.number(), labNoteNumber: z.string(), title: z.string() }).nullable(),
  project: z.strictObject({ projectNo: z.number(), title: z.string() }).nullable(),
  template: z.strictObject({ templateNo: z.number(), title: z.string() }).nullable(),
  /** A signature's meaning (signature events). */
  meaning: z.enum(SIGNATURE_TYPES).nullable(),
  /** Why a signature was removed or declined, a template returned; empty when a decline gave none. */
  reason: z.string().nullable(),
  /** A `signatureRemoved` that is the signer declining (not the leader removing a signature). */
  declined: z.boolean(),
  /** An approved template's version, as typed. */
  version: z.string().nullable(),
  /** An export's file name (or, for a failed one, what it was to be). */
  file: z.string().nullable(),
  /** How many people directory synchronisation deactivated. */
  count: z.number().nullable(),
  /** A mention in a comment: the comment's text, each mention shown as the person's name (cut short). */
  excerpt: z.string().nullable(),
  createdAt: z.string(),
  read: z.boolean(),
  /** The client path the notification opens: `/note/<no>`, `/project/<no>`, `/template/note/<no>`, the downloads, `/admin`. */
  link: z.string(),
});
export type NotificationItem = z.infer<typeof notificationItem>;

export const notificationListRequest = z.strictObject({
  /** Only those not yet read. */
  unreadOnly: z.boolean().optional(),
  page: pageFields.page,
  pageSize: z.coerce.number().int().min(1).max(NOTIFICATION_LIMITS.pageSize).default(NOTIFICATION_LIMITS.defaultPageSize),
});

/** A page of the reader's notifications, newest first; `totalCount` counts the list asked for, `unreadCount` every unread one. */
export const notificationListAnswer = z.strictObject({
  list: z.array(notificationItem),
  totalCount: z.number().int().min(0),
  unreadCount: z.number().int().min(0),
});
export type NotificationListAnswer = z.infer<typeof notificationListAnswer>;

/** Marks the caller's own notifications read: `ids` (others' ids are passed over), or `all: true`; exactly one of them. */
export const notificationReadRequest = z
  .strictObject({
    ids: z.array(notificationId).min(1).max(NOTIFICATION_LIMITS.readIds).optional(),
    all: z.literal(true).optional(),
  })
  .refine((body) => (body.ids === undefined) !== (body.all === undefined), { error: 'invalidValue', path: ['ids'] });

export const notificationCountAnswer = z.strictObject({ unreadCount: z.number().int().min(0) });

/**
 * What the stream sends (server-sent events, `event: state`): the unread count and the newest
 * notification, at once when it opens and after every change to the reader's notifications.
 */
export const notificationState = z.strictObject({ unreadCount: z.number().int().min(0), newest: notificationItem.nullable() });
export type NotificationState = z.infer<typeof notificationState>;

/** The bell (server/src/notifications). */
export const notificationCalls = {
  list: defineCall({
    path: '/v1/notification/list',
    auth: 'user',
    kind: 'query',
    summary: "The caller's notifications shown in the app, newest first, of records they may still read, with the unread count.",
    request: notificationListRequest,
    answer: notificationListAnswer,
    errors: [ERR.notificationLookup],
    failure: ERR.notificationLookup,
  }),
  read: defineCall({
    path: '/v1/notification/read',
    auth: 'user',
    kind: 'command',
    summary: "Marks the caller's notifications read, by id or all; answers the unread count.",
    request: notificationReadRequest,
    answer: notificationCountAnswer,
    errors: [ERR.notificationRead],
    failure: ERR.notificationRead,
  }),
  stream: defineCall({
    path: '/v1/notification/stream',
    sessionOnly: true,
    auth: 'user',
    kind: 'query',
    summary:
      'A server-sent event stream (text/event-stream) of the unread count and newest notification, sent at once and on every change; ends when the access token expires.',
    request: emptyRequest,
    answer: notificationState,
    answerBody: 'stream',
    errors: [ERR.notificationStream],
    failure: ERR.notificationStream,
  }),
} as const;
