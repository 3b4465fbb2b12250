import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { retryMail } from './commands/retryMail.js';
import { listMails } from './queries.js';

/** The mail outbox, for administrators: what was not delivered, and sending it again. */
export function mailRoutes(services: Services) {
  return bindCalls(api.mail, {
    list: ({ body }) => listMails(services.db, body),
    retry: ({ body, actor }) => retryMail(services, actor, body),
  });
}
