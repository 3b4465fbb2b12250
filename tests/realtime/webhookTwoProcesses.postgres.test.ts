import { afterAll, beforeAll, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { api } from '@eln/shared';
import { openDatabase } from '../../server/src/db/client.js';
import { webhookDeliveries } from '../../server/src/db/schema.js';
import { TestWebhookReceiver } from '../../server/src/testing/webhookReceiver.js';
import { ServerProcess } from './serverProcess.js';

/**
 * Two real server processes (server/src/main.ts) on one PostgreSQL database, both delivering webhooks while
 * notes are created through both: every event reaches every endpoint exactly once (one try each, one
 * `webhook-id` each), in the order of the outbox per endpoint, signed with the endpoint's secret, and each
 * process's /metrics shows it delivered part of them, the two parts adding up to all. (With 30 single-note
 * races, one process winning them all is a chance of about 2 in a billion if the race were fair.)
 */
const ENDPOINTS = 4;
/** The notes created in the race, and at once there (half through each process). */
const RACED = 30;
const AT_ONCE = 6;
/** Notes in all: the rest are created one at a time. */
const NOTES = 60;
const PASSWORD = 'two-process-hooks-password';

let receiver: TestWebhookReceiver;
let one: ServerProcess;
let two: ServerProcess;

beforeAll(async () => {
  if (process.env.ELN_TEST_DB !== 'postgres' || !process.env.TEST_DATABASE_URL)
    throw new Error('Two processes delivering webhooks share one PostgreSQL database: set TEST_DATABASE_URL (api:postgres project)');
  receiver = await TestWebhookReceiver.start();
  const settings = { WEBHOOKS_ALLOW_LOCAL: '1', ELN_METRICS: '1' };
  one = await ServerProcess.create(undefined, settings);
  two = await ServerProcess.create({ env: { DATABASE_URL: one.env.DATABASE_URL ?? '' } }, settings);
  await one.start();
  await two.start();
}, 120_000);

afterAll(async () => {
  await two?.dispose();
  await one?.dispose();
  await receiver?.close();
});

/** What a process's /metrics says it delivered. */
async function deliveredBy(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const found = /^eln_webhook_deliveries_total\{result="delivered"\} (\d+)$/m.exec(text);
  if (!found) throw new Error(`no eln_webhook_deliveries_total in ${server.url}/metrics`);
  return Number(found[1]);
}

it('delivers every event once, in order per endpoint, with both processes delivering', { timeout: 180_000 }, async () => {
  const admin = (await one.call(api.auth.signIn, { userId: 'admin@eln.local', password: ServerProcess.adminPassword })).accessToken;
  const secrets = new Map<string, string>();
  for (let n = 0; n < ENDPOINTS; n += 1) {
    const path = `/two/${n}`;
    // A receiver that takes a moment keeps runs under way while the racing notes come in.
    receiver.setMode(path, { kind: 'slow', delayMs: 15 });
    const { secret } = await one.call(api.webhooks.create, { url: receiver.url(path), events: ['note.created'] }, admin);
    secrets.set(path, secret);
  }
  const userId = 'hooks.writer@two.test';
  await one.call(
    api.users.create,
    { userId, name: 'Hook Writer', password: PASSWORD, auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } },
    admin,
  );
  const writer = (await two.call(api.auth.signIn, { userId, password: PASSWORD })).accessToken;
  const { projectNo } = await one.call(
    api.projects.create,
    { title: 'Two deliverers', signatureList: { department: '', user: userId } },
    writer,
  );

  const expected = ENDPOINTS * NOTES;
  const arrived = () => [...secrets.keys()].reduce((sum, path) => sum + receiver.at(path).length, 0);
  const arrivalOf = async (count: number) => {
    const until = Date.now() + 90_000;
    while (arrived() < count) {
      if (Date.now() > until) throw new Error(`${arrived()} of ${count} deliveries arrived`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const create = (through: ServerProcess, n: number) => through.call(api.notes.create, { projectNo, title: `Run ${n}` }, writer);

  // The race: half the notes created through both processes at once, both claiming while the other sends.
  for (let first = 0; first < RACED; first += AT_ONCE)
    await Promise.all(Array.from({ length: AT_ONCE }, (_, k) => create(k % 2 === 0 ? one : two, first + k)));
  await arrivalOf(ENDPOINTS * RACED);
  // Then one note at a time, each note's deliveries awaited: both processes hear of each commit (pg_notify)
  // and race to claim its deliveries, a race each may win. The first phase may have gone to one alone.
  for (let n = RACED; n < NOTES; n += 1) {
    await create(n % 2 === 0 ? one : two, n);
    await arrivalOf(ENDPOINTS * (n + 1));
  }

  const database = await openDatabase({ kind: 'postgres', url: one.env.DATABASE_URL ?? '' });
  try {
    const rows = await database.db.select().from(webhookDeliveries).orderBy(asc(webhookDeliveries.deliveryId));
    expect(rows).toHaveLength(expected);
    // One try each: a delivery claimed by both processes would have counted two.
    expect(rows.filter((row) => row.status !== 'delivered' || row.attempts !== 1)).toEqual([]);
    for (const [n, [path, secret]] of [...secrets].entries()) {
      const got = receiver.at(path);
      const ids = got.map((request) => request.headers['webhook-id']);
      expect(new Set(ids).size, `endpoint ${n}`).toBe(NOTES);
      for (const request of got) new Webhook(secret).verify(request.body, request.headers);
      // In the outbox's order for that endpoint.
      const endpointId = rows.find((row) => row.messageId === ids[0])!.endpointId;
      expect(ids).toEqual(rows.filter((row) => row.endpointId === endpointId).map((row) => row.messageId));
    }
  } finally {
    await database.close();
  }
  const [byOne, byTwo] = [await deliveredBy(one), await deliveredBy(two)];
  expect(byOne + byTwo).toBe(expected);
  expect(byOne).toBeGreaterThan(0);
  expect(byTwo).toBeGreaterThan(0);
});
