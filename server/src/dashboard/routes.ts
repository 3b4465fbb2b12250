import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { dashboardCounts } from './queries.js';

/** The dashboard's counts. */
export function dashboardRoutes(services: Services) {
  return bindCalls(api.dashboard, {
    counts: ({ user }) => dashboardCounts(services.db, user),
  });
}
