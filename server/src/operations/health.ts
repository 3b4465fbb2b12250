import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Database } from '../db/client.js';
import type { WebhookTally } from '../webhooks/deliverer.js';

type DatabaseEngine = Database['engine'];

/** What an operator plans with: how much this process carries now and how late its event loop runs. */
export interface HealthReport {
  status: 'ok';
  database: DatabaseEngine;
  /** Live documents held in memory (each with its Y.Doc), and the websocket connections to them. */
  documents: number;
  connections: number;
  /** The event loop's delay over the last minute or so, in milliseconds. */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  memoryMb: { rss: number; heapUsed: number };
}

/** What this process's webhook deliverer has done (WebhookDeliverer.tries). */
export interface WebhookTries {
  tries(): Readonly<WebhookTally>;
}

/** Counts the live-editing server knows (Hocuspocus's `getDocumentsCount` / `getConnectionsCount`). */
export interface LiveCounts {
  getDocumentsCount(): number;
  getConnectionsCount(): number;
}

const WINDOW_MS = 60_000;
const toMs = (nanoseconds: number) => Math.round(nanoseconds / 1e4) / 100;
const toMb = (bytes: number) => Math.round(bytes / 1024 / 102.4) / 10;

/**
 * The event loop's delay as a window: the histogram is started afresh every minute and the figures are
 * those of the fuller of the last finished window and the current one, so that a read just after a
 * restart of the window still says something.
 */
class EventLoopDelay {
  private current: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  private previous: IntervalHistogram | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.current.enable();
    this.timer = setInterval(() => this.turn(), WINDOW_MS);
    this.timer.unref();
  }

  private turn(): void {
    this.previous?.disable();
    this.previous = this.current;
    this.current = monitorEventLoopDelay({ resolution: 10 });
    this.current.enable();
  }

  read(): HealthReport['eventLoopDelayMs'] {
    const fuller = this.previous && this.previous.count > this.current.count ? this.previous : this.current;
    if (fuller.count === 0) return { p50: 0, p99: 0, max: 0 };
    return { p50: toMs(fuller.percentile(50)), p99: toMs(fuller.percentile(99)), max: toMs(fuller.max) };
  }

  stop(): void {
    clearInterval(this.timer);
    this.current.disable();
    this.previous?.disable();
  }
}

/**
 * `/healthz` (always) and, when the operator turns it on (ELN_METRICS=1), `/metrics` in Prometheus's text
 * format: the same counts as gauges beside Node.js's own figures (prom-client's default metrics).
 * `/metrics` is not behind a sign-in, like `/healthz`: expose it to the monitoring network only.
 */
export function registerHealth(
  app: FastifyInstance,
  { database, live, webhooks, metrics }: { database: DatabaseEngine; live: LiveCounts; webhooks: WebhookTries; metrics: boolean },
): { stop(): void } {
  const delay = new EventLoopDelay();
  const report = (): HealthReport => {
    const memory = process.memoryUsage();
    return {
      status: 'ok',
      database,
      documents: live.getDocumentsCount(),
      connections: live.getConnectionsCount(),
      eventLoopDelayMs: delay.read(),
      memoryMb: { rss: toMb(memory.rss), heapUsed: toMb(memory.heapUsed) },
    };
  };
  app.get('/healthz', async (_request, reply) => reply.header('cache-control', 'no-store').send(report()));
  if (metrics) registerMetrics(app, live, webhooks);
  return { stop: () => delay.stop() };
}

function registerMetrics(app: FastifyInstance, live: LiveCounts, webhooks: WebhookTries): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'eln_open_documents',
    help: 'Live documents held in memory by this process.',
    registers: [registry],
    collect() {
      this.set(live.getDocumentsCount());
    },
  });
  new Gauge({
    name: 'eln_connections',
    help: 'Websocket connections to live documents on this process.',
    registers: [registry],
    collect() {
      this.set(live.getConnectionsCount());
    },
  });
  new Counter({
    name: 'eln_webhook_deliveries_total',
    help: 'Webhook tries this process made since it started, by result: delivered (2xx), or failed (tried again later, or for good).',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      const tally = webhooks.tries();
      this.reset();
      this.inc({ result: 'delivered' }, tally.delivered);
      this.inc({ result: 'failed' }, tally.failed);
    },
  });
  app.get('/metrics', async (_request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .type(registry.contentType)
      .send(await registry.metrics()),
  );
}
