import { z } from 'zod';
import { ERR } from '../errors.js';
import { defineCall } from './call.js';
import { emptyRequest } from './identity.js';

/**
 * The dashboard's counts. A count is null while the feature it counts is not part of this build, so the
 * screen can say so instead of showing a made-up zero.
 */
export const dashboardCounts = z.strictObject({
  ongoing: z.number(),
  closable: z.number(),
  closed: z.number(),
  templates: z.number().nullable(),
  schemas: z.number().nullable(),
  dropboxes: z.number().nullable(),
});
export type DashboardCounts = z.infer<typeof dashboardCounts>;

/** The dashboard (server/src/dashboard). */
export const dashboardCalls = {
  counts: defineCall({
    path: '/v1/dashboard/count',
    auth: 'user',
    kind: 'query',
    summary: 'How many projects the caller sees in progress, ready to close and closed, and the templates, schemas and dropboxes they see.',
    request: emptyRequest,
    answer: dashboardCounts,
    errors: [ERR.dashboardLookup],
    failure: ERR.dashboardLookup,
  }),
} as const;
