import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { ERR, WEBHOOK_LIMITS, type api, type CallAnswer, type CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { webhookEndpoints } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canChooseEvents, canManageWebhooks, EVENTS_REFUSALS, MANAGE_REFUSALS } from '../policy.js';
import { endpointsInScope, findEndpoint, scopeOf } from '../queries.js';

/** A new signing secret in the Standard Webhooks form: `whsec_` and the base64 of random bytes. */
const newSecret = () => `whsec_${randomBytes(WEBHOOK_LIMITS.secretBytes).toString('base64')}`;

/**
 * Registers an endpoint: for the whole notebook (administrators) or one project (its leader, or an
 * administrator). Its address is checked (https, resolving to public addresses only; SSRF) before anything
 * is stored. Answers the signing secret this once; the audit record never holds it.
 */
export async function createWebhook(
  { db, webhooks }: Services,
  actor: Actor,
  input: CallRequest<typeof api.webhooks.create>,
): Promise<CallAnswer<typeof api.webhooks.create>> {
  const scope = await scopeOf(db, input.projectNo ?? null);
  enforce(canManageWebhooks(actor.user, scope), MANAGE_REFUSALS);
  enforce(canChooseEvents(scope, input.events), EVENTS_REFUSALS);
  await webhooks.checkTarget(input.url);
  const secret = newSecret();
  const endpointId = await db.transaction(async (tx) => {
    // The scope's count is taken under a lock on its endpoints, so two registrations cannot both pass the limit.
    await tx.execute(sqlLockScope(scope.projectNo));
    if ((await endpointsInScope(tx, scope.projectNo)) >= WEBHOOK_LIMITS.maxPerScope)
      throw new AppError(ERR.webhookTooMany, { params: { max: WEBHOOK_LIMITS.maxPerScope } });
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({
        url: input.url,
        description: input.description,
        events: input.events,
        projectNo: scope.projectNo,
        ownerUserNo: actor.user.userNo,
        secret,
        active: input.active,
      })
      .returning({ endpointId: webhookEndpoints.endpointId });
    if (!created) throw new Error('webhook insert returned nothing');
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'webhook.created',
      target: { type: 'webhook', id: created.endpointId },
      after: { url: input.url, events: input.events, projectNo: scope.projectNo, active: input.active },
    });
    return created.endpointId;
  });
  return { endpoint: await findEndpoint(db, actor.user, endpointId), secret };
}

/** A transaction-scoped advisory lock per scope (the whole notebook, or one project). */
function sqlLockScope(projectNo: number | null) {
  return sql`select pg_advisory_xact_lock(${WEBHOOK_SCOPE_LOCK}, ${projectNo ?? 0})`;
}
const WEBHOOK_SCOPE_LOCK = 5_201;

/**
 * Changes an endpoint's address (checked again), description or events, or turns it off or on. Turning it
 * on clears why the server turned it off; what waited for it is then sent, in order.
 */
export async function updateWebhook(
  { db, webhooks }: Services,
  actor: Actor,
  input: CallRequest<typeof api.webhooks.update>,
): Promise<CallAnswer<typeof api.webhooks.update>> {
  const current = await findEndpoint(db, actor.user, input.endpointId);
  const events = input.events ?? current.events;
  enforce(canChooseEvents(current, events), EVENTS_REFUSALS);
  if (input.url !== undefined && input.url !== current.url) await webhooks.checkTarget(input.url);
  const next = {
    url: input.url ?? current.url,
    description: input.description ?? current.description,
    events,
    active: input.active ?? current.active,
  };
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({ ...next, ...(next.active ? { disabledReason: null } : {}), updatedAt: new Date() })
      .where(eq(webhookEndpoints.endpointId, input.endpointId))
      .returning({ endpointId: webhookEndpoints.endpointId });
    if (!updated) throw new AppError(ERR.webhookMissing);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'webhook.updated',
      target: { type: 'webhook', id: input.endpointId },
      before: { url: current.url, description: current.description, events: current.events, active: current.active },
      after: next,
    });
  });
  if (next.active) webhooks.kick();
  return { endpoint: await findEndpoint(db, actor.user, input.endpointId) };
}

/**
 * Makes an endpoint a new signing secret, answered this once. The current one becomes the previous one and
 * still signs beside it for WEBHOOK_LIMITS.secretOverlapHours (Standard Webhooks: several signatures in one
 * header), so a receiver that changes over within that time never rejects a delivery. A rotation within the
 * overlap replaces the previous secret: the oldest stops signing at once.
 */
export async function rotateWebhookSecret(
  { db }: Services,
  actor: Actor,
  input: CallRequest<typeof api.webhooks.rotateSecret>,
  now = new Date(),
): Promise<CallAnswer<typeof api.webhooks.rotateSecret>> {
  await findEndpoint(db, actor.user, input.endpointId);
  const secret = newSecret();
  const previousSecretUntil = new Date(now.getTime() + WEBHOOK_LIMITS.secretOverlapHours * 3_600_000);
  await db.transaction(async (tx) => {
    const [rotated] = await tx
      .update(webhookEndpoints)
      .set({ previousSecret: sql`${webhookEndpoints.secret}`, previousSecretUntil, secret, updatedAt: now })
      .where(eq(webhookEndpoints.endpointId, input.endpointId))
      .returning({ endpointId: webhookEndpoints.endpointId });
    if (!rotated) throw new AppError(ERR.webhookMissing);
    // Neither secret is written to the audit trail: only that it changed, and until when the old one signs.
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'webhook.secretRotated',
      target: { type: 'webhook', id: input.endpointId },
      after: { previousSecretUntil: previousSecretUntil.toISOString() },
    });
  });
  return { endpoint: await findEndpoint(db, actor.user, input.endpointId), secret };
}

/** Deletes an endpoint with its delivery log and what still waited for it. */
export async function deleteWebhook({ db }: Services, actor: Actor, input: CallRequest<typeof api.webhooks.delete>): Promise<null> {
  const current = await findEndpoint(db, actor.user, input.endpointId);
  await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(webhookEndpoints)
      .where(eq(webhookEndpoints.endpointId, input.endpointId))
      .returning({ endpointId: webhookEndpoints.endpointId });
    if (!deleted) throw new AppError(ERR.webhookMissing);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'webhook.deleted',
      target: { type: 'webhook', id: input.endpointId },
      before: { url: current.url, events: current.events, projectNo: current.projectNo, active: current.active },
    });
  });
  return null;
}
