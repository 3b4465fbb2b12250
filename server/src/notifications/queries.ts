import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias, type PgSelect } from 'drizzle-orm/pg-core';
import type { api, CallRequest, NotificationItem, NotificationListAnswer, NotificationState } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { builtOnce } from '../db/builtOnce.js';
import { offsetOf } from '../db/paging.js';
import { labNotes, notifications, projects, templates, users } from '../db/schema.js';
import { visibleNotificationsSql } from './policy.js';
import { toNotificationItem, type NotificationRow } from './presenters.js';

const actor = alias(users, 'actor');

/** What a notification row is shown with. */
const ROW = {
  notificationId: notifications.notificationId,
  event: notifications.event,
  payload: notifications.payload,
  createdAt: notifications.createdAt,
  readAt: notifications.readAt,
  projectNo: notifications.projectNo,
  actorName: actor.name,
  noteNo: labNotes.noteNo,
  labNoteNumber: labNotes.labNoteNumber,
  noteTitle: labNotes.title,
  noteProjectNo: labNotes.projectNo,
  projectTitle: projects.title,
  templateNo: templates.templateNo,
  templateTitle: templates.title,
};

/**
 * Notifications with what they are shown with: the note, its project (else the notification's own), the
 * template, and who did it. Each join is on a primary key, read row by row from the reader's notifications
 * (`notifications_user_idx`); what they may see is decided by `visibleNotificationsSql` on its own.
 */
function joined<T extends PgSelect>(query: T) {
  return query
    .leftJoin(labNotes, eq(labNotes.noteNo, notifications.noteNo))
    .leftJoin(projects, eq(projects.projectNo, sql`coalesce(${labNotes.projectNo}, ${notifications.projectNo})`))
    .leftJoin(templates, eq(templates.templateNo, notifications.templateNo))
    .leftJoin(actor, eq(actor.userNo, notifications.actorUserNo));
}

const notificationRows = (q: Queryable) => joined(q.select(ROW).from(notifications).$dynamic());

/** The reader's notifications shown in the app that they may still read (the condition every count and list shares). */
const mineSql = (user: AuthUser) =>
  and(eq(notifications.userNo, user.userNo), eq(notifications.inApp, true), visibleNotificationsSql(user));

const items = (user: AuthUser, rows: NotificationRow[]) =>
  rows.map((row) => toNotificationItem(user, row)).filter((item): item is NotificationItem => item !== null);

/** How many of the reader's notifications there are, and how many unread, of those they may still read. */
async function countsOf(q: Queryable, user: AuthUser, unreadOnly: boolean): Promise<{ total: number; unread: number }> {
  const unreadSql = isNull(notifications.readAt);
  const [row] = await q
    .select({ total: sql<string>`count(*)`, unread: sql<string>`count(*) filter (where ${unreadSql})` })
    .from(notifications)
    .where(and(mineSql(user), unreadOnly ? unreadSql : undefined));
  return { total: Number(row?.total ?? 0), unread: Number(row?.unread ?? 0) };
}

/** A page of the reader's notifications, newest first, with how many there are and how many are unread. */
export async function listNotifications(
  q: Queryable,
  user: AuthUser,
  request: CallRequest<typeof api.notifications.list>,
): Promise<NotificationListAnswer> {
  const unreadOnly = request.unreadOnly === true;
  const listed = and(mineSql(user), unreadOnly ? isNull(notifications.readAt) : undefined);
  // The page's ids first, so that only its rows are joined with what they show (not every row the offset passes over).
  const page = q
    .select({ id: notifications.notificationId })
    .from(notifications)
    .where(listed)
    .orderBy(desc(notifications.notificationId))
    .limit(request.pageSize)
    .offset(offsetOf(request));
  const [rows, counts] = await Promise.all([
    notificationRows(q).where(inArray(notifications.notificationId, page)).orderBy(desc(notifications.notificationId)),
    countsOf(q, user, unreadOnly),
  ]);
  return { list: items(user, rows), totalCount: unreadOnly ? counts.unread : counts.total, unreadCount: counts.unread };
}

/**
 * The reader as the rules see them with their number left to bind: the rules decide by a caller's level
 * and permissions (shapeOf) and compare their number in SQL only, so one query built for a shape serves
 * everyone of it (`builtOnce`: building costs more than PostgreSQL takes to answer, and a project's close
 * asks it for each of its participants at once).
 */
const boundLater = (user: AuthUser): AuthUser => ({ ...user, userNo: sql.placeholder('userNo') as unknown as number });
const shapeOf = (user: AuthUser) => `${user.level}:${JSON.stringify(user.auth)}`;
let shapesBuilt = 0;

function stateQueries(q: Queryable, user: AuthUser) {
  return builtOnce(q, `notificationState:${shapeOf(user)}`, (db) => {
    const anyone = boundLater(user);
    const name = `notification_state_${++shapesBuilt}`;
    return {
      newest: notificationRows(db).where(mineSql(anyone)).orderBy(desc(notifications.notificationId)).limit(1).prepare(`${name}_newest`),
      unread: joined(
        db
          .select({ unread: sql<string>`count(*)` })
          .from(notifications)
          .$dynamic(),
      )
        .where(and(mineSql(anyone), isNull(notifications.readAt)))
        .prepare(`${name}_unread`),
    };
  });
}

/** How many of the reader's notifications are unread (of those they may still read). */
export async function unreadCountOf(q: Queryable, user: AuthUser): Promise<number> {
  const [row] = await stateQueries(q, user).unread.execute({ userNo: user.userNo });
  return Number(row?.unread ?? 0);
}

/** What the reader's open streams are sent: the unread count and the newest notification. */
export async function notificationStateOf(q: Queryable, user: AuthUser): Promise<NotificationState> {
  const queries = stateQueries(q, user);
  const [newest, [count]] = await Promise.all([
    queries.newest.execute({ userNo: user.userNo }),
    queries.unread.execute({ userNo: user.userNo }),
  ]);
  return { unreadCount: Number(count?.unread ?? 0), newest: items(user, newest)[0] ?? null };
}
