import { randomUUID } from 'node:crypto';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { WebhookEvent } from '@eln/shared';
import type { Tx } from '../db/client.js';
import { webhookDeliveries, webhookEndpoints } from '../db/schema.js';

/** The channel a commit with new deliveries notifies (pg_notify): every process's deliverer looks at once. */
export const WEBHOOK_CHANNEL = 'eln_webhooks';

/** One event as endpoints are sent it: what it names, and its `data` (ids and what changed, never content). */
export interface WebhookEventDraft {
  event: WebhookEvent;
  /** The project it happened in (null: notebook-wide, for administrators' endpoints only). */
  projectNo: number | null;
  noteNo?: number | null;
  data: Record<string, unknown>;
}

/**
 * Writes one outbox row per active endpoint that chose the event and whose scope covers it, in the
 * transaction of the change it tells of: committed together, or not at all. Every process's deliverer
 * looks for it as the commit notifies WEBHOOK_CHANNEL, and sends it (deliverer.ts). One message id per event, kept by every endpoint's copy and every try;
 * answered (null when no endpoint is sent the event).
 */
export async function emitWebhook(tx: Tx, draft: WebhookEventDraft): Promise<string | null> {
  const scope =
    draft.projectNo === null
      ? isNull(webhookEndpoints.projectNo)
      : or(isNull(webhookEndpoints.projectNo), eq(webhookEndpoints.projectNo, draft.projectNo));
  const endpoints = await tx
    .select({ endpointId: webhookEndpoints.endpointId })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.active, true), scope, sql`${webhookEndpoints.events} @> ${JSON.stringify([draft.event])}::jsonb`));
  if (endpoints.length === 0) return null;
  const messageId = `msg_${randomUUID().replaceAll('-', '')}`;
  await tx.insert(webhookDeliveries).values(
    endpoints.map(({ endpointId }) => ({
      endpointId,
      messageId,
      event: draft.event,
      projectNo: draft.projectNo,
      noteNo: draft.noteNo ?? null,
      payload: draft.data,
    })),
  );
  // Delivered to the listening processes when (and only if) the change commits.
  await tx.execute(sql`select pg_notify(${WEBHOOK_CHANNEL}, '')`);
  return messageId;
}
