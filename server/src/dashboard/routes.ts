import { and, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { emptyRequest, ERR, PROJECT_STATUS, type DashboardCounts } from '@eln/shared';
import { projects } from '../db/schema.js';
import { defineRoute } from '../http/route.js';
import { countVisibleDropboxes } from '../dropboxes/queries.js';
import { countVisibleSchemaTypes } from '../schemas/queries.js';
import { countVisibleTemplates } from '../templates/queries.js';
import { visibleProjectsSql } from '../projects/policy.js';
import { reviewerSignedSql } from '../projects/queries.js';
import type { Services } from '../services.js';

export function registerDashboardRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    path: '/v1/dashboard/count',
    access: 'user',
    failure: ERR.dashboardLookup,
    body: emptyRequest,
    async handler({ user }): Promise<DashboardCounts> {
      const rows = await services.db
        .select({ status: projects.status, n: count() })
        .from(projects)
        .where(and(visibleProjectsSql(user)))
        .groupBy(projects.status);
      const countOf = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
      const [closable] = await services.db
        .select({ n: count() })
        .from(projects)
        .where(and(visibleProjectsSql(user), eq(projects.status, PROJECT_STATUS.inProgress), reviewerSignedSql(projects.projectNo)));
      return {
        ongoing: countOf(PROJECT_STATUS.inProgress),
        closed: countOf(PROJECT_STATUS.completed),
        closable: Number(closable?.n ?? 0),
        templates: await countVisibleTemplates(services.db, user),
        schemas: await countVisibleSchemaTypes(services.db, user),
        dropboxes: await countVisibleDropboxes(services.db, user),
      };
    },
  });
}
