import { and, desc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { DEFAULT_LANGUAGE, isLanguage, type NotificationEvent } from '@eln/shared';
import type { Db } from '../db/client.js';
import { exportJobs, labNotes, mailOutbox, notifications, projects, templates, users, userSettings } from '../db/schema.js';
import { toAuthFlags } from '../users/flags.js';
import { isAdministrator } from '../users/policy.js';
import { knownZone } from './digestTime.js';
import { readableNotificationIds } from './readable.js';
import { notificationPath } from '../notifications/presenters.js';
import { digestMail, notificationMail, type MailContent, type MailItem } from './render.js';

type OutboxRow = typeof mailOutbox.$inferSelect;

/** What a claimed mail becomes: the mail to send, or why it is not sent at all. */
export type Composed = { to: string; language: string; content: MailContent } | { withheld: string };

/** Why a mail was not sent, as its row keeps it (for administrators; not translated, like the SMTP server's answers). */
export const WITHHELD = {
  inactive: 'not sent: the recipient is deactivated',
  unreadable: 'not sent: the recipient may no longer read what it tells of',
} as const;

const actors = alias(users, 'actors');

/**
 * Writes a claimed mail for its recipient as they are now: in their language (user_settings, else the
 * notebook's default) and zone (else the server's), telling only of what they may still read. A mail to a
 * deactivated person, or one whose every notification they may no longer read, is withheld.
 */
export async function composeMail(db: Db, row: OutboxRow, settings: { publicUrl: string; timeZone: string }): Promise<Composed> {
  const [recipient] = await db
    .select({
      userNo: users.userNo,
      userId: users.userId,
      level: users.level,
      active: users.active,
      authProject: users.authProject,
      authSchema: users.authSchema,
      authDropbox: users.authDropbox,
      authTemplate: users.authTemplate,
      language: userSettings.language,
      timeZone: userSettings.timeZone,
    })
    .from(users)
    .leftJoin(userSettings, eq(userSettings.userNo, users.userNo))
    .where(eq(users.userNo, row.userNo));
  if (!recipient?.active) return { withheld: WITHHELD.inactive };
  const ids = row.kind === 'notification' ? (row.notificationId === null ? [] : [row.notificationId]) : numbersOf(row.notificationIds);
  const found = ids.length
    ? await db
        .select({
          notificationId: notifications.notificationId,
          event: notifications.event,
          createdAt: notifications.createdAt,
          projectNo: notifications.projectNo,
          noteNo: notifications.noteNo,
          templateNo: notifications.templateNo,
          jobId: notifications.jobId,
          payload: notifications.payload,
          actorName: actors.name,
          hasActor: notifications.actorUserNo,
          noteNumber: labNotes.labNoteNumber,
          noteTitle: labNotes.title,
          projectTitle: projects.title,
          templateTitle: templates.title,
          jobFileName: exportJobs.fileName,
          jobFormat: exportJobs.format,
        })
        .from(notifications)
        .leftJoin(actors, eq(actors.userNo, notifications.actorUserNo))
        .leftJoin(labNotes, eq(labNotes.noteNo, notifications.noteNo))
        .leftJoin(projects, eq(projects.projectNo, notifications.projectNo))
        .leftJoin(templates, eq(templates.templateNo, notifications.templateNo))
        .leftJoin(exportJobs, eq(exportJobs.jobId, notifications.jobId))
        .where(and(inArray(notifications.notificationId, ids), eq(notifications.userNo, row.userNo)))
        .orderBy(desc(notifications.createdAt), desc(notifications.notificationId))
    : [];
  const reader = { userNo: recipient.userNo, level: recipient.level, auth: toAuthFlags(recipient) };
  const readable = await readableNotificationIds(db, reader, found);
  const items: MailItem[] = found
    .filter((n) => readable.has(n.notificationId))
    .map((n) => {
      const event = n.event as NotificationEvent;
      return {
        event,
        createdAt: n.createdAt,
        actorName: n.hasActor === null ? null : n.actorName,
        note: n.noteNumber !== null && n.noteTitle !== null ? { number: n.noteNumber, title: n.noteTitle } : null,
        projectTitle: n.projectTitle,
        templateTitle: n.templateTitle,
        job: n.jobFormat !== null ? { fileName: n.jobFileName, format: n.jobFormat } : null,
        payload: (n.payload ?? {}) as Record<string, unknown>,
        path: notificationPath(event, n, isAdministrator(reader)),
      };
    });
  if (items.length === 0) return { withheld: WITHHELD.unreadable };
  const mailReader = {
    language: isLanguage(recipient.language) ? recipient.language : DEFAULT_LANGUAGE,
    timeZone: knownZone(recipient.timeZone, settings.timeZone),
    publicUrl: settings.publicUrl,
  };
  const content = row.kind === 'notification' ? notificationMail(items[0]!, mailReader) : digestMail(items, mailReader);
  return { to: recipient.userId, language: mailReader.language, content };
}

/** A digest's notification ids as stored (jsonb: an array of numbers). */
function numbersOf(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number') : [];
}
