import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { and, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { rawRows, type Db, type Tx } from '../../db/client.js';
import { liveCommands, liveProcesses } from '../../db/schema.js';
import type { LiveCommand, LiveControlChannel } from './liveControl.js';

export interface CommandLogOptions {
  /** Fallback read of the log when no doorbell rang (Redis down or a message lost). */
  pollMs?: number;
  /** Rows older than this are deleted. */
  keepMs?: number;
  /** How long after a read of the log this process applies edits without reading it again (default: three polls). */
  leaseMs?: number;
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
/** While a change waits for a process that has not answered through Redis, how often it looks for its answer in the database. */
const CONFIRM_POLL_MS = 100;
/** Edits waiting for a read of the log that failed wait this long for the next attempt. */
const READ_AGAIN_MS = 100;
/** A process not seen for this long is forgotten. */
const FORGET_PROCESSES_SECONDS = 3600;

/**
 * What whoever waits out another process's lease adds to it: two machines' clocks need not run at
 * exactly one rate, and an edit checked against the lease is applied a moment later.
 */
function leaseMargin(leaseMs: number): number {
  return Math.max(250, leaseMs / 10);
}

/** The doorbell's message: who rang, and the round a change waits in for the others' answers (see confirm). */
interface Ring {
  from: string;
  round?: string;
}

interface LogRow {
  /** When the read began (the database's clock, as text so that no precision is lost on the way back). */
  read_at: string;
  id: string | number | bigint | null;
  origin: string | null;
  command: unknown;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Live commands through a log in the database, with Redis pub/sub only as the doorbell: a process
 * reads the rows it has not seen on every doorbell, when its subscription is (re)established and every
 * `pollMs`, so a command sent while it was cut off from Redis still reaches it within a poll.
 *
 * A change's commands are confirmed before its call answers (see confirm): each live process answers
 * through Redis once it has read and applied them, or, cut off from Redis, in its row of
 * `live_processes` at its next read. A process that answers neither way in time holds a lease that
 * runs out: it applies edits only within `leaseMs` of the start of its latest read of the log, and past
 * that an edit waits for a fresh read (upToDate), so the change need only wait until any lease taken
 * before it committed has run out.
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
  const leaseMs = options.leaseMs ?? 3 * pollMs;
  const doorbell = `${prefix}:live-control`;
  const answers = `${prefix}:live-control-answers`;
  const origin = randomBytes(8).toString('hex');
  const publisher = new Redis(redisUrl, { lazyConnect: true });
  const subscriber = new Redis(redisUrl, { lazyConnect: true });
  for (const connection of [publisher, subscriber])
    connection.on('error', (error: Error) => log.warn({ err: error }, 'live control: redis error'));
  /** Ids applied (or sent) here, with when, to skip them when the window is read again. */
  const applied = new Map<number, number>();
  let apply: (command: LiveCommand) => Promise<void> = async () => undefined;
  let lastSeen = 0;
  /** The start of the latest read whose commands are applied (the database's clock), told with the next read. */
  let caughtUpTo: string | null = null;
  /** Until when (this process's clock) edits are applied without reading the log first. */
  let leaseUntil = 0;
  let reading: Promise<boolean> | null = null;
  let queuedRead: Promise<boolean> | null = null;
  let closed = false;
  let timers: NodeJS.Timeout[] = [];
  const resubscribed: Array<() => void> = [];
  /** The rounds this process's changes wait in: each takes the answers of the processes it waits for. */
  const rounds = new Map<string, (from: string) => void>();

  /**
   * Reads the rows not yet applied, and registers this process as live in the same statement. Every
   * command committed before the read began is in its answer; each is begun (its connections made
   * unable to write, see LiveDocuments.apply) before anything else runs, and only then does the lease
   * start again, from the moment the read was sent. Answers whether the read succeeded.
   */
  async function readLog(): Promise<boolean> {
    if (closed) return false;
    const sentAt = performance.now();
    let rows: LogRow[];
    try {
      rows = await rawRows<LogRow>(
        db,
        sql`with me as (
          insert into live_processes (origin, lease_ms, seen_at, caught_up_to)
          values (${origin}, ${leaseMs}, now(), ${caughtUpTo}::timestamptz)
          on conflict (origin) do update set lease_ms = excluded.lease_ms, seen_at = excluded.seen_at,
            caught_up_to = greatest(live_processes.caught_up_to, excluded.caught_up_to)
          returning seen_at::text as read_at)
        select me.read_at, c.id, c.origin, c.command from me left join live_commands c
          on c.id > ${lastSeen} or c.created_at > now() - make_interval(secs => ${REREAD_WINDOW_SECONDS})
        order by c.id`,
      );
    } catch (error) {
      log.error({ err: error }, 'live control: reading the command log failed');
      return false;
    }
    let found = false;
    for (const row of rows) {
      if (row.id === null) continue;
      const id = Number(row.id);
      lastSeen = Math.max(lastSeen, id);
      if (applied.has(id)) continue;
      applied.set(id, Date.now());
      if (row.origin === origin) continue;
      found = true;
      // Not awaited: ending writing waits for the note's pending edits to be stored, which a stalled
      // database can make long; a sign-out or another note's lock read after it must not wait for that.
      // What the confirmation counts on is done before the first await (see LiveDocuments.apply).
      void apply(row.command as LiveCommand).catch((error: unknown) =>
        log.error({ err: error, command: row.command }, 'live control: applying a command failed'),
      );
    }
    const readAt = rows[0]?.read_at ?? null;
    caughtUpTo = readAt;
    leaseUntil = Math.max(leaseUntil, sentAt + leaseMs);
    // A change may be waiting for this process's answer: told now rather than with the next read.
    if (found && readAt)
      void db
        .update(liveProcesses)
        .set({ caughtUpTo: sql`greatest(${liveProcesses.caughtUpTo}, ${readAt}::timestamptz)` })
        .where(eq(liveProcesses.origin, origin))
        .catch((error: unknown) => log.warn({ err: error }, 'live control: telling that commands are applied failed'));
    return true;
  }

  /**
   * A read of the log that begins after this call (one at a time: a call during a read is served by the
   * one read after it). Resolves with whether it succeeded.
   */
  function catchUp(): Promise<boolean> {
    if (queuedRead) return queuedRead;
    if (!reading) return beginRead();
    queuedRead = reading.then(() => {
      queuedRead = null;
      return beginRead();
    });
    return queuedRead;
  }

  function beginRead(): Promise<boolean> {
    const read: Promise<boolean> = readLog().finally(() => {
      if (reading === read) reading = null;
    });
    reading = read;
    return read;
  }

  /** Until a read that began after the call succeeded (edits wait in it; see upToDate). */
  async function readFresh(): Promise<void> {
    while (!(await catchUp())) {
      if (closed) throw new Error('live control: closed');
      await sleep(READ_AGAIN_MS);
    }
  }

  async function prune(): Promise<void> {
    const cutoff = Date.now() - 3 * REREAD_WINDOW_SECONDS * 1000;
    for (const [id, at] of applied) if (at < cutoff) applied.delete(id);
    await db
      .delete(liveCommands)
      .where(lt(liveCommands.createdAt, sql`now() - make_interval(secs => ${keepMs / 1000})`))
      .catch((error: unknown) => log.warn({ err: error }, 'live control: pruning the command log failed'));
    await db
      .delete(liveProcesses)
      .where(lt(liveProcesses.seenAt, sql`now() - make_interval(secs => ${FORGET_PROCESSES_SECONDS})`))
      .catch((error: unknown) => log.warn({ err: error }, 'live control: forgetting gone processes failed'));
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

  function ring(round?: string): void {
    const message: Ring = { from: origin, ...(round ? { round } : {}) };
    // Not awaited: a paused or unreachable Redis must not hold up the call; the poll delivers it anyway.
    publisher
      .publish(doorbell, JSON.stringify(message))
      .catch((error: unknown) => log.warn({ err: error }, 'live control: ringing the doorbell failed'));
  }

  /** Another process rang: read the log, and answer its round once what was read is applied. */
  function heardDoorbell(message: string): void {
    let ring: Partial<Ring>;
    try {
      ring = JSON.parse(message) as Partial<Ring>;
    } catch {
      ring = {};
    }
    if (ring.from === origin) return;
    void catchUp().then((read) => {
      if (!read || typeof ring.round !== 'string') return;
      const answer: Ring = { from: origin, round: ring.round };
      publisher
        .publish(answers, JSON.stringify(answer))
        .catch((error: unknown) => log.warn({ err: error }, 'live control: answering a round failed'));
    });
  }

  function heardAnswer(message: string): void {
    try {
      const answer = JSON.parse(message) as Partial<Ring>;
      if (typeof answer.round === 'string' && typeof answer.from === 'string') rounds.get(answer.round)?.(answer.from);
    } catch {
      // Not an answer of ours.
    }
  }

  /** Which of the processes have told the database that they applied every command committed before `since`. */
  async function answeredInDatabase(processes: string[], since: string): Promise<string[]> {
    try {
      const rows = await db
        .select({ origin: liveProcesses.origin })
        .from(liveProcesses)
        .where(and(inArray(liveProcesses.origin, processes), sql`${liveProcesses.caughtUpTo} >= ${since}::timestamptz`));
      return rows.map((row) => row.origin);
    } catch {
      return [];
    }
  }

  return {
    onResubscribed(listener) {
      resubscribed.push(listener);
    },
    async start(applyCommand) {
      apply = applyCommand;
      // Commands from before this process started concern connections it never had.
      const [newest] = await db.select({ id: liveCommands.id }).from(liveCommands).orderBy(desc(liveCommands.id)).limit(1);
      lastSeen = newest?.id ?? 0;
      await db
        .select({ id: liveCommands.id })
        .from(liveCommands)
        .where(gt(liveCommands.createdAt, sql`now() - make_interval(secs => ${REREAD_WINDOW_SECONDS})`))
        .then((rows) => rows.forEach((row) => applied.set(row.id, Date.now())));
      await Promise.all([publisher.connect(), subscriber.connect()]);
      subscriber.on('message', (channel: string, message: string) => {
        if (channel === doorbell) heardDoorbell(message);
        else if (channel === answers) heardAnswer(message);
      });
      let subscribedOnce = false;
      subscriber.on('ready', () => {
        // ioredis subscribes again after a reconnect; what was sent meanwhile is read from the log.
        if (!subscribedOnce) return;
        void catchUp();
        for (const listener of resubscribed) listener();
      });
      await subscriber.subscribe(doorbell, answers);
      subscribedOnce = true;
      // Registered as live, with a lease, before any connection can be admitted.
      if (!(await catchUp())) throw new Error('live control: the command log cannot be read');
      timers = [setInterval(() => void catchUp(), pollMs), setInterval(() => void prune(), PRUNE_EVERY_MS)];
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
    async confirm() {
      const committed = performance.now();
      let waiting: Map<string, number>;
      let since: string;
      try {
        // `for share` waits for reads under way (each writes its process's row): a process whose read
        // began before the commit is seen with that read, so its lease is counted.
        const rows = await rawRows<{ origin: string; lease_ms: number; live: boolean; now: string }>(
          db,
          sql`select origin, lease_ms, now()::text as now,
              seen_at > now() - make_interval(secs => (lease_ms + greatest(250, lease_ms / 10.0)) / 1000.0) as live
            from live_processes for share`,
        );
        const others = rows.filter((row) => row.live && row.origin !== origin);
        waiting = new Map(others.map((row) => [row.origin, committed + row.lease_ms + leaseMargin(row.lease_ms)]));
        since = rows[0]?.now ?? '';
      } catch (error) {
        // Who is live is unknown: every lease there may be (all processes run this code) is waited out.
        log.error({ err: error }, 'live control: reading which processes are live failed; waiting until their leases ran out');
        await sleep(leaseMs + leaseMargin(leaseMs));
        return;
      }
      if (!waiting.size) return;
      const round = randomBytes(8).toString('hex');
      let wake: () => void = () => undefined;
      rounds.set(round, (from) => {
        if (waiting.delete(from)) wake();
      });
      ring(round);
      try {
        let nextPoll = committed + CONFIRM_POLL_MS;
        for (;;) {
          const now = performance.now();
          for (const [process, deadline] of waiting) {
            if (deadline > now) continue;
            waiting.delete(process);
            log.warn(
              { process },
              'live control: a process did not confirm a change; its lease ran out, so it reads the log before its next edit',
            );
          }
          if (!waiting.size) return;
          if (now >= nextPoll) {
            for (const process of await answeredInDatabase([...waiting.keys()], since)) waiting.delete(process);
            nextPoll = performance.now() + CONFIRM_POLL_MS;
            continue;
          }
          const until = Math.min(nextPoll, ...waiting.values());
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, until - now);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
      } finally {
        rounds.delete(round);
      }
    },
    upToDate() {
      return performance.now() < leaseUntil ? undefined : readFresh();
    },
    async close() {
      closed = true;
      for (const timer of timers) clearInterval(timer);
      await reading;
      // Gone: no change waits for this process any more.
      await db
        .delete(liveProcesses)
        .where(eq(liveProcesses.origin, origin))
        .catch(() => undefined);
      subscriber.disconnect();
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}
