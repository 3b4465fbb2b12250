import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { webhookDeliveries } from '../../server/src/db/schema.js';
import { TestWebhookReceiver } from '../../server/src/testing/webhookReceiver.js';
import { ServerProcess } from './serverProcess.js';

/**
 * The webhook outbox survives a SIGKILL between commit and delivery, losing nothing and delivering each
 * event once. A real process (webhookWriter.ts) commits events while its deliverer claims the first and
 * sends it to a receiver that never answers; it is killed with SIGKILL. Then the real server
 * (server/src/main.ts) starts on the same database, the receiver answering again, and delivers every event:
 * the receiver acknowledges each webhook-id exactly once, in the order of the events, all signed with the
 * endpoint's secret; the one the dead process had claimed is sent again after its lease, with its id.
 */
const EVENTS = 20;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const secret = `whsec_${randomBytes(32).toString('base64')}`;

let receiver: TestWebhookReceiver;
let server: ServerProcess;

beforeAll(async () => {
  receiver = await TestWebhookReceiver.start();
  server = await ServerProcess.create(undefined, { WEBHOOKS_ALLOW_LOCAL: '1' });
});

afterAll(async () => {
  await server?.dispose();
  await receiver?.close();
});

/** The outbox as the database holds it, read while no server process runs (PGlite has one process at a time). */
async function outboxRows() {
  const database = await openDatabase(loadConfig(server.env).database);
  try {
    return await database.db.select().from(webhookDeliveries).orderBy(webhookDeliveries.deliveryId);
  } finally {
    await database.close();
  }
}

it(
  'delivers every event once, in order, after the process that committed them is killed before delivering',
  { timeout: 180_000 },
  async () => {
    receiver.setMode('/crash', { kind: 'hang' });
    const writer = spawn(process.execPath, ['--import', 'tsx', 'tests/realtime/webhookWriter.ts'], {
      cwd: root,
      env: {
        ...process.env,
        ...server.env,
        DATABASE_URL: server.env.DATABASE_URL ?? '',
        WEBHOOK_EVENTS: String(EVENTS),
        WEBHOOK_URL: receiver.url('/crash'),
        WEBHOOK_SECRET: secret,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    writer.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise((resolve) => writer.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      let stdout = '';
      writer.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes(`committed ${EVENTS}\n`)) resolve();
      });
      void exited.then(() => reject(new Error(`the writer ended before committing: ${stderr}`)));
    });
    // Its deliverer is in the middle of sending the first event, which is never answered.
    await waitFor(() => receiver.at('/crash').length === 1, 30_000);
    writer.kill('SIGKILL');
    await exited;

    const left = await outboxRows();
    expect(left).toHaveLength(EVENTS);
    // The dead process had claimed a run of the first events (how many depends on when it looked); the rest wait.
    const claimed = left.filter((row) => row.status === 'sending').length;
    expect(claimed).toBeGreaterThanOrEqual(1);
    expect(left.map((row) => row.status)).toEqual([
      ...Array<string>(claimed).fill('sending'),
      ...Array<string>(EVENTS - claimed).fill('pending'),
    ]);
    expect(left.map((row) => row.attempts)).toEqual([...Array<number>(claimed).fill(1), ...Array<number>(EVENTS - claimed).fill(0)]);
    const stalledId = receiver.at('/crash')[0]!.headers['webhook-id'];
    expect(stalledId).toBe(left[0]!.messageId);

    receiver.setMode('/crash', { kind: 'ok' });
    await server.start();
    await waitFor(() => receiver.at('/crash').length >= EVENTS + 1, 90_000);
    await server.stop('SIGTERM');

    const done = await outboxRows();
    expect(done.map((row) => row.status)).toEqual(Array(EVENTS).fill('delivered'));
    const acknowledged = receiver.at('/crash').slice(1);
    // Each event once after the restart, in order, signed; the stalled one tried once more under its own id.
    expect(acknowledged.map((r) => r.headers['webhook-id'])).toEqual(done.map((row) => row.messageId));
    for (const request of acknowledged) new Webhook(secret).verify(request.body, request.headers);
    // Those it had claimed were tried once more after their lease (the stalled one under its own id), the rest once.
    expect(done[0]).toMatchObject({ messageId: stalledId });
    expect(done.map((row) => row.attempts)).toEqual([...Array<number>(claimed).fill(2), ...Array<number>(EVENTS - claimed).fill(1)]);
  },
);

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
