import { and, asc, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import { MAIL_LIMITS } from '@eln/shared';
import type { Db } from '../db/client.js';
import { Drains } from '../db/drains.js';
import { mailOutbox } from '../db/schema.js';
import { sendFailureOf, type Mailer } from '../system/mailer.js';
import { composeMail } from './compose.js';
import { makeDueDigests } from './digests.js';

type OutboxRow = typeof mailOutbox.$inferSelect;

/** What tests change: the clock (digests at a given hour, retries due), and how often and how long. */
export interface MailOutboxOptions {
  now?: () => Date;
  pollMs?: number;
  leaseMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  maxAttempts?: number;
  batch?: number;
}

/** Where the outbox reports a try that failed (the server's logger). */
export interface MailLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface MailOutboxDeps {
  db: Db;
  mailer: Mailer;
  log: MailLog;
  /** Where links in mails point (PUBLIC_URL) and the zone of people who chose none (TIME_ZONE). */
  publicUrl: string;
  timeZone: string;
}

const SENT_BY_ANOTHER = 'the mail was taken over by another process (this one held it past its lease)';
const INTERRUPTED = 'the process sending it stopped before it was sent';

/**
 * The mail sender every server process runs. A pass makes the digests that are due, then claims due mails
 * (`FOR UPDATE SKIP LOCKED`: pending ones whose time has come, and `sending` ones whose process let the
 * lease run out) by marking them `sending` until the lease ends, and sends each: in its recipient's
 * language, under one Message-ID kept for every try. A sent mail is marked `sent` only while this
 * process still holds it (its claim is the try count it set). A failed try waits twice as long as the
 * one before; the last one (MAIL_LIMITS.maxAttempts), or a recipient the server refuses for good, leaves
 * the mail `failed` for administrators. A process killed at any point leaves every mail pending or
 * claimed: another sends it once its lease ends.
 */
export class MailOutbox {
  private readonly drains = new Drains(
    () => this.drain(),
    (error: unknown) => this.deps.log.error({ err: error }, 'mail outbox failed'),
  );
  private readonly now: () => Date;
  private readonly limits: Required<Omit<MailOutboxOptions, 'now'>>;
  private readonly messageIdHost: string;
  private stopping = false;

  constructor(
    private readonly deps: MailOutboxDeps,
    options: MailOutboxOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.limits = {
      pollMs: options.pollMs ?? MAIL_LIMITS.pollSeconds * 1000,
      leaseMs: options.leaseMs ?? MAIL_LIMITS.leaseSeconds * 1000,
      retryBaseMs: options.retryBaseMs ?? MAIL_LIMITS.retryBaseSeconds * 1000,
      retryMaxMs: options.retryMaxMs ?? MAIL_LIMITS.retryMaxSeconds * 1000,
      maxAttempts: options.maxAttempts ?? MAIL_LIMITS.maxAttempts,
      batch: options.batch ?? MAIL_LIMITS.batch,
    };
    this.messageIdHost = new URL(deps.publicUrl).hostname || 'eln.local';
  }

  start(): void {
    this.stopping = false;
    this.drains.start(this.limits.pollMs);
  }

  /** Takes no more mails; the one being sent is finished (the SMTP timeouts bound it), the rest of its batch released. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.drains.stop();
  }

  /** Looks for due digests and mails now (after a retry was asked for). */
  kick(): void {
    this.drains.kick();
  }

  /** One pass now, and every pass asked for meanwhile (tests). */
  async flush(): Promise<void> {
    this.drains.kick();
    await this.drains.idle();
  }

  /** The wait after the try numbered `attempts` failed. */
  retryDelayMs(attempts: number): number {
    return Math.min(this.limits.retryBaseMs * 2 ** Math.max(0, attempts - 1), this.limits.retryMaxMs);
  }

  private async drain(): Promise<void> {
    const now = this.now();
    await makeDueDigests(this.deps.db, now, this.deps.timeZone);
    await this.failAbandoned(now);
    for (;;) {
      if (this.stopping) return;
      const claimed = await this.claim(this.now());
      if (claimed.length === 0) return;
      for (const [index, row] of claimed.entries()) {
        if (this.stopping) {
          await this.release(claimed.slice(index));
          return;
        }
        await this.deliver(row);
      }
    }
  }

  /** Mails whose process stopped while sending their last allowed try fail: no try is left to give them. */
  private async failAbandoned(now: Date): Promise<void> {
    await this.deps.db
      .update(mailOutbox)
      .set({ status: 'failed', claimedUntil: null, lastError: sql`coalesce(${mailOutbox.lastError} || '; ', '') || ${INTERRUPTED}` })
      .where(and(eq(mailOutbox.status, 'sending'), lte(mailOutbox.nextAttemptAt, now), gte(mailOutbox.attempts, this.limits.maxAttempts)));
  }

  /**
   * Claims up to a batch of due mails for this process: locks them (SKIP LOCKED: those another process is
   * claiming are passed over), then marks them, in one transaction. (One UPDATE with the locking select as
   * its `IN` subquery may run the subquery again and mark more than the batch.) A claimed mail's
   * next_attempt_at is its lease's end, so one whose process dies is due again then, found by the same
   * index as pending ones.
   */
  private async claim(now: Date): Promise<OutboxRow[]> {
    const leaseEnd = new Date(now.getTime() + this.limits.leaseMs);
    return this.deps.db.transaction(async (tx) => {
      const due = await tx
        .select({ mailId: mailOutbox.mailId })
        .from(mailOutbox)
        .where(
          and(
            inArray(mailOutbox.status, ['pending', 'sending']),
            lte(mailOutbox.nextAttemptAt, now),
            lt(mailOutbox.attempts, this.limits.maxAttempts),
          ),
        )
        .orderBy(asc(mailOutbox.nextAttemptAt))
        .limit(this.limits.batch)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(mailOutbox)
        .set({
          status: 'sending',
          attempts: sql`${mailOutbox.attempts} + 1`,
          nextAttemptAt: leaseEnd,
          claimedUntil: leaseEnd,
          // One Message-ID for every try: a receiver that got a try whose answer was lost can tell the repeat.
          messageId: sql`coalesce(${mailOutbox.messageId}, '<eln.' || ${mailOutbox.mailId} || '.' || replace(gen_random_uuid()::text, '-', '') || '@' || ${this.messageIdHost} || '>')`,
        })
        .where(
          inArray(
            mailOutbox.mailId,
            due.map((row) => row.mailId),
          ),
        )
        .returning();
    });
  }

  /** This process's claim on a mail: still `sending`, with the try count it set. */
  private held(row: OutboxRow) {
    return and(eq(mailOutbox.mailId, row.mailId), eq(mailOutbox.status, 'sending'), eq(mailOutbox.attempts, row.attempts));
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const { db, mailer, log } = this.deps;
    // The lease runs from this mail's own send, not from its batch's claim; one lost meanwhile is another's now.
    if (!(await this.renew(row))) return;
    let composed;
    try {
      composed = await composeMail(db, row, this.deps);
    } catch (error) {
      log.error({ err: error, mailId: row.mailId }, 'mail could not be written');
      await this.failed(row, { message: 'the mail could not be written (see the server log)', permanent: false });
      return;
    }
    if ('withheld' in composed) {
      await db.update(mailOutbox).set({ status: 'withheld', claimedUntil: null, lastError: composed.withheld }).where(this.held(row));
      return;
    }
    try {
      await mailer.send({ to: composed.to, ...composed.content, messageId: row.messageId ?? undefined, language: composed.language });
    } catch (error) {
      const failure = sendFailureOf(error);
      log.warn({ mailId: row.mailId, attempts: row.attempts, error: failure.message }, 'mail not sent');
      await this.failed(row, failure);
      return;
    }
    const [marked] = await db
      .update(mailOutbox)
      .set({ status: 'sent', sentAt: this.now(), claimedUntil: null, lastError: null })
      .where(this.held(row))
      .returning({ mailId: mailOutbox.mailId });
    if (!marked) log.warn({ mailId: row.mailId }, SENT_BY_ANOTHER);
  }

  /** Holds the mail for a whole lease from now, if this process still holds it. */
  private async renew(row: OutboxRow): Promise<boolean> {
    const leaseEnd = new Date(this.now().getTime() + this.limits.leaseMs);
    const [renewed] = await this.deps.db
      .update(mailOutbox)
      .set({ nextAttemptAt: leaseEnd, claimedUntil: leaseEnd })
      .where(this.held(row))
      .returning({ mailId: mailOutbox.mailId });
    if (!renewed) this.deps.log.warn({ mailId: row.mailId }, SENT_BY_ANOTHER);
    return renewed !== undefined;
  }

  /** A failed try: tried again after the backoff, or `failed` after the last try or a refusal for good. */
  private async failed(row: OutboxRow, failure: { message: string; permanent: boolean }): Promise<void> {
    const last = failure.permanent || row.attempts >= this.limits.maxAttempts;
    const retryAt = new Date(this.now().getTime() + this.retryDelayMs(row.attempts));
    await this.deps.db
      .update(mailOutbox)
      .set(
        last
          ? { status: 'failed', claimedUntil: null, lastError: failure.message }
          : { status: 'pending', claimedUntil: null, nextAttemptAt: retryAt, lastError: failure.message },
      )
      .where(this.held(row));
  }

  /** Claimed mails this process will not send (it is stopping): due again at once, the try not counted. */
  private async release(rows: readonly OutboxRow[]): Promise<void> {
    for (const row of rows) {
      await this.deps.db
        .update(mailOutbox)
        .set({ status: 'pending', attempts: row.attempts - 1, claimedUntil: null, nextAttemptAt: this.now() })
        .where(this.held(row));
    }
  }
}
