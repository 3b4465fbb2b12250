import { and, eq, inArray } from 'drizzle-orm';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { exportJobs, labNotes, projects, templates } from '../db/schema.js';
import { visibleJobsSql } from '../exports/policy.js';
import { readableNotesSql } from '../notes/policy.js';
import { visibleProjectsSql } from '../projects/policy.js';
import { visibleTemplatesSql } from '../templates/policy.js';
import { isAdministrator } from '../users/policy.js';

/** The reader a mail is for: what the policies ask of a caller. */
export type Reader = Pick<AuthUser, 'userNo' | 'level' | 'auth'>;

/** What a notification names, each checked against what its reader may read now. */
export interface NamedRecords {
  notificationId: number;
  event: string;
  projectNo: number | null;
  noteNo: number | null;
  templateNo: number | null;
  jobId: string | null;
}

/**
 * The notifications whose every named record the reader may read now, asked of each record's policy
 * (notes, projects, templates, export jobs; the directory's deactivations are the administrators'). Asked
 * when a mail is sent, not when it was queued: someone removed from a project meanwhile is not told of it.
 */
export async function readableNotificationIds(q: Queryable, reader: Reader, named: readonly NamedRecords[]): Promise<Set<number>> {
  const ids = <T>(pick: (n: NamedRecords) => T | null) => [...new Set(named.map(pick).filter((id): id is T => id !== null))];
  const noteNos = ids((n) => n.noteNo);
  const projectNos = ids((n) => n.projectNo);
  const templateNos = ids((n) => n.templateNo);
  const jobIds = ids((n) => n.jobId);
  const [notes, visibleProjects, visibleTemplates, jobs] = await Promise.all([
    noteNos.length
      ? q
          .select({ no: labNotes.noteNo })
          .from(labNotes)
          .innerJoin(projects, eq(projects.projectNo, labNotes.projectNo))
          .where(and(inArray(labNotes.noteNo, noteNos), readableNotesSql(reader)))
      : [],
    projectNos.length
      ? q
          .select({ no: projects.projectNo })
          .from(projects)
          .where(and(inArray(projects.projectNo, projectNos), visibleProjectsSql(reader)))
      : [],
    templateNos.length
      ? q
          .select({ no: templates.templateNo })
          .from(templates)
          .where(and(inArray(templates.templateNo, templateNos), visibleTemplatesSql(reader)))
      : [],
    jobIds.length
      ? q
          .select({ no: exportJobs.jobId })
          .from(exportJobs)
          .where(and(inArray(exportJobs.jobId, jobIds), visibleJobsSql(reader)))
      : [],
  ]);
  const readable = {
    notes: new Set(notes.map((row) => row.no)),
    projects: new Set(visibleProjects.map((row) => row.no)),
    templates: new Set(visibleTemplates.map((row) => row.no)),
    jobs: new Set(jobs.map((row) => row.no)),
  };
  return new Set(
    named
      .filter(
        (n) =>
          (n.noteNo === null || readable.notes.has(n.noteNo)) &&
          (n.projectNo === null || readable.projects.has(n.projectNo)) &&
          (n.templateNo === null || readable.templates.has(n.templateNo)) &&
          (n.jobId === null || readable.jobs.has(n.jobId)) &&
          (n.event !== 'usersDeactivated' || isAdministrator(reader)),
      )
      .map((n) => n.notificationId),
  );
}
