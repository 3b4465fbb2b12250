import { NOTIFICATION_EVENTS, SIGNATURE_TYPES, type NotificationEvent, type NotificationItem, type SignatureType } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { isAdministrator } from '../users/policy.js';
import { subjectOfNotification } from './policy.js';

/**
 * What an event keeps besides the records it names (notifications.payload), written by the commands that
 * notify: a signature's meaning, a reason, whether a signer declined, a template's version, an export's
 * file, how many people were deactivated.
 */
export interface NotificationPayload {
  meaning?: SignatureType;
  reason?: string;
  declined?: boolean;
  version?: string;
  file?: string;
  count?: number;
  /** A mention in a comment: the comment (its note's link opens it) and its text with names for mention tokens. */
  commentId?: number;
  excerpt?: string;
  /** The block a mention stands in (`mentioned`), which the notification opens. */
  blockUid?: string;
}

/** A notification with the records it names, as queries.ts reads it. */
export interface NotificationRow {
  notificationId: number;
  event: string;
  payload: unknown;
  createdAt: Date;
  readAt: Date | null;
  projectNo: number | null;
  actorName: string | null;
  noteNo: number | null;
  labNoteNumber: string | null;
  noteTitle: string | null;
  noteProjectNo: number | null;
  projectTitle: string | null;
  templateNo: number | null;
  templateTitle: string | null;
}

const isEvent = (value: string): value is NotificationEvent => (NOTIFICATION_EVENTS as readonly string[]).includes(value);
const isMeaning = (value: unknown): value is SignatureType => (SIGNATURE_TYPES as readonly unknown[]).includes(value);

function payloadOf(raw: unknown): NotificationPayload {
  const value = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return {
    meaning: isMeaning(value.meaning) ? value.meaning : undefined,
    reason: typeof value.reason === 'string' ? value.reason : undefined,
    declined: value.declined === true,
    version: typeof value.version === 'string' ? value.version : undefined,
    file: typeof value.file === 'string' ? value.file : undefined,
    count: typeof value.count === 'number' ? value.count : undefined,
    commentId: typeof value.commentId === 'number' ? value.commentId : undefined,
    excerpt: typeof value.excerpt === 'string' ? value.excerpt : undefined,
    blockUid: typeof value.blockUid === 'string' && value.blockUid ? value.blockUid : undefined,
  };
}

/**
 * The client path a notification opens, in the bell and in its mail: its note (at the block its payload
 * names, a mention's), project or template; an export's list (the downloads page for administrators, else
 * the project it exported); the user list for a directory synchronisation.
 */
export function notificationPath(
  event: NotificationEvent,
  refs: { noteNo: number | null; projectNo: number | null; templateNo: number | null; payload?: unknown },
  administrator: boolean,
): string {
  // A mention in a comment opens that comment's thread beside the note or template; one in a note, its block.
  const { commentId, blockUid } = payloadOf(refs.payload);
  const comment = commentId === undefined ? '' : `?comment=${commentId}`;
  switch (subjectOfNotification(event, refs)) {
    case 'note':
      if (blockUid && !comment) return `/note/${refs.noteNo}?block=${encodeURIComponent(blockUid)}`;
      return `/note/${refs.noteNo}${comment}`;
    case 'project':
      return `/project/${refs.projectNo}`;
    case 'template':
      return `/template/note/${refs.templateNo}${comment}`;
    case 'export':
      if (administrator) return '/admin/download';
      return refs.projectNo === null ? '/' : `/project/${refs.projectNo}`;
    case 'directory':
      return '/admin';
    case 'webhook':
      return refs.projectNo === null ? '/admin/webhooks' : `/project/${refs.projectNo}`;
  }
}

/** One notification as its reader sees it; null for an event this build does not know (a newer process's). */
export function toNotificationItem(reader: AuthUser, row: NotificationRow): NotificationItem | null {
  if (!isEvent(row.event)) return null;
  const subject = subjectOfNotification(row.event, row);
  const payload = payloadOf(row.payload);
  const showsNote = subject === 'note' && row.noteNo !== null;
  const projectNo = showsNote ? row.noteProjectNo : row.projectNo;
  return {
    id: row.notificationId,
    event: row.event,
    actorName: row.actorName,
    note: showsNote ? { labNoteNo: row.noteNo!, labNoteNumber: row.labNoteNumber ?? '', title: row.noteTitle ?? '' } : null,
    // An export's project is named by its file, not shown: the export is the reader's, the project may no longer be.
    project:
      (subject === 'note' || subject === 'project') && projectNo !== null && row.projectTitle !== null
        ? { projectNo, title: row.projectTitle }
        : null,
    template: subject === 'template' && row.templateNo !== null ? { templateNo: row.templateNo, title: row.templateTitle ?? '' } : null,
    meaning: payload.meaning ?? null,
    reason: payload.reason ?? null,
    declined: payload.declined === true,
    version: payload.version ?? null,
    file: payload.file ?? null,
    count: payload.count ?? null,
    excerpt: payload.excerpt ?? null,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
    link: notificationPath(row.event, row, isAdministrator(reader)),
  };
}
