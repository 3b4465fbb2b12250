import { and, eq, inArray, isNotNull, or, type SQL } from 'drizzle-orm';
import type { NotificationEvent } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { exportJobs, labNotes, notifications, projects, templates } from '../db/schema.js';
import { readableNotesSql } from '../notes/policy.js';
import { visibleProjectsSql } from '../projects/policy.js';
import { visibleTemplatesSql } from '../templates/policy.js';
import { isAdministrator } from '../users/policy.js';

/*
 * Who sees a notification: its reader, while they may still read what it tells of, by each record's own
 * rule, decided when it is shown (never when it was made): a member removed from a project stops seeing
 * its notes' and its closing's notifications at once, and finds them again if added back.
 */

/** What each event tells of, and so the rule that decides whether its reader may still see it. */
export type NotificationSubject = 'note' | 'project' | 'template' | 'export' | 'directory';

export const SUBJECT_OF: Readonly<Record<NotificationEvent, NotificationSubject>> = {
  signatureRequested: 'note',
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
};

const eventsOf = (subject: NotificationSubject) =>
  (Object.keys(SUBJECT_OF) as NotificationEvent[]).filter((event) => SUBJECT_OF[event] === subject);

/**
 * The condition a query over the reader's notifications filters by, with `lab_notes` joined on the
 * notification's note, `projects` on the note's project (else the notification's), `templates` and
 * `export_jobs` on theirs (queries.ts): a note's events while its note is readable (`readableNotesSql`),
 * a project's while the project is (`visibleProjectsSql`), a template's while it is
 * (`visibleTemplatesSql`), an export's to its requester, a directory synchronisation's to administrators.
 */
export function visibleNotificationsSql(user: AuthUser): SQL {
  return or(
    and(inArray(notifications.event, eventsOf('note')), isNotNull(labNotes.noteNo), readableNotesSql(user)),
    and(inArray(notifications.event, eventsOf('project')), isNotNull(projects.projectNo), visibleProjectsSql(user)),
    and(inArray(notifications.event, eventsOf('template')), isNotNull(templates.templateNo), visibleTemplatesSql(user)),
    and(inArray(notifications.event, eventsOf('export')), eq(exportJobs.requestedByUserNo, user.userNo)),
    isAdministrator(user) ? inArray(notifications.event, eventsOf('directory')) : undefined,
  ) as SQL;
}
