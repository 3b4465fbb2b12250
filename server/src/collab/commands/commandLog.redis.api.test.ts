import { randomBytes } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
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

async function channels(prefixes: [string, string], pollMs: number) {
  const { database, dispose } = await createTestDatabase();
  cleanups.push(dispose);
  const received: [LiveCommand[], LiveCommand[]] = [[], []];
  const opened: LiveControlChannel[] = [];
  for (const [i, prefix] of prefixes.entries()) {
    const channel = await loggedControlChannel(database.db, REDIS_URL, prefix, log, { pollMs });
    await channel.start(async (command) => void received[i]!.push(command));
    cleanups.push(() => channel.close());
    opened.push(channel);
  }
  return { one: opened[0]!, received, db: database.db };
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
    one.ring();
    // A committed command afterwards shows the reads ran past the rolled-back one.
    await one.publish({ kind: 'close', documentName: 'labnote.2' });
    await eventually(() => received[1].length >= 1, 'the later command', 5000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received[1]).toEqual([{ kind: 'close', documentName: 'labnote.2' }]);
  });
});
