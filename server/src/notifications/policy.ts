import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { NOTIFICATION_EVENTS, type NotificationEvent } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { exportJobs, labNotes, notifications, projects, templates } from '../db/schema.js';
import { readableNotesSql } from '../notes/policy.js';
import { visibleProjectsSql } from '../projects/policy.js';
import { visibleTemplatesSql } from '../templates/policy.js';
import { isAdministrator } from '../users/policy.js';
import { mayOwnWebhooks } from '../webhooks/policy.js';

/*
 * Who sees a notification: its reader, while they may still read what it tells of, by each record's own
 * rule, decided when it is shown (never when it was made): a member removed from a project stops seeing
 * its notes' and its closing's notifications at once, and finds them again if added back.
 */

/**
 * What each event tells of, and so the rule that decides whether its reader may still see it. A mention in
 * a template draft's comment names no note: it tells of the template (`subjectOfNotification`).
 */
export type NotificationSubject = 'note' | 'project' | 'template' | 'export' | 'directory' | 'webhook';

export const SUBJECT_OF: Readonly<Record<NotificationEvent, NotificationSubject>> = {
  signatureRequested: 'note',
  signatureReminder: 'note',
  noteSigned: 'note',
  signatureRemoved: 'note',
  mentioned: 'note',
  projectClosed: 'project',
  templateChecked: 'template',
  templateApproved: 'template',
  templateReturned: 'template',
  exportFinished: 'export',
  exportFailed: 'export',
  usersDeactivated: 'directory',
  webhookDisabled: 'webhook',
};

/**
 * The events a person can be sent at all, in NOTIFICATION_EVENTS's order (the settings page offers only
 * these): a directory synchronisation's to administrators, a webhook's to those who can own one.
 */
export function eventsToldTo(user: Pick<AuthUser, 'userNo' | 'level'>, facts: { leadsAProject: boolean }): NotificationEvent[] {
  return NOTIFICATION_EVENTS.filter((event) => {
    if (SUBJECT_OF[event] === 'directory') return isAdministrator(user);
    if (SUBJECT_OF[event] === 'webhook') return mayOwnWebhooks(user, facts);
    return true;
  });
}

/** What one notification tells of: its event's subject, but a mention on a template (no note) tells of the template. */
export function subjectOfNotification(event: NotificationEvent, refs: { noteNo: number | null }): NotificationSubject {
  return event === 'mentioned' && refs.noteNo === null ? 'template' : SUBJECT_OF[event];
}

const eventsOf = (subject: NotificationSubject) =>
  (Object.keys(SUBJECT_OF) as NotificationEvent[]).filter((event) => SUBJECT_OF[event] === subject);

/** What a rule answers for everyone (an administrator's projects): no condition, so always true. */
const orTrue = (condition: SQL | undefined): SQL => condition ?? sql`true`;

/**
 * The condition a query over the reader's notifications filters by: a note's events while its note is
 * readable (`readableNotesSql`), a project's while the project is (`visibleProjectsSql`), a template's
 * while it is (`visibleTemplatesSql`), an export's to its requester, a directory synchronisation's to
 * administrators, a webhook's to its owner. Each is a correlated EXISTS on the record's key inside an OR, which PostgreSQL runs row
 * by row from the reader's own notifications (`notifications_user_idx`): a count over a reader's 500 costs
 * 500 key lookups, never a scan of every note.
 */
export function visibleNotificationsSql(user: AuthUser): SQL {
  const readableNote = sql`exists (select 1 from ${labNotes} inner join ${projects} on ${projects.projectNo} = ${labNotes.projectNo}
    where ${labNotes.noteNo} = ${notifications.noteNo} and ${orTrue(readableNotesSql(user))})`;
  const visibleProject = sql`exists (select 1 from ${projects}
    where ${projects.projectNo} = ${notifications.projectNo} and ${orTrue(visibleProjectsSql(user))})`;
  const visibleTemplate = sql`exists (select 1 from ${templates}
    where ${templates.templateNo} = ${notifications.templateNo} and ${orTrue(visibleTemplatesSql(user))})`;
  const ownExport = sql`exists (select 1 from ${exportJobs}
    where ${exportJobs.jobId} = ${notifications.jobId} and ${exportJobs.requestedByUserNo} = ${user.userNo})`;
  return or(
    and(inArray(notifications.event, eventsOf('note')), readableNote),
    and(inArray(notifications.event, eventsOf('project')), visibleProject),
    and(inArray(notifications.event, eventsOf('template')), visibleTemplate),
    and(eq(notifications.event, 'mentioned'), isNull(notifications.noteNo), visibleTemplate),
    and(inArray(notifications.event, eventsOf('export')), ownExport),
    isAdministrator(user) ? inArray(notifications.event, eventsOf('directory')) : undefined,
    // A webhook's news is its owner's (the only one told of it).
    inArray(notifications.event, eventsOf('webhook')),
  ) as SQL;
}
