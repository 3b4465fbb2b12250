import { eq } from 'drizzle-orm';
import { ERR, type api, type CallAnswer, type CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { webhookDeliveries } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canRedeliver, REDELIVER_REFUSALS } from '../policy.js';
import { findEndpoint, toDeliveryRow } from '../queries.js';

/**
 * "Send again": the event is queued anew for its endpoint, after what already waits for it (order per
 * endpoint holds), with the same `webhook-id`, so a receiver that kept the first copy can tell. The log
 * keeps the first delivery as it was. Checked again when it goes, as every delivery is.
 */
export async function redeliverWebhook(
  { db, webhooks }: Services,
  actor: Actor,
  input: CallRequest<typeof api.webhooks.redeliver>,
): Promise<CallAnswer<typeof api.webhooks.redeliver>> {
  const [original] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.deliveryId, input.deliveryId));
  if (!original) throw new AppError(ERR.webhookDeliveryMissing);
  try {
    await findEndpoint(db, actor.user, original.endpointId);
  } catch (error) {
    throw error instanceof AppError && error.code === ERR.webhookMissing ? new AppError(ERR.webhookDeliveryMissing) : error;
  }
  const queued = await db.transaction(async (tx) => {
    const [current] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.deliveryId, input.deliveryId)).for('update');
    if (!current) throw new AppError(ERR.webhookDeliveryMissing);
    enforce(canRedeliver(current), REDELIVER_REFUSALS);
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({
        endpointId: current.endpointId,
        messageId: current.messageId,
        event: current.event,
        projectNo: current.projectNo,
        noteNo: current.noteNo,
        payload: current.payload,
      })
      .returning();
    if (!row) throw new Error('delivery insert returned nothing');
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'webhook.redelivered',
      target: { type: 'webhook', id: current.endpointId },
      before: { deliveryId: current.deliveryId, status: current.status, attempts: current.attempts, lastError: current.lastError },
      after: { deliveryId: row.deliveryId, messageId: row.messageId, event: row.event },
    });
    return row;
  });
  webhooks.kick();
  return { delivery: toDeliveryRow(queued) };
}
