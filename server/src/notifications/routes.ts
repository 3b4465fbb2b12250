import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { markRead } from './commands/markRead.js';
import { listNotifications } from './queries.js';

/** The bell: the caller's notifications, marking them read, and their live stream. */
export function notificationRoutes(services: Services) {
  return bindCalls(api.notifications, {
    list: ({ body, user }) => listNotifications(services.db, user, body),
    read: ({ body, actor }) => markRead(services, actor, body),
    stream: async ({ request, reply, user }) => services.notificationStreams.open(request, reply, user),
  });
}
