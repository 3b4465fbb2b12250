import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_LIMITS } from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import { rowsOf, type Database, type Db, type Tx } from '../db/client.js';
import { Drains } from '../db/drains.js';
import { projects, users, webhookDeliveries, webhookEndpoints } from '../db/schema.js';
import { isAppError } from '../http/errors.js';
import { notifyEndpointDisabled } from './disabled.js';
import { WEBHOOK_CHANNEL } from './emit.js';
import { checkWebhookTarget, systemResolver, type CheckedTarget, type Resolver } from './address.js';
import { mayStillReceive } from './policy.js';
import { previousSecretSigns } from './queries.js';
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
  /** Deliveries of one endpoint claimed and sent together, in order. */
  run?: number;
  /** Look at once when a commit notifies WEBHOOK_CHANNEL (default); off, only polls and kicks (tests that steer each pass). */
  onCommit?: boolean;
}

export interface WebhookDelivererDeps {
  db: Db;
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
  /** The operator's WEBHOOKS_ALLOW_LOCAL: private, loopback and link-local addresses, and http:// to loopback. */
  allowLocal: boolean;
  /** The database's pg_notify channels (Database.listen): new deliveries are looked for as their change commits. */
  listen?: Database['listen'];
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
  private readonly limits: Required<Omit<WebhookDelivererOptions, 'now' | 'resolve' | 'onCommit'>>;
  private readonly onCommit: boolean;
  private stopListening: (() => Promise<void>) | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;
  private readonly tally: WebhookTally = { delivered: 0, failed: 0 };

  constructor(
    private readonly deps: WebhookDelivererDeps,
    options: WebhookDelivererOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.resolve = options.resolve ?? systemResolver;
    this.onCommit = options.onCommit ?? true;
    this.limits = {
      pollMs: options.pollMs ?? WEBHOOK_LIMITS.pollMs,
      leaseMs: options.leaseMs ?? WEBHOOK_LIMITS.leaseSeconds * 1000,
      timeoutMs: options.timeoutMs ?? WEBHOOK_LIMITS.timeoutSeconds * 1000,
      retryBaseMs: options.retryBaseMs ?? WEBHOOK_LIMITS.retryBaseSeconds * 1000,
      retryMaxMs: options.retryMaxMs ?? WEBHOOK_LIMITS.retryMaxSeconds * 1000,
      retryWindowMs: options.retryWindowMs ?? WEBHOOK_LIMITS.retryWindowHours * 3600 * 1000,
      batch: options.batch ?? WEBHOOK_LIMITS.batch,
      run: options.run ?? WEBHOOK_LIMITS.run,
    };
  }

  /** An endpoint's address as registered or delivered to: https, public addresses only unless the operator allows local ones. */
  checkTarget(url: string): Promise<CheckedTarget> {
    return checkWebhookTarget(url, this.deps.allowLocal, this.resolve);
  }

  async start(): Promise<void> {
    this.stopping = false;
    this.drains.start(this.limits.pollMs);
    // Listening again after a lost connection looks at once too: a commit notified meanwhile was missed.
    if (this.onCommit && this.deps.listen)
      this.stopListening = await this.deps.listen(
        WEBHOOK_CHANNEL,
        () => this.kick(),
        () => this.kick(),
      );
  }

  /** Claims nothing more; the tries under way end (their timeout bounds them). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.stopListening?.().catch(() => undefined);
    this.stopListening = null;
    await this.drains.stop();
    await Promise.all([...this.inFlight]);
  }

  /** The tries this process has made since it started, by result (the operator's /metrics). */
  tries(): Readonly<WebhookTally> {
    return this.tally;
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
    for (const run of runsByEndpoint(claimed)) {
      const sending: Promise<void> = this.deliverRun(run)
        .catch((error: unknown) => this.deps.log.error({ err: error, endpointId: run[0]!.endpointId }, 'webhook delivery failed'))
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
   * an earlier one waits or is being sent. One index probe per endpoint (webhook_deliveries_queue_idx),
   * however many deliveries wait: a burst of ten thousand costs each pass what one does.
   */
  private dueDeliveries(q: Db | Tx, now: Date, limit: number) {
    const head = q
      .select({ deliveryId: webhookDeliveries.deliveryId, nextAttemptAt: webhookDeliveries.nextAttemptAt })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, webhookEndpoints.endpointId), inArray(webhookDeliveries.status, ['pending', 'sending'])))
      .orderBy(asc(webhookDeliveries.deliveryId))
      .limit(1)
      .as('head');
    return q
      .select({ deliveryId: head.deliveryId, endpointId: webhookEndpoints.endpointId })
      .from(webhookEndpoints)
      .innerJoinLateral(head, sql`true`)
      .where(and(eq(webhookEndpoints.active, true), lte(head.nextAttemptAt, now)))
      .orderBy(asc(head.nextAttemptAt))
      .limit(limit);
  }

  /**
   * Locks the due first deliveries (SKIP LOCKED: those another process is claiming are passed over) and,
   * behind each, up to a run of its endpoint's next ones (no other process can take those while the first
   * is held), then marks them all, in one transaction: one claim and one endpoint look-up for a run.
   */
  private async claim(now: Date, room: number): Promise<DeliveryRow[]> {
    const leaseEnd = new Date(now.getTime() + this.limits.leaseMs);
    return this.deps.db.transaction(async (tx) => {
      const due = await this.dueDeliveries(tx, now, room);
      if (due.length === 0) return [];
      // Locked as they are now: one another process claimed meanwhile is no longer due, one it is claiming is passed over.
      const heads = await tx
        .select({ deliveryId: webhookDeliveries.deliveryId, endpointId: webhookDeliveries.endpointId })
        .from(webhookDeliveries)
        .where(
          and(
            inArray(
              webhookDeliveries.deliveryId,
              due.map((row) => row.deliveryId),
            ),
            inArray(webhookDeliveries.status, ['pending', 'sending']),
            lte(webhookDeliveries.nextAttemptAt, now),
          ),
        )
        .for('update', { skipLocked: true });
      if (heads.length === 0) return [];
      const ids = heads.map((row) => row.deliveryId);
      for (const head of heads) {
        const next = await tx
          .select({
            deliveryId: webhookDeliveries.deliveryId,
            status: webhookDeliveries.status,
            claimedUntil: webhookDeliveries.claimedUntil,
          })
          .from(webhookDeliveries)
          .where(
            and(
              eq(webhookDeliveries.endpointId, head.endpointId),
              inArray(webhookDeliveries.status, ['pending', 'sending']),
              gt(webhookDeliveries.deliveryId, head.deliveryId),
            ),
          )
          .orderBy(asc(webhookDeliveries.deliveryId))
          .limit(this.limits.run - 1)
          .for('update', { skipLocked: true });
        // Behind the head, in order, as long as each is free: waiting, or claimed by a process whose lease
        // ran out (a dead process's run: skipping its rows would send the ones after them first).
        const free = (row: (typeof next)[number]) => row.status === 'pending' || (row.claimedUntil !== null && row.claimedUntil <= now);
        const stop = next.findIndex((row) => !free(row));
        ids.push(...(stop === -1 ? next : next.slice(0, stop)).map((row) => row.deliveryId));
      }
      return tx
        .update(webhookDeliveries)
        .set({
          status: 'sending',
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          nextAttemptAt: leaseEnd,
          claimedUntil: leaseEnd,
          firstAttemptAt: sql`coalesce(${webhookDeliveries.firstAttemptAt}, ${now.toISOString()}::timestamptz)`,
        })
        .where(inArray(webhookDeliveries.deliveryId, ids))
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

  /**
   * Sends a run of one endpoint's deliveries in order, each signed as it goes. The endpoint and its
   * owner's right are read, and its address checked (SSRF), once for the run. Deliveries that arrived are
   * marked together; the first that fails is tried again later (or fails for good), and the rest of the
   * run is released unsent, its tries not counted. A run stops, releasing the rest, before its lease
   * could run out.
   */
  private async deliverRun(run: DeliveryRow[]): Promise<void> {
    const { db } = this.deps;
    const first = run[0]!;
    const [found] = await db
      .select({
        endpoint: webhookEndpoints,
        owner: { userNo: users.userNo, level: users.level, active: users.active },
        leaderUserNo: projects.leaderUserNo,
      })
      .from(webhookEndpoints)
      .innerJoin(users, eq(users.userNo, webhookEndpoints.ownerUserNo))
      .leftJoin(projects, eq(projects.projectNo, webhookEndpoints.projectNo))
      .where(eq(webhookEndpoints.endpointId, first.endpointId));
    if (!found) return; // deleted meanwhile, with its deliveries
    const { endpoint, owner } = found;
    // Turned off meanwhile: the run waits, its tries not counted, until the endpoint is on again.
    if (!endpoint.active) return this.release(run);
    if (!mayStillReceive(owner, { projectNo: endpoint.projectNo, leaderUserNo: found.leaderUserNo })) {
      await db
        .update(webhookDeliveries)
        .set({ status: 'withheld', claimedUntil: null, lastError: WITHHELD })
        .where(
          and(
            inArray(
              webhookDeliveries.deliveryId,
              run.map((row) => row.deliveryId),
            ),
            eq(webhookDeliveries.status, 'sending'),
          ),
        );
      return;
    }
    let target: CheckedTarget | null = null;
    let refusal: string | null = null;
    try {
      target = await this.checkTarget(endpoint.url);
    } catch (error) {
      if (!isAppError(error)) throw error;
      // The address no longer passes the SSRF check (it resolves elsewhere now): a failed try, nothing sent.
      refusal = `refused: ${error.code} ${JSON.stringify(error.options.params ?? {})}`;
    }
    // After a rotation, both secrets sign for the overlap: a receiver with either verifies (Standard Webhooks).
    const signers = [endpoint.secret, ...(previousSecretSigns(endpoint, this.now()) ? [endpoint.previousSecret] : [])].map(
      (secret) => new Webhook(secret),
    );
    const stopBy = first.claimedUntil!.getTime() - this.limits.leaseMs / 2;
    const delivered: Array<{ row: DeliveryRow; tried: Tried }> = [];
    for (const [index, row] of run.entries()) {
      if (this.stopping || (index > 0 && this.now().getTime() > stopBy)) {
        await this.markDelivered(delivered);
        return this.release(run.slice(index));
      }
      const attemptAt = this.now();
      let outcome: SendOutcome;
      if (target) {
        const body = JSON.stringify({ type: row.event, timestamp: attemptAt.toISOString(), data: row.payload });
        const seconds = String(Math.floor(attemptAt.getTime() / 1000));
        const signature = signers.map((signer) => signer.sign(row.messageId, attemptAt, body)).join(' ');
        outcome = await postWebhook(
          target,
          { 'webhook-id': row.messageId, 'webhook-timestamp': seconds, 'webhook-signature': signature },
          body,
          this.limits.timeoutMs,
        );
      } else outcome = { ok: false, status: null, latencyMs: 0, error: refusal ?? 'refused' };
      const tried: Tried = {
        lastStatus: outcome.status,
        lastLatencyMs: outcome.latencyMs,
        lastResponse: 'excerpt' in outcome ? outcome.excerpt : null,
        lastError: 'error' in outcome ? outcome.error : outcome.ok ? null : `HTTP ${outcome.status}`,
        lastAttemptAt: attemptAt,
      };
      if (outcome.ok) {
        delivered.push({ row, tried });
        continue;
      }
      await this.markDelivered(delivered);
      await this.failedTry(row, tried, {
        endpointId: endpoint.endpointId,
        ownerUserNo: owner.userNo,
        projectNo: endpoint.projectNo,
        url: endpoint.url,
      });
      return this.release(run.slice(index + 1));
    }
    await this.markDelivered(delivered);
  }

  /** Marks the deliveries that arrived, in one statement, each with its try's answer; only those this process still holds. */
  private async markDelivered(delivered: ReadonlyArray<{ row: DeliveryRow; tried: Tried }>): Promise<void> {
    if (delivered.length === 0) return;
    const values = delivered.map(({ row, tried }) => ({
      id: row.deliveryId,
      attempts: row.attempts,
      status: tried.lastStatus,
      latency: tried.lastLatencyMs,
      excerpt: tried.lastResponse,
      at: tried.lastAttemptAt.toISOString(),
    }));
    const marked = await this.deps.db.execute(sql`
      update ${webhookDeliveries} as d
      set status = 'delivered', delivered_at = ${this.now().toISOString()}::timestamptz, claimed_until = null, last_error = null,
        last_status = v.status, last_latency_ms = v.latency, last_response = v.excerpt, last_attempt_at = v.at
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id bigint, attempts int, status int, latency int, excerpt text, at timestamptz)
      where d.delivery_id = v.id and d.attempts = v.attempts and d.status = 'sending'
      returning d.delivery_id`);
    const count = rowsOf(marked).length;
    this.tally.delivered += count;
    if (count < delivered.length)
      this.deps.log.warn(
        { deliveries: delivered.length - count },
        'webhooks delivered after their lease ran out (another process may send them too)',
      );
  }

  /** Claimed deliveries not sent (the run stopped): due again at once, their tries not counted. */
  private async release(rows: readonly DeliveryRow[]): Promise<void> {
    for (const row of rows)
      await this.deps.db
        .update(webhookDeliveries)
        .set({ status: 'pending', attempts: row.attempts - 1, claimedUntil: null, nextAttemptAt: this.now() })
        .where(this.held(row));
  }

  /**
   * A failed try: tried again after the backoff, or failed for good with its endpoint turned off: past the
   * retry window, or at once when the receiver answers 410 Gone (Standard Webhooks: it wants nothing more).
   */
  private async failedTry(
    row: DeliveryRow,
    tried: Tried,
    endpoint: { endpointId: number; ownerUserNo: number; projectNo: number | null; url: string },
  ): Promise<void> {
    const { db } = this.deps;
    this.tally.failed += 1;
    this.deps.log.warn(
      { deliveryId: row.deliveryId, endpointId: row.endpointId, attempts: row.attempts, error: tried.lastError },
      'webhook not delivered',
    );
    const attemptAt = tried.lastAttemptAt;
    const firstTry = row.firstAttemptAt ?? attemptAt;
    const now = this.now();
    const gone = tried.lastStatus === 410;
    if (!gone && now.getTime() - firstTry.getTime() < this.limits.retryWindowMs) {
      await db
        .update(webhookDeliveries)
        // The wait counts from the try's start (never before now): the log shows each wait as it was meant.
        .set({
          ...tried,
          claimedUntil: null,
          status: 'pending',
          nextAttemptAt: new Date(Math.max(now.getTime(), attemptAt.getTime() + this.retryDelayMs(row.attempts))),
        })
        .where(this.held(row));
      return;
    }
    await db.transaction(async (tx) => {
      const [failed] = await tx
        .update(webhookDeliveries)
        .set({ ...tried, claimedUntil: null, status: 'failed' })
        .where(this.held(row))
        .returning({ deliveryId: webhookDeliveries.deliveryId });
      if (!failed) return;
      const reason = gone
        ? `delivery ${row.deliveryId} (${row.messageId}) answered 410 Gone: the receiver asked to be sent nothing more`
        : `delivery ${row.deliveryId} (${row.messageId}) failed for ${Math.round(this.limits.retryWindowMs / 3_600_000)} h: ${tried.lastError ?? ''}`;
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
      await notifyEndpointDisabled(tx, endpoint);
    });
  }
}

/** Tries by result: arrived (2xx, and still held when marked), and failed (tried again later, or for good). */
export interface WebhookTally {
  delivered: number;
  failed: number;
}

interface Tried {
  lastStatus: number | null;
  lastLatencyMs: number;
  lastResponse: string | null;
  lastError: string | null;
  lastAttemptAt: Date;
}

/** Claimed deliveries grouped by endpoint, each run in delivery order. */
function runsByEndpoint(rows: readonly DeliveryRow[]): DeliveryRow[][] {
  const runs = new Map<number, DeliveryRow[]>();
  for (const row of [...rows].sort((a, b) => a.deliveryId - b.deliveryId))
    runs.set(row.endpointId, [...(runs.get(row.endpointId) ?? []), row]);
  return [...runs.values()];
}
