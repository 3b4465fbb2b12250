import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { projects } from '../db/schema.js';
import { canExportProject, takesPartSql, type Caller } from '../projects/policy.js';

/**
 * Whether someone may take the project out now: the project's rule, asked again at every step (request,
 * run, link, download), so that someone removed from a project meanwhile gets nothing of it.
 */
export async function mayExportProject(q: Queryable, who: Caller, projectNo: number): Promise<boolean> {
  const [row] = await q
    .select({ project: projects, participant: sql<boolean>`${takesPartSql(who.userNo)}`.mapWith(Boolean) })
    .from(projects)
    .where(eq(projects.projectNo, projectNo));
  return Boolean(row) && canExportProject(who, row!.project, row!.participant) === 'allowed';
}
