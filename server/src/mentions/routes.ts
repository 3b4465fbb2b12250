import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { mentionCandidates, mentionedPeople } from './queries.js';

/** Mentions in a note: whom `@` offers, and the people a note's mentions name. */
export function mentionRoutes({ db }: Services) {
  return bindCalls(api.mentions, {
    candidates: ({ body, user }) => mentionCandidates(db, user, body),
    people: ({ body, user }) => mentionedPeople(db, user, body),
  });
}
