import { and, asc, eq, exists, inArray, lt, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_LIMITS } from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import type { Db, Tx } from '../db/client.js';
import { Drains } from '../db/drains.js';
import { projects, users, webhookDeliveries, webhookEndpoints } from '../db/schema.js';
import { isAppError } from '../http/errors.js';
import { notifyEndpointDisabled } from './disabled.js';
import { checkWebhookTarget, systemResolver, type CheckedTarget, type Resolver } from './address.js';
import { mayStillReceive } from './policy.js';
import { postWebhook, type SendOutcome } from './send.js';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** What tests change: the clock (retries due, the retry window), the resolver, and how often and how long. */
export interface WebhookDelivererOptions {
  now?: () => Date;
  resolve?: Resolver;
  pollMs?: number;
  leaseMs?: number;
  timeoutMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  retryWindowMs?: number;
  batch?: number;
}

export interface WebhookDelivererDeps {
  db: Db;
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
  /** The operator's WEBHOOKS_ALLOW_LOCAL: private, loopback and link-local addresses, and http:// to loopback. */
  allowLocal: boolean;
}

const WITHHELD = 'not sent: the endpoint’s owner may no longer receive this project’s events';

/**
 * The webhook sender every server process runs (the mail outbox's shape, mail/outbox.ts). A pass claims
 * the first waiting delivery of each endpoint that has one due (`FOR UPDATE SKIP LOCKED`; a delivery is
 * only due once every earlier one of its endpoint is done: in order per endpoint) and marks it `sending`
 * for a lease; each is then sent on its own, so that a slow receiver holds up only its own endpoint. A
 * process killed at any point leaves its deliveries pending or claimed: another sends them once the lease
 * ends (at least once). A failed try waits twice as long as the one before; a delivery still failing a
 * whole retry window after its first try fails, its endpoint is turned off and its owner told.
 */
export class WebhookDeliverer {
  private readonly drains = new Drains(
    () => this.drain(),
    (error: unknown) => this.deps.log.error({ err: error }, 'webhook delivery failed'),
  );
  private readonly now: () => Date;
  private readonly resolve: Resolver;
  private readonly limits: Required<Omit<WebhookDelivererOptions, 'now' | 'resolve'>>;
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly deps: WebhookDelivererDeps,
    options: WebhookDelivererOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.resolve = options.resolve ?? systemResolver;
    this.limits = {
      pollMs: options.pollMs ?? WEBHOOK_LIMITS.pollMs,
      leaseMs: options.leaseMs ?? WEBHOOK_LIMITS.leaseSeconds * 1000,
      timeoutMs: options.timeoutMs ?? WEBHOOK_LIMITS.timeoutSeconds * 1000,
      retryBaseMs: options.retryBaseMs ?? WEBHOOK_LIMITS.retryBaseSeconds * 1000,
      retryMaxMs: options.retryMaxMs ?? WEBHOOK_LIMITS.retryMaxSeconds * 1000,
      retryWindowMs: options.retryWindowMs ?? WEBHOOK_LIMITS.retryWindowHours * 3600 * 1000,
      batch: options.batch ?? WEBHOOK_LIMITS.batch,
    };
  }

  /** An endpoint's address as registered or delivered to: https, public addresses only unless the operator allows local ones. */
  checkTarget(url: string): Promise<CheckedTarget> {
    return checkWebhookTarget(url, this.deps.allowLocal, this.resolve);
  }

  start(): void {
    this.stopping = false;
    this.drains.start(this.limits.pollMs);
  }

  /** Claims nothing more; the tries under way end (their timeout bounds them). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.drains.stop();
    await Promise.all([...this.inFlight]);
  }

  /** Looks for due deliveries now. */
  kick(): void {
    this.drains.kick();
  }

  /** Passes until nothing due is left and no try is under way (tests). */
  async flush(): Promise<void> {
    for (;;) {
      // A try that ends kicks a pass (its endpoint's next delivery is due): wait for that pass too.
      this.drains.kick();
      await this.drains.idle();
      if (this.inFlight.size === 0 && !(await this.hasDue())) return;
      await Promise.all([...this.inFlight]);
    }
  }

  /** The wait after the try numbered `attempts` failed. */
  retryDelayMs(attempts: number): number {
    return Math.min(this.limits.retryBaseMs * 2 ** Math.max(0, attempts - 1), this.limits.retryMaxMs);
  }

  private async drain(): Promise<void> {
    if (this.stopping) return;
    const room = this.limits.batch - this.inFlight.size;
    if (room <= 0) return;
    const claimed = await this.claim(this.now(), room);
    for (const row of claimed) {
      const sending: Promise<void> = this.deliver(row)
        .catch((error: unknown) => this.deps.log.error({ err: error, deliveryId: row.deliveryId }, 'webhook delivery failed'))
        .finally(() => {
          this.inFlight.delete(sending);
          this.drains.kick();
        });
      this.inFlight.add(sending);
    }
  }

  private async hasDue(): Promise<boolean> {
    return (await this.dueDeliveries(this.deps.db, this.now(), 1)).length > 0;
  }

  /**
   * The first waiting delivery of each active endpoint, when due: pending ones whose time has come, and
   * `sending` ones whose process let the lease run out. A later delivery of an endpoint is never due while
   * an earlier one waits or is being sent.
   */
  private dueDeliveries(q: Db | Tx, now: Date, limit: number) {
    const earlier = alias(webhookDeliveries, 'earlier');
    return q
      .select({ deliveryId: webhookDeliveries.deliveryId })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, and(eq(webhookEndpoints.endpointId, webhookDeliveries.endpointId), eq(webhookEndpoints.active, true)))
      .where(
        and(
          inArray(webhookDeliveries.status, ['pending', 'sending']),
          lte(webhookDeliveries.nextAttemptAt, now),
          sql`not ${exists(
            q
              .select({ one: sql`1` })
              .from(earlier)
              .where(
                and(
                  eq(earlier.endpointId, webhookDeliveries.endpointId),
                  inArray(earlier.status, ['pending', 'sending']),
                  lt(earlier.deliveryId, webhookDeliveries.deliveryId),
                ),
              ),
          )}`,
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit);
  }

  /** Locks the due deliveries (SKIP LOCKED: those another process is claiming are passed over), then marks them, in one transaction. */
  private async claim(now: Date, room: number): Promise<DeliveryRow[]> {
    const leaseEnd = new Date(now.getTime() + this.limits.leaseMs);
    return this.deps.db.transaction(async (tx) => {
      const due = await this.dueDeliveries(tx, now, room).for('update', { of: webhookDeliveries, skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(webhookDeliveries)
        .set({
          status: 'sending',
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          nextAttemptAt: leaseEnd,
          claimedUntil: leaseEnd,
          firstAttemptAt: sql`coalesce(${webhookDeliveries.firstAttemptAt}, ${now.toISOString()}::timestamptz)`,
        })
        .where(
          inArray(
            webhookDeliveries.deliveryId,
            due.map((row) => row.deliveryId),
          ),
        )
        .returning();
    });
  }

  /** This process's claim on a delivery: still `sending`, with the try count it set. */
  private held(row: DeliveryRow) {
    return and(
      eq(webhookDeliveries.deliveryId, row.deliveryId),
      eq(webhookDeliveries.status, 'sending'),
      eq(webhookDeliveries.attempts, row.attempts),
    );
  }

  private async deliver(row: DeliveryRow): Promise<void> {
    const { db } = this.deps;
    const [found] = await db
      .select({
        endpoint: webhookEndpoints,
        owner: { userNo: users.userNo, level: users.level, active: users.active },
        leaderUserNo: projects.leaderUserNo,
      })
      .from(webhookEndpoints)
      .innerJoin(users, eq(users.userNo, webhookEndpoints.ownerUserNo))
      .leftJoin(projects, eq(projects.projectNo, webhookEndpoints.projectNo))
      .where(eq(webhookEndpoints.endpointId, row.endpointId));
    if (!found) return; // deleted meanwhile, with its deliveries
    const { endpoint, owner } = found;
    if (!endpoint.active) {
      // Turned off meanwhile: it waits, its try not counted, until the endpoint is on again.
      await db
        .update(webhookDeliveries)
        .set({ status: 'pending', attempts: row.attempts - 1, claimedUntil: null, nextAttemptAt: this.now() })
        .where(this.held(row));
      return;
    }
    if (!mayStillReceive(owner, { projectNo: endpoint.projectNo, leaderUserNo: found.leaderUserNo })) {
      await db.update(webhookDeliveries).set({ status: 'withheld', claimedUntil: null, lastError: WITHHELD }).where(this.held(row));
      return;
    }
    const attemptAt = this.now();
    let outcome: SendOutcome;
    try {
      const target = await this.checkTarget(endpoint.url);
      const body = JSON.stringify({ type: row.event, timestamp: attemptAt.toISOString(), data: row.payload });
      const headers = new Webhook(endpoint.secret).sign(row.messageId, attemptAt, body);
      outcome = await postWebhook(
        target,
        { 'webhook-id': row.messageId, 'webhook-timestamp': String(Math.floor(attemptAt.getTime() / 1000)), 'webhook-signature': headers },
        body,
        this.limits.timeoutMs,
      );
    } catch (error) {
      if (!isAppError(error)) throw error;
      // The address no longer passes the SSRF check (it resolves elsewhere now): a failed try, nothing sent.
      outcome = { ok: false, status: null, latencyMs: 0, error: `refused: ${error.code} ${JSON.stringify(error.options.params ?? {})}` };
    }
    const tried = {
      lastStatus: outcome.status,
      lastLatencyMs: outcome.latencyMs,
      lastResponse: 'excerpt' in outcome ? outcome.excerpt : null,
      lastError: 'error' in outcome ? outcome.error : outcome.ok ? null : `HTTP ${outcome.status}`,
      lastAttemptAt: attemptAt,
      claimedUntil: null,
    };
    if (outcome.ok) {
      const [marked] = await db
        .update(webhookDeliveries)
        .set({ ...tried, status: 'delivered', deliveredAt: this.now() })
        .where(this.held(row))
        .returning({ deliveryId: webhookDeliveries.deliveryId });
      if (!marked)
        this.deps.log.warn({ deliveryId: row.deliveryId }, 'webhook delivered after its lease ran out (another process may send it too)');
      return;
    }
    this.deps.log.warn(
      { deliveryId: row.deliveryId, endpointId: row.endpointId, attempts: row.attempts, error: tried.lastError },
      'webhook not delivered',
    );
    const firstTry = row.firstAttemptAt ?? attemptAt;
    const now = this.now();
    if (now.getTime() - firstTry.getTime() < this.limits.retryWindowMs) {
      await db
        .update(webhookDeliveries)
        // The wait counts from the try's start (never before now): the log shows each wait as it was meant.
        .set({
          ...tried,
          status: 'pending',
          nextAttemptAt: new Date(Math.max(now.getTime(), attemptAt.getTime() + this.retryDelayMs(row.attempts))),
        })
        .where(this.held(row));
      return;
    }
    await db.transaction(async (tx) => {
      const [failed] = await tx
        .update(webhookDeliveries)
        .set({ ...tried, status: 'failed' })
        .where(this.held(row))
        .returning({ deliveryId: webhookDeliveries.deliveryId });
      if (!failed) return;
      const reason = `delivery ${row.deliveryId} (${row.messageId}) failed for ${Math.round(this.limits.retryWindowMs / 3_600_000)} h: ${tried.lastError ?? ''}`;
      const [disabled] = await tx
        .update(webhookEndpoints)
        .set({ active: false, disabledReason: reason.slice(0, WEBHOOK_LIMITS.responseExcerptChars), updatedAt: now })
        .where(and(eq(webhookEndpoints.endpointId, endpoint.endpointId), eq(webhookEndpoints.active, true)))
        .returning({ endpointId: webhookEndpoints.endpointId });
      if (!disabled) return;
      await appendAudit(tx, {
        actor: null,
        action: 'webhook.disabled',
        target: { type: 'webhook', id: endpoint.endpointId },
        before: { active: true },
        after: { active: false, deliveryId: row.deliveryId, attempts: row.attempts, lastError: tried.lastError },
      });
      await notifyEndpointDisabled(tx, {
        endpointId: endpoint.endpointId,
        ownerUserNo: owner.userNo,
        projectNo: endpoint.projectNo,
        url: endpoint.url,
      });
    });
  }
}
