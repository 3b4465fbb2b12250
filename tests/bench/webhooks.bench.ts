import { fileURLToPath } from 'node:url';
import { eq, inArray } from 'drizzle-orm';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase, type Tx } from '../../server/src/db/client.js';
import { users, webhookDeliveries, webhookEndpoints } from '../../server/src/db/schema.js';
import { bootstrap } from '../../server/src/system/bootstrap.js';
import { emitWebhook } from '../../server/src/webhooks/emit.js';
import { freshPostgres, printTable, timingRow } from './database.js';
import { ForkedHelper, monotonicMs } from './forked.js';
import type { ReceiverReply, ReceiverRequest } from './webhookReceivers.js';

/**
 * Webhook delivery on PostgreSQL through the real server's deliverer: EVENTS events, each to ENDPOINTS
 * endpoints (receivers on 127.0.0.1, node:http, in a process of their own: webhookReceivers.ts), twice on a
 * fresh database each: committed one transaction each at RATE events a second, then as one burst (all in
 * one transaction, due at the same moment); timed from each event's commit to its arrival at each receiver.
 * The outbox must be drained at the end (every delivery `delivered`), each receiver having got every event
 * once, in order.
 */
const EVENTS = 1_000;
const ENDPOINTS = 10;
const RATE = 100;
const GOAL_MS = 1000;

const RECEIVERS_MODULE = fileURLToPath(new URL('./webhookReceivers.ts', import.meta.url));

export async function webhooksBench(): Promise<void> {
  const receivers = new ForkedHelper<ReceiverRequest, ReceiverReply>(RECEIVERS_MODULE);
  try {
    const { port } = await receivers.ask({ type: 'start' }, 'started');
    const rows = [await deliveryRun(receivers, port, RATE), await deliveryRun(receivers, port, null)];
    printTable(
      `Webhook delivery: ${EVENTS} events to ${ENDPOINTS} endpoints (${EVENTS * ENDPOINTS} deliveries), from commit to arrival, PostgreSQL, the receivers in a process of their own`,
      rows,
    );
  } finally {
    await receivers.close({ type: 'close' });
  }
}

type Receivers = ForkedHelper<ReceiverRequest, ReceiverReply>;

/** One run on a fresh database: `rate` events a second, or (null) all committed in one transaction. */
async function deliveryRun(receivers: Receivers, port: number, rate: number | null): Promise<Record<string, string | number>> {
  await receivers.ask({ type: 'reset' }, 'reset');
  const target = await freshPostgres();
  const database = await openDatabase({ kind: 'postgres', url: target.url });
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    ELN_ADMIN_PASSWORD: 'bench-admin-password',
    CLIENT_DIST: '/nonexistent',
    WEBHOOKS_ALLOW_LOCAL: '1',
  });
  const app = await buildApp(config, database);
  try {
    await bootstrap(database.db, config);
    const [admin] = await database.db.select({ userNo: users.userNo }).from(users).where(eq(users.userId, config.admin.email));
    await database.db.insert(webhookEndpoints).values(
      Array.from({ length: ENDPOINTS }, (_, i) => ({
        url: `http://127.0.0.1:${port}/e${i}`,
        events: ['user.deactivated'],
        ownerUserNo: admin!.userNo,
        secret: `whsec_${Buffer.alloc(32, i + 1).toString('base64')}`,
      })),
    );
    const committed = new Map<string, number>();
    const emit = (tx: Tx, n: number) =>
      emitWebhook(tx, { event: 'user.deactivated', projectNo: null, data: { userNos: [n], byDirectory: false } });
    const started = monotonicMs();
    if (rate === null) {
      // The burst: every event in one transaction (a directory run deactivating a thousand people, say).
      const ids = await database.db.transaction(async (tx) => {
        const made: string[] = [];
        for (let n = 1; n <= EVENTS; n += 1) made.push((await emit(tx, n))!);
        return made;
      });
      const at = monotonicMs();
      for (const id of ids) committed.set(id, at);
    } else
      for (let n = 1; n <= EVENTS; n += 1) {
        const wait = started + ((n - 1) * 1000) / rate - monotonicMs();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const messageId = await database.db.transaction((tx) => emit(tx, n));
        committed.set(messageId!, monotonicMs());
      }
    const committing = Math.round(monotonicMs() - started);
    const total = EVENTS * ENDPOINTS;
    const deadline = monotonicMs() + 120_000;
    let report = await receivers.ask({ type: 'report' }, 'report');
    while (report.arrivals.length < total && monotonicMs() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      report = await receivers.ask({ type: 'report' }, 'report');
    }
    await app.services.webhooks.flush();
    report = await receivers.ask({ type: 'report' }, 'report');
    const latencies = report.arrivals.map(([id, at]) => Math.round(at - committed.get(id)!));
    const times = new Map<string, number>();
    for (const [id] of report.arrivals) times.set(id, (times.get(id) ?? 0) + 1);
    const left = await database.db
      .select({ deliveryId: webhookDeliveries.deliveryId })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.status, ['pending', 'sending', 'failed']));
    const inOrder = report.order.length === ENDPOINTS && report.order.every(([, list]) => list.every((n, i) => n === i + 1));
    return {
      ...timingRow(
        rate === null ? `burst: all in one commit (${committing} ms)` : `${rate} events a second`,
        latencies,
        GOAL_MS,
        'deliveries',
      ),
      // In order per endpoint: a burst's last event on an endpoint waits for the round trips of all before it.
      'ms per delivery, one endpoint': rate === null ? Math.round((100 * Math.max(...latencies)) / EVENTS) / 100 : '—',
      'left in outbox': left.length,
      'twice or more': [...times.values()].filter((count) => count > ENDPOINTS).length,
      'in order': inOrder ? 'yes' : 'NO',
    };
  } finally {
    await app.close();
    await database.close();
    await target.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await webhooksBench();
  process.exit(0);
}
