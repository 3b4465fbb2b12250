import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { desc, gt, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { liveCommands } from '../../db/schema.js';
import type { LiveCommand, LiveControlChannel } from './liveControl.js';

export interface CommandLogOptions {
  /** Fallback read of the log when no doorbell rang (Redis down or a message lost). */
  pollMs?: number;
  /** Rows older than this are deleted. */
  keepMs?: number;
}

/**
 * A row inserted with a lower id may commit after one with a higher id (two processes inserting at
 * once): each read also takes this recent window again and skips what it has applied, so such a row is
 * not passed over.
 */
const REREAD_WINDOW_SECONDS = 30;
const PRUNE_EVERY_MS = 60_000;
/** Attempts to log a command before giving up (the lock itself never depends on it: the append checks). */
const LOG_ATTEMPTS = 3;

/**
 * Live commands through a log in the database, with Redis pub/sub only as the doorbell: a process
 * reads the rows it has not seen on every doorbell, when its subscription is (re)established and every
 * `pollMs`, so a command sent while it was cut off from Redis still reaches it within a poll.
 */
export async function loggedControlChannel(
  db: Db,
  redisUrl: string,
  prefix: string,
  log: FastifyBaseLogger,
  options: CommandLogOptions = {},
): Promise<LiveControlChannel & { onResubscribed(listener: () => void): void }> {
  const { Redis } = await import('ioredis');
  const pollMs = options.pollMs ?? 1000;
  const keepMs = options.keepMs ?? 10 * 60_000;
  const doorbell = `${prefix}:live-control`;
  const origin = randomBytes(8).toString('hex');
  const publisher = new Redis(redisUrl, { lazyConnect: true });
  const subscriber = new Redis(redisUrl, { lazyConnect: true });
  for (const connection of [publisher, subscriber])
    connection.on('error', (error: Error) => log.warn({ err: error }, 'live control: redis error'));
  /** Ids applied (or sent) here, with when, to skip them when the window is read again. */
  const applied = new Map<number, number>();
  let lastSeen = 0;
  let reading: Promise<void> | null = null;
  let readAgain = false;
  let timers: NodeJS.Timeout[] = [];
  const resubscribed: Array<() => void> = [];

  async function readLog(apply: (command: LiveCommand) => Promise<void>): Promise<void> {
    const rows = await db
      .select()
      .from(liveCommands)
      .where(or(gt(liveCommands.id, lastSeen), gt(liveCommands.createdAt, sql`now() - make_interval(secs => ${REREAD_WINDOW_SECONDS})`)))
      .orderBy(liveCommands.id);
    for (const row of rows) {
      lastSeen = Math.max(lastSeen, row.id);
      if (applied.has(row.id)) continue;
      applied.set(row.id, Date.now());
      if (row.origin === origin) continue;
      // Not awaited: ending writing waits for the note's pending edits to be stored, which a stalled
      // database can make long; a sign-out or another note's lock read after it must not wait for that.
      void apply(row.command as LiveCommand).catch((error: unknown) =>
        log.error({ err: error, command: row.command }, 'live control: applying a command failed'),
      );
    }
  }

  /** One read at a time; a doorbell during a read makes one more read after it. */
  function catchUp(apply: (command: LiveCommand) => Promise<void>): void {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = readLog(apply)
      .catch((error: unknown) => log.error({ err: error }, 'live control: reading the command log failed'))
      .finally(() => {
        reading = null;
        if (readAgain) {
          readAgain = false;
          catchUp(apply);
        }
      });
  }

  async function prune(): Promise<void> {
    const cutoff = Date.now() - 3 * REREAD_WINDOW_SECONDS * 1000;
    for (const [id, at] of applied) if (at < cutoff) applied.delete(id);
    await db
      .delete(liveCommands)
      .where(lt(liveCommands.createdAt, sql`now() - make_interval(secs => ${keepMs / 1000})`))
      .catch((error: unknown) => log.warn({ err: error }, 'live control: pruning the command log failed'));
  }

  /** Inserts the command's row, trying again briefly over a database hiccup; answers whether it is logged. */
  async function logCommand(command: LiveCommand): Promise<boolean> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const [row] = await db.insert(liveCommands).values({ origin, command }).returning({ id: liveCommands.id });
        if (row) applied.set(row.id, Date.now());
        return true;
      } catch (error) {
        if (attempt >= LOG_ATTEMPTS) {
          log.error(
            { err: error, command },
            'live control: logging a command failed; other processes apply it at their next session check',
          );
          return false;
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }

  function ring(): void {
    // Not awaited: a paused or unreachable Redis must not hold up the call; the poll delivers it anyway.
    publisher.publish(doorbell, '1').catch((error: unknown) => log.warn({ err: error }, 'live control: ringing the doorbell failed'));
  }

  return {
    onResubscribed(listener) {
      resubscribed.push(listener);
    },
    async start(apply) {
      // Commands from before this process started concern connections it never had.
      const [newest] = await db.select({ id: liveCommands.id }).from(liveCommands).orderBy(desc(liveCommands.id)).limit(1);
      lastSeen = newest?.id ?? 0;
      await db
        .select({ id: liveCommands.id })
        .from(liveCommands)
        .where(gt(liveCommands.createdAt, sql`now() - make_interval(secs => ${REREAD_WINDOW_SECONDS})`))
        .then((rows) => rows.forEach((row) => applied.set(row.id, Date.now())));
      await Promise.all([publisher.connect(), subscriber.connect()]);
      subscriber.on('message', (from: string) => {
        if (from === doorbell) catchUp(apply);
      });
      let subscribedOnce = false;
      subscriber.on('ready', () => {
        // ioredis subscribes again after a reconnect; what was sent meanwhile is read from the log.
        if (!subscribedOnce) return;
        catchUp(apply);
        for (const listener of resubscribed) listener();
      });
      await subscriber.subscribe(doorbell);
      subscribedOnce = true;
      timers = [setInterval(() => catchUp(apply), pollMs), setInterval(() => void prune(), PRUNE_EVERY_MS)];
      for (const timer of timers) timer.unref();
    },
    async publish(command) {
      // The change behind the command is committed; the row is what every process reads.
      if (await logCommand(command)) ring();
    },
    async record(tx: Tx, command: LiveCommand) {
      const [row] = await tx.insert(liveCommands).values({ origin, command }).returning({ id: liveCommands.id });
      // Applied here after the commit; a rolled-back row is never seen, so marking it early is harmless.
      if (row) applied.set(row.id, Date.now());
    },
    ring,
    async close() {
      for (const timer of timers) clearInterval(timer);
      await reading;
      subscriber.disconnect();
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}
