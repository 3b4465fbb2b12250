import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { search } from './queries.js';

/** Search across what the caller may read. */
export function searchRoutes({ db, config }: Services) {
  return bindCalls(api.search, {
    search: ({ body, user }) => search(db, user, body, config.timeZone),
  });
}
