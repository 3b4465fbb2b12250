import { and, count, eq } from 'drizzle-orm';
import { PROJECT_STATUS, type DashboardCounts } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Db } from '../db/client.js';
import { projects } from '../db/schema.js';
import { countVisibleDropboxes } from '../dropboxes/queries.js';
import { visibleProjectsSql } from '../projects/policy.js';
import { reviewerSignedSql } from '../projects/queries.js';
import { countVisibleSchemaTypes } from '../schemas/queries.js';
import { countVisibleTemplates } from '../templates/queries.js';

/** What the dashboard counts, of what the user may see: projects by status (and those ready to close), templates, schemas, dropboxes. */
export async function dashboardCounts(db: Db, user: AuthUser): Promise<DashboardCounts> {
  const rows = await db
    .select({ status: projects.status, n: count() })
    .from(projects)
    .where(and(visibleProjectsSql(user)))
    .groupBy(projects.status);
  const countOf = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  const [closable] = await db
    .select({ n: count() })
    .from(projects)
    .where(and(visibleProjectsSql(user), eq(projects.status, PROJECT_STATUS.inProgress), reviewerSignedSql(projects.projectNo)));
  return {
    ongoing: countOf(PROJECT_STATUS.inProgress),
    closed: countOf(PROJECT_STATUS.completed),
    closable: Number(closable?.n ?? 0),
    templates: await countVisibleTemplates(db, user),
    schemas: await countVisibleSchemaTypes(db, user),
    dropboxes: await countVisibleDropboxes(db, user),
  };
}
