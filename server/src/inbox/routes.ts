import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { inboxSection } from './queries.js';

/** The home: one section of what waits for the caller and what happened in their projects at a time. */
export function inboxRoutes({ db }: Services) {
  return bindCalls(api.inbox, {
    section: ({ body, user }) => inboxSection(db, user, body),
  });
}
