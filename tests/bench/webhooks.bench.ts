import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { eq, inArray } from 'drizzle-orm';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { users, webhookDeliveries, webhookEndpoints } from '../../server/src/db/schema.js';
import { bootstrap } from '../../server/src/system/bootstrap.js';
import { emitWebhook } from '../../server/src/webhooks/emit.js';
import { freshPostgres, printTable, timingRow } from './database.js';

/**
 * Webhook delivery on PostgreSQL through the real server's deliverer: EVENTS events, each to ENDPOINTS
 * endpoints (receivers on 127.0.0.1, node:http), committed one transaction each at RATE events a second;
 * timed from each event's commit to its arrival at each receiver. The outbox must be drained at the end
 * (every delivery `delivered`), each receiver having got every event once, in order.
 */
const EVENTS = 1_000;
const ENDPOINTS = 10;
const RATE = 100;
const GOAL_MS = 1000;

export async function webhooksBench(): Promise<void> {
  const target = await freshPostgres();
  const database = await openDatabase({ kind: 'postgres', url: target.url });
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    ELN_ADMIN_PASSWORD: 'bench-admin-password',
    CLIENT_DIST: '/nonexistent',
    WEBHOOKS_ALLOW_LOCAL: '1',
  });
  const app = await buildApp(config, database);
  const arrivals = new Map<string, number[]>();
  const order = new Map<string, number[]>();
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const at = performance.now();
      const id = request.headers['webhook-id'] as string;
      arrivals.set(id, [...(arrivals.get(id) ?? []), at]);
      const n = (JSON.parse(body) as { data: { userNos: number[] } }).data.userNos[0]!;
      order.set(request.url!, [...(order.get(request.url!) ?? []), n]);
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  try {
    await bootstrap(database.db, config);
    const [admin] = await database.db.select({ userNo: users.userNo }).from(users).where(eq(users.userId, config.admin.email));
    const endpointIds = (
      await database.db
        .insert(webhookEndpoints)
        .values(
          Array.from({ length: ENDPOINTS }, (_, i) => ({
            url: `http://127.0.0.1:${port}/e${i}`,
            events: ['user.deactivated'],
            ownerUserNo: admin!.userNo,
            secret: `whsec_${Buffer.alloc(32, i + 1).toString('base64')}`,
          })),
        )
        .returning({ endpointId: webhookEndpoints.endpointId })
    ).map((row) => row.endpointId);
    const committed = new Map<string, number>();
    const started = performance.now();
    for (let n = 1; n <= EVENTS; n += 1) {
      const due = started + ((n - 1) * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const messageId = await database.db.transaction((tx) =>
        emitWebhook(tx, { event: 'user.deactivated', projectNo: null, data: { userNos: [n], byDirectory: false } }),
      );
      committed.set(messageId!, performance.now());
    }
    const total = EVENTS * ENDPOINTS;
    const deadline = performance.now() + 120_000;
    while ([...arrivals.values()].reduce((sum, list) => sum + list.length, 0) < total && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await app.services.webhooks.flush();
    const latencies: number[] = [];
    for (const [id, times] of arrivals) for (const at of times) latencies.push(Math.round(at - committed.get(id)!));
    const left = await database.db
      .select({ deliveryId: webhookDeliveries.deliveryId })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.status, ['pending', 'sending', 'failed']));
    const inOrder = [...order.values()].every((list) => list.every((n, i) => n === i + 1));
    printTable(
      `Webhook delivery: ${EVENTS} events to ${ENDPOINTS} endpoints (${total} deliveries), ${RATE} events a second, from commit to arrival, PostgreSQL, server and receivers in one process`,
      [
        {
          ...timingRow('commit → arrival', latencies, GOAL_MS, 'deliveries'),
          endpoints: endpointIds.length,
          'left in outbox': left.length,
          'twice or more': [...arrivals.values()].filter((times) => times.length > ENDPOINTS).length,
          'in order': inOrder ? 'yes' : 'NO',
        },
      ],
    );
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await app.close();
    await database.close();
    await target.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await webhooksBench();
  process.exit(0);
}
