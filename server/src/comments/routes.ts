import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { deleteComment, updateComment } from './commands/changeComment.js';
import { createComment } from './commands/createComment.js';
import { setThreadResolved } from './commands/resolveThread.js';
import { listThreads, readersOf, requirePlace } from './queries.js';

/** Comment threads on notes and template drafts: list, the people to mention, and their changes. */
export function commentRoutes(services: Services) {
  return bindCalls(api.comments, {
    list: async ({ body, user }) => {
      const place = await requirePlace(services.db, user, body);
      return listThreads(services.db, user, place, () => services.live.document(place.documentName));
    },
    mentionable: async ({ body, user }) => {
      const place = await requirePlace(services.db, user, body);
      return { list: (await readersOf(services.db, place, true)).map(({ userId, name }) => ({ userId, name })) };
    },
    create: ({ body, actor }) => createComment(services, actor, body),
    update: ({ body, actor }) => updateComment(services, actor, body),
    resolve: ({ body, actor }) => setThreadResolved(services, actor, body, true),
    reopen: ({ body, actor }) => setThreadResolved(services, actor, body, false),
    delete: ({ body, actor }) => deleteComment(services, actor, body),
  });
}
