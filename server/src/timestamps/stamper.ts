import { and, eq } from 'drizzle-orm';
import { TIMESTAMP_LIMITS } from '@eln/shared';
import type { FastifyBaseLogger } from 'fastify';
import { appendAudit } from '../audit/audit.js';
import type { Db } from '../db/client.js';
import { Drains } from '../db/drains.js';
import { timestamps } from '../db/schema.js';
import { anchorAuditHead, AUDIT_ANCHOR_EVERY_MS } from './auditAnchors.js';
import { claimDueStamps, enabledAuthorities, retryDelayMs, type ClaimedStamp } from './queue.js';
import { requestToken } from './tsp.js';

const POLL_MS = 5_000;

type Authority = Awaited<ReturnType<typeof enabledAuthorities>>[number];

export interface StamperOptions {
  pollMs?: number;
  /** How long one authority may take to answer. */
  requestTimeoutMs?: number;
  /** How often at most the audit chain's head is stamped (TIMESTAMP_LIMITS.auditAnchorMinutes). */
  auditAnchorEveryMs?: number;
}

/**
 * Takes due time-stamps from the queue (every process runs one; a claimed stamp is this process's alone),
 * asks the enabled authorities in order until one gives a token that checks, and stores it. When every
 * authority fails, the stamp waits for its next try (backoff, about a day in all) and is then marked failed,
 * which administrators see and may put back in the queue. The change it stamps committed long before.
 * Each pass also asks for a stamp over the audit chain's head when one is due (auditAnchors.ts).
 */
export class TimestampStamper {
  private readonly drains = new Drains(
    () => this.drain(),
    (error: unknown) => this.log.error({ err: error }, 'time-stamping failed'),
  );

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly options: StamperOptions = {},
  ) {}

  start(): void {
    this.drains.start(this.options.pollMs ?? POLL_MS);
  }

  /** Looks at the queue now (after a commit that asked for a stamp). */
  kick(): void {
    this.drains.kick();
  }

  async stop(): Promise<void> {
    await this.drains.stop();
  }

  /** Resolves when the pass under way, if any, has ended. */
  async idle(): Promise<void> {
    await this.drains.idle();
  }

  private async drain(): Promise<void> {
    await anchorAuditHead(this.db, this.options.auditAnchorEveryMs ?? AUDIT_ANCHOR_EVERY_MS);
    for (;;) {
      const claimed = await claimDueStamps(this.db);
      if (claimed.length === 0) return;
      const authorities = await enabledAuthorities(this.db);
      for (const stamp of claimed) await this.stamp(stamp, authorities);
    }
  }

  private async stamp(stamp: ClaimedStamp, authorities: readonly Authority[]): Promise<void> {
    const faults: string[] = [];
    for (const authority of authorities) {
      try {
        const { token, checked } = await requestToken(
          { ...authority, timeoutMs: this.options.requestTimeoutMs ?? TIMESTAMP_LIMITS.requestTimeoutMs },
          stamp.subject,
        );
        await this.db
          .update(timestamps)
          .set({
            status: 'stamped',
            token,
            genTime: checked.genTime,
            authorityNo: authority.authorityNo,
            authorityName: authority.name,
            chainPem: authority.chainPem,
            hash: checked.hash,
            policy: checked.policy,
            serial: checked.serial,
            attempts: stamp.attempts + 1,
            claimedUntil: null,
            lastError: null,
          })
          .where(and(eq(timestamps.stampId, stamp.stampId), eq(timestamps.status, 'pending')));
        return;
      } catch (error) {
        faults.push(`${authority.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    await this.failed(stamp, faults.length ? faults.join('; ') : 'no time-stamping authority is enabled');
  }

  private async failed(stamp: ClaimedStamp, lastError: string): Promise<void> {
    const attempts = stamp.attempts + 1;
    const givenUp = attempts >= TIMESTAMP_LIMITS.attempts;
    this.log.warn({ stampId: stamp.stampId, attempts, lastError }, givenUp ? 'time-stamp failed for good' : 'time-stamp will be retried');
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(timestamps)
        .set({
          attempts,
          lastError,
          claimedUntil: null,
          nextAttemptAt: new Date(Date.now() + retryDelayMs(attempts)),
          ...(givenUp ? { status: 'failed' as const } : {}),
        })
        .where(and(eq(timestamps.stampId, stamp.stampId), eq(timestamps.status, 'pending')))
        .returning({ kind: timestamps.subjectKind, id: timestamps.subjectId });
      if (givenUp && row) {
        await appendAudit(tx, {
          actor: null,
          action: 'timestamp.failed',
          target: { type: 'timestamp', id: stamp.stampId },
          after: { subject: `${row.kind}:${row.id}`, attempts, lastError },
        });
      }
    });
  }
}
