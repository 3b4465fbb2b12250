import { count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import {
  ERR,
  type api,
  type CallAnswer,
  type CallRequest,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  type WebhookEvent,
  type WebhookListAnswer,
} from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { offsetOf } from '../db/paging.js';
import { projects, users, webhookDeliveries, webhookEndpoints } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { enforce } from '../http/verdicts.js';
import { canManageWebhooks, canRedeliver, ENDPOINT_REFUSALS, MANAGE_REFUSALS, type WebhookScope } from './policy.js';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** Whether an endpoint's previous secret still signs at `at` (the overlap after a rotation). */
export function previousSecretSigns(
  endpoint: { previousSecret: string | null; previousSecretUntil: Date | null },
  at: Date,
): endpoint is { previousSecret: string; previousSecretUntil: Date } {
  return endpoint.previousSecret !== null && endpoint.previousSecretUntil !== null && endpoint.previousSecretUntil > at;
}
type Caller = Pick<AuthUser, 'userNo' | 'level'>;

/** A scope as the rules see it: the whole notebook, or a project with its leader (404 when there is no such project). */
export async function scopeOf(q: Queryable, projectNo: number | null): Promise<WebhookScope> {
  if (projectNo === null) return { projectNo: null, leaderUserNo: null };
  const [project] = await q.select({ leaderUserNo: projects.leaderUserNo }).from(projects).where(eq(projects.projectNo, projectNo));
  if (!project) throw new AppError(ERR.notFound);
  return { projectNo, leaderUserNo: project.leaderUserNo };
}

const countOf = (statuses: SQL) =>
  sql<number>`(select count(*)::int from ${webhookDeliveries} where ${webhookDeliveries.endpointId} = ${webhookEndpoints.endpointId} and ${webhookDeliveries.status} in ${statuses})`;

function selectEndpoints(q: Queryable, where: SQL | undefined) {
  return q
    .select({
      endpoint: webhookEndpoints,
      projectTitle: projects.title,
      leaderUserNo: projects.leaderUserNo,
      ownerName: users.name,
      pendingCount: countOf(sql`('pending', 'sending')`),
      failedCount: countOf(sql`('failed')`),
    })
    .from(webhookEndpoints)
    .innerJoin(users, eq(users.userNo, webhookEndpoints.ownerUserNo))
    .leftJoin(projects, eq(projects.projectNo, webhookEndpoints.projectNo))
    .where(where)
    .orderBy(webhookEndpoints.endpointId);
}

type SelectedEndpoint = Awaited<ReturnType<typeof selectEndpoints>>[number];

const scopeOfRow = (row: SelectedEndpoint): WebhookScope => ({ projectNo: row.endpoint.projectNo, leaderUserNo: row.leaderUserNo });

function toEndpointRow(user: Caller, row: SelectedEndpoint): WebhookEndpointRow {
  const { endpoint } = row;
  const manage = canManageWebhooks(user, scopeOfRow(row)) === 'allowed';
  return {
    endpointId: endpoint.endpointId,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events as WebhookEvent[],
    projectNo: endpoint.projectNo,
    projectTitle: row.projectTitle,
    owner: { userNo: endpoint.ownerUserNo, name: row.ownerName },
    active: endpoint.active,
    disabledReason: endpoint.disabledReason,
    previousSecretUntil: previousSecretSigns(endpoint, new Date()) ? iso(endpoint.previousSecretUntil) : null,
    pendingCount: Number(row.pendingCount),
    failedCount: Number(row.failedCount),
    createdAt: endpoint.createdAt.toISOString(),
    abilities: { update: manage, delete: manage },
  };
}

/** One endpoint as its manager sees it: 404 when it does not exist or the caller may not manage it. */
export async function findEndpoint(q: Queryable, user: Caller, endpointId: number): Promise<WebhookEndpointRow> {
  const [row] = await selectEndpoints(q, eq(webhookEndpoints.endpointId, endpointId));
  if (!row) throw new AppError(ERR.webhookMissing);
  enforce(canManageWebhooks(user, scopeOfRow(row)), ENDPOINT_REFUSALS);
  return toEndpointRow(user, row);
}

/** Every endpoint (administrators), or one project's (its leader or an administrator). */
export async function listEndpoints(q: Queryable, user: Caller, input: CallRequest<typeof api.webhooks.list>): Promise<WebhookListAnswer> {
  const scope = await scopeOf(q, input.projectNo ?? null);
  enforce(canManageWebhooks(user, scope), MANAGE_REFUSALS);
  const rows = await selectEndpoints(q, scope.projectNo === null ? undefined : eq(webhookEndpoints.projectNo, scope.projectNo));
  return { list: rows.map((row) => toEndpointRow(user, row)), abilities: { create: true } };
}

export function toDeliveryRow(row: typeof webhookDeliveries.$inferSelect): WebhookDeliveryRow {
  const underway = row.status === 'pending' || row.status === 'sending';
  return {
    deliveryId: row.deliveryId,
    messageId: row.messageId,
    event: row.event as WebhookEvent,
    status: row.status,
    attempts: row.attempts,
    lastStatus: row.lastStatus,
    lastLatencyMs: row.lastLatencyMs,
    lastResponse: row.lastResponse,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: iso(row.lastAttemptAt),
    nextAttemptAt: underway ? row.nextAttemptAt.toISOString() : null,
    deliveredAt: iso(row.deliveredAt),
    abilities: { redeliver: canRedeliver(row) === 'allowed' },
  };
}

/** An endpoint's delivery log, newest first. */
export async function listDeliveries(
  q: Queryable,
  user: Caller,
  input: CallRequest<typeof api.webhooks.deliveries>,
): Promise<CallAnswer<typeof api.webhooks.deliveries>> {
  await findEndpoint(q, user, input.endpointId);
  const where = eq(webhookDeliveries.endpointId, input.endpointId);
  const rows = await q
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.deliveryId))
    .limit(input.pageSize)
    .offset(offsetOf(input));
  const [total] = await q.select({ n: count() }).from(webhookDeliveries).where(where);
  return { list: rows.map(toDeliveryRow), totalCount: Number(total?.n ?? 0) };
}

/** Endpoints in a scope (the limit per scope). */
export async function endpointsInScope(q: Queryable, projectNo: number | null): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(projectNo === null ? isNull(webhookEndpoints.projectNo) : eq(webhookEndpoints.projectNo, projectNo));
  return Number(row?.n ?? 0);
}
