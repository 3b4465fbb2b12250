import { randomBytes } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { createTestDatabase } from '../../testing/harness.js';
import { eventually } from '../../testing/live.js';
import { requireRedis } from '../../testing/redis.js';
import { loggedControlChannel } from './commandLog.js';
import type { LiveCommand, LiveControlChannel } from './liveControl.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = Fastify({ logger: false }).log;

const cleanups: Array<() => Promise<void>> = [];
beforeAll(() => requireRedis(REDIS_URL));
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function channels(prefixes: [string, string], pollMs: number, leaseMs?: number) {
  const { database, dispose } = await createTestDatabase();
  cleanups.push(dispose);
  const received: [LiveCommand[], LiveCommand[]] = [[], []];
  const opened: LiveControlChannel[] = [];
  for (const [i, prefix] of prefixes.entries()) {
    const channel = await loggedControlChannel(database.db, REDIS_URL, prefix, log, { pollMs, leaseMs });
    await channel.start(async (command) => void received[i]!.push(command));
    cleanups.push(() => channel.close());
    opened.push(channel);
  }
  return { one: opened[0]!, two: opened[1]!, received, db: database.db };
}

const freshPrefix = () => `eln-test-${randomBytes(4).toString('hex')}`;

/** Records the command in a change of its own and times the confirmation that follows the commit. */
async function confirmedChange(channel: LiveControlChannel, db: Db, command: LiveCommand): Promise<number> {
  await db.transaction(async (tx) => channel.record(tx, command));
  const started = performance.now();
  await channel.confirm();
  return performance.now() - started;
}

const lock: LiveCommand = { kind: 'end-writing', documentName: 'labnote.1', userNo: null, reason: 'locked' };

describe('live commands through the log in the database', () => {
  it('reach another process at once through the doorbell, once each, and not back to the sender', async () => {
    const prefix = `eln-test-${randomBytes(4).toString('hex')}`;
    // A poll far beyond the test: only the doorbell can deliver.
    const { one, received } = await channels([prefix, prefix], 3_600_000);
    await one.publish(lock);
    await one.publish({ kind: 'close', documentName: 'labnote.2' });
    await eventually(() => received[1].length === 2, 'both commands on the other process');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received[1]).toEqual([lock, { kind: 'close', documentName: 'labnote.2' }]);
    expect(received[0]).toEqual([]);
  });

  it('reach a process that never heard the doorbell (cut off from Redis) through its read of the log', async () => {
    // Different prefixes: the second process never hears the first one's doorbell, as if disconnected.
    const { one, received } = await channels(
      [`eln-test-${randomBytes(4).toString('hex')}`, `eln-test-${randomBytes(4).toString('hex')}`],
      200,
    );
    await one.publish(lock);
    await eventually(() => received[1].length === 1, 'the command read from the log', 5000);
    // Read again and again (the window is re-read): still applied once.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(received[1]).toEqual([lock]);
  });

  it('recorded with its change, reach another process even if the sender dies before ringing (a poll finds them)', async () => {
    const { one, received, db } = await channels(
      [`eln-test-${randomBytes(4).toString('hex')}`, `eln-test-${randomBytes(4).toString('hex')}`],
      200,
    );
    // Committed, and no doorbell rung: as if the process died right after the commit.
    await db.transaction(async (tx) => one.record(tx, lock));
    await eventually(() => received[1].length === 1, 'the recorded command read from the log', 5000);
    expect(received[1]).toEqual([lock]);
  });

  it('recorded with a change that rolls back, never reach anyone', async () => {
    const prefix = `eln-test-${randomBytes(4).toString('hex')}`;
    const { one, received, db } = await channels([prefix, prefix], 200);
    const refused = new Error('the change is refused');
    await expect(
      db.transaction(async (tx) => {
        await one.record(tx, lock);
        throw refused;
      }),
    ).rejects.toBe(refused);
    await one.confirm();
    // A committed command afterwards shows the reads ran past the rolled-back one.
    await one.publish({ kind: 'close', documentName: 'labnote.2' });
    await eventually(() => received[1].length >= 1, 'the later command', 5000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received[1]).toEqual([{ kind: 'close', documentName: 'labnote.2' }]);
  });
});

describe('a change confirmed by every live process before it answers', () => {
  it('waits until another process has applied its commands, which it answers through Redis at once', async () => {
    const prefix = freshPrefix();
    // No poll and a lease far beyond the test: only the doorbell and the answer through Redis can end the wait.
    const { one, received, db } = await channels([prefix, prefix], 3_600_000);
    const took = await confirmedChange(one, db, lock);
    expect(received[1]).toEqual([lock]);
    expect(took).toBeLessThan(2000);
  });

  it('hears a process cut off from Redis through the database, once its read of the log applied the commands', async () => {
    // Different prefixes: the second process never hears the doorbell; it reads the log every 200 ms,
    // and its lease (a minute) is far longer than the test.
    const { one, received, db } = await channels([freshPrefix(), freshPrefix()], 200, 60_000);
    const took = await confirmedChange(one, db, lock);
    expect(received[1]).toEqual([lock]);
    expect(took).toBeLessThan(5000);
  });

  it('waits for a process that answers neither way until its lease ran out, and not for one gone longer', async () => {
    // The second process hears no doorbell and never polls: it answers nothing. Its lease is 1.2 s.
    const { one, db } = await channels([freshPrefix(), freshPrefix()], 3_600_000, 1200);
    // The row a process that died long ago left behind: its lease ran out long before the change.
    await db.execute(sql`insert into live_processes (origin, lease_ms, seen_at) values ('gone', 60000, now() - interval '2 minutes')`);
    const took = await confirmedChange(one, db, lock);
    expect(took).toBeGreaterThanOrEqual(1200);
    expect(took).toBeLessThan(1200 + 3000);
  });

  it('past its lease, a process applies no edit before it has read the log: what was committed meanwhile is applied first', async () => {
    // No doorbell heard, no poll: only the lease makes the second process read again.
    const { one, two, received, db } = await channels([freshPrefix(), freshPrefix()], 3_600_000, 300);
    expect(two.upToDate()).toBeUndefined();
    await db.transaction(async (tx) => one.record(tx, lock));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(received[1]).toEqual([]);
    const reading = two.upToDate();
    expect(reading).toBeInstanceOf(Promise);
    await reading;
    expect(received[1]).toEqual([lock]);
    // The read started the lease again.
    expect(two.upToDate()).toBeUndefined();
  });
});
