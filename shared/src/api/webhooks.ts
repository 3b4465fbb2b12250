import { z } from 'zod';
import { ERR } from '../errors.js';
import { PAGING, WEBHOOK_LIMITS } from '../limits.js';
import { optionalText, recordNo, text } from '../validation.js';
import { defineCall } from './call.js';
import { listAnswer } from './paging.js';

/*
 * Webhooks (server/src/webhooks): administrators (every event) and project leaders (their project's
 * events) register endpoints; each event is posted to them signed by the Standard Webhooks scheme
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`), from a durable outbox, in order per endpoint.
 */

/** What an endpoint may be sent. The last two tell of no project: administrators' endpoints only. */
export const WEBHOOK_EVENTS = [
  'note.created',
  'note.versionSaved',
  'signature.requested',
  'signature.given',
  'signature.removed',
  'project.closed',
  'template.approved',
  'export.finished',
  'user.deactivated',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Events that name no project, so a project's endpoint is never sent them. */
export const NOTEBOOK_WIDE_WEBHOOK_EVENTS: readonly WebhookEvent[] = ['template.approved', 'user.deactivated'];

/**
 * Where a delivery is: waiting (`pending`, also between tries), being sent (`sending`), `delivered` (a 2xx
 * answer), `failed` (its retry window ran out) or `withheld`: not sent, as the endpoint's owner may no
 * longer read what it tells of.
 */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed', 'withheld'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

const endpointId = z.number().int().positive().max(2_147_483_647);
const deliveryId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const url = text().trim().min(1, { error: 'required' }).max(WEBHOOK_LIMITS.urlMaxChars);
const events = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1, { error: 'required' })
  .max(WEBHOOK_EVENTS.length)
  .refine((list) => new Set(list).size === list.length, { error: 'duplicate' });

export const webhookListRequest = z.strictObject({
  /** A project's endpoints (its leader, or an administrator); absent: every endpoint (administrators). */
  projectNo: recordNo.optional(),
});

export const webhookCreateRequest = z.strictObject({
  url,
  description: optionalText(WEBHOOK_LIMITS.descriptionMaxChars),
  events,
  /** The project whose events it is sent; absent: every event (administrators only). */
  projectNo: recordNo.optional(),
  active: z.boolean().default(true),
});
export type WebhookCreateInput = z.input<typeof webhookCreateRequest>;

export const webhookUpdateRequest = z.strictObject({
  endpointId,
  url: url.optional(),
  description: text().trim().max(WEBHOOK_LIMITS.descriptionMaxChars).optional(),
  events: events.optional(),
  /** Turning an endpoint on again sends what waited for it, in order. */
  active: z.boolean().optional(),
});
export type WebhookUpdateInput = z.input<typeof webhookUpdateRequest>;

export const webhookEndpointRow = z.strictObject({
  endpointId: z.number(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  projectNo: z.number().nullable(),
  projectTitle: z.string().nullable(),
  owner: z.strictObject({ userNo: z.number(), name: z.string() }),
  active: z.boolean(),
  /** Why the server turned it off (its deliveries failed for a whole retry window). */
  disabledReason: z.string().nullable(),
  /** After a new secret: until when the one before still signs beside it (null: only the current one signs). */
  previousSecretUntil: z.string().nullable(),
  /** Deliveries waiting, and those that failed. */
  pendingCount: z.number(),
  failedCount: z.number(),
  createdAt: z.string(),
  abilities: z.strictObject({ update: z.boolean(), delete: z.boolean() }),
});
export type WebhookEndpointRow = z.infer<typeof webhookEndpointRow>;

export const webhookListAnswer = z.strictObject({
  list: z.array(webhookEndpointRow),
  abilities: z.strictObject({ create: z.boolean() }),
});
export type WebhookListAnswer = z.infer<typeof webhookListAnswer>;

export const webhookDeliveryRow = z.strictObject({
  deliveryId: z.number(),
  /** The `webhook-id` it is sent with (the same on every try, and when sent again). */
  messageId: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  /** The last try: the receiver's HTTP status (null: no answer), its time in ms, the start of its answer, or the error. */
  lastStatus: z.number().nullable(),
  lastLatencyMs: z.number().nullable(),
  lastResponse: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  abilities: z.strictObject({ redeliver: z.boolean() }),
});
export type WebhookDeliveryRow = z.infer<typeof webhookDeliveryRow>;

export const webhookDeliveriesRequest = z.strictObject({
  endpointId,
  page: z.coerce.number().int().min(1).max(1_000_000).default(PAGING.startPage),
  pageSize: z.coerce.number().int().min(1).max(PAGING.maxPageSize).default(PAGING.defaultPageSize),
});

const ENDPOINT_ERRORS = [ERR.forbidden, ERR.notFound, ERR.webhookMissing];
const URL_ERRORS = [ERR.webhookUrlInvalid, ERR.webhookUrlPrivate, ERR.webhookUrlUnresolvable];

/** The webhook endpoints and their delivery logs (server/src/webhooks). */
export const webhookCalls = {
  list: defineCall({
    path: '/v1/webhook/list',
    auth: 'user',
    kind: 'query',
    summary: 'Webhook endpoints: every one (administrators), or a project’s (its leader), with what each may do.',
    request: webhookListRequest,
    answer: webhookListAnswer,
    errors: [ERR.forbidden, ERR.notFound, ERR.webhookLookup],
    failure: ERR.webhookLookup,
  }),
  create: defineCall({
    path: '/v1/webhook/create',
    auth: 'user',
    kind: 'command',
    summary: 'Registers an endpoint; answers its signing secret (`whsec_…`) this once (audited).',
    request: webhookCreateRequest,
    answer: z.strictObject({ endpoint: webhookEndpointRow, secret: z.string() }),
    errors: [ERR.forbidden, ERR.notFound, ...URL_ERRORS, ERR.webhookTooMany, ERR.webhookProjectEvents],
    failure: ERR.webhookSaveFailed,
  }),
  update: defineCall({
    path: '/v1/webhook/update',
    auth: 'user',
    kind: 'command',
    summary: 'Changes an endpoint’s address, description, events, or turns it off or on (audited).',
    request: webhookUpdateRequest,
    answer: z.strictObject({ endpoint: webhookEndpointRow }),
    errors: [...ENDPOINT_ERRORS, ...URL_ERRORS, ERR.webhookProjectEvents],
    failure: ERR.webhookSaveFailed,
  }),
  delete: defineCall({
    path: '/v1/webhook/delete',
    auth: 'user',
    kind: 'command',
    summary: 'Deletes an endpoint with its deliveries, sent or waiting (audited).',
    request: z.strictObject({ endpointId }),
    answer: z.null(),
    errors: ENDPOINT_ERRORS,
    failure: ERR.webhookSaveFailed,
  }),
  deliveries: defineCall({
    path: '/v1/webhook/deliveries',
    auth: 'user',
    kind: 'query',
    summary: 'An endpoint’s delivery log, newest first: status, tries, the last answer’s status, time and first characters.',
    request: webhookDeliveriesRequest,
    answer: listAnswer(webhookDeliveryRow),
    errors: [...ENDPOINT_ERRORS, ERR.webhookLookup],
    failure: ERR.webhookLookup,
  }),
  rotateSecret: defineCall({
    path: '/v1/webhook/secret/rotate',
    auth: 'user',
    kind: 'command',
    summary:
      'Makes an endpoint a new signing secret, answered this once; the one before still signs beside it for a day (two signatures in `webhook-signature`), while the receiver changes over (audited).',
    request: z.strictObject({ endpointId }),
    answer: z.strictObject({ endpoint: webhookEndpointRow, secret: z.string() }),
    errors: ENDPOINT_ERRORS,
    failure: ERR.webhookSaveFailed,
  }),
  redeliver: defineCall({
    path: '/v1/webhook/redeliver',
    auth: 'user',
    kind: 'command',
    summary: 'Sends a delivered, failed or withheld event again, after what already waits for its endpoint (audited).',
    request: z.strictObject({ deliveryId }),
    answer: z.strictObject({ delivery: webhookDeliveryRow }),
    errors: [ERR.forbidden, ERR.notFound, ERR.webhookDeliveryMissing, ERR.webhookDeliveryUnderway],
    failure: ERR.webhookSaveFailed,
  }),
} as const;
