import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { createWebhook, deleteWebhook, rotateWebhookSecret, updateWebhook } from './commands/manageEndpoints.js';
import { redeliverWebhook } from './commands/redeliver.js';
import { listDeliveries, listEndpoints } from './queries.js';

/** Webhook endpoints and their delivery logs: administrators, and project leaders for their projects. */
export function webhookRoutes(services: Services) {
  return bindCalls(api.webhooks, {
    list: ({ body, actor }) => listEndpoints(services.db, actor.user, body),
    create: ({ body, actor }) => createWebhook(services, actor, body),
    update: ({ body, actor }) => updateWebhook(services, actor, body),
    delete: ({ body, actor }) => deleteWebhook(services, actor, body),
    rotateSecret: ({ body, actor }) => rotateWebhookSecret(services, actor, body),
    deliveries: ({ body, actor }) => listDeliveries(services.db, actor.user, body),
    redeliver: ({ body, actor }) => redeliverWebhook(services, actor, body),
  });
}
