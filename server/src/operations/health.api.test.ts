import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, noteDocumentName } from '@eln/shared';
import { appendParagraph, connectWriter, eventually, type LiveClient } from '../testing/live.js';
import { startTestServer, type TestPerson, type TestServer } from '../testing/harness.js';
import type { HealthReport } from './health.js';

/*
 * What an operator reads of a running process: /healthz counts the live documents and connections it
 * holds and says how late its event loop runs; /metrics (turned on here) says the same to Prometheus.
 */

let server: TestServer;
let url: string;
let writer: TestPerson;
let reader: TestPerson;
let labNoteNo: number;
const clients: LiveClient[] = [];

const health = async (): Promise<HealthReport> => (await fetch(`${url}/healthz`)).json() as Promise<HealthReport>;
const gauge = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN);

beforeAll(async () => {
  server = await startTestServer({ config: { metrics: true } });
  url = await server.listen();
  writer = await server.person({ name: 'Writer Woo' });
  reader = await server.person({ name: 'Reader Ryu' });
  const { projectNo } = (
    await writer.call(api.projects.create, {
      title: 'Health',
      signatureList: { department: '', user: [writer, reader].map((p) => p.user.userId).join(',') },
    })
  ).body.data;
  labNoteNo = (await writer.call(api.notes.create, { projectNo, title: 'Counted' })).body.data.labNoteNo;
});

afterAll(async () => {
  for (const client of clients) client.destroy();
  await server?.stop();
});

describe('/healthz', () => {
  it('counts the documents open and their connections, and lets them go when the last editor leaves', async () => {
    const idle = await health();
    expect(idle).toMatchObject({ status: 'ok', database: server.database.engine, documents: 0, connections: 0 });

    const documentName = noteDocumentName(labNoteNo);
    const editor = await connectWriter(url, documentName, writer.token);
    const watcher = await connectWriter(url, documentName, reader.token);
    clients.push(editor, watcher);
    expect(await health()).toMatchObject({ documents: 1, connections: 2 });

    appendParagraph(editor.doc, 'Stored before the note is let go');
    await eventually(() => editor.allDurable(), 'the paragraph to be stored');
    editor.destroy();
    watcher.destroy();
    await eventually(async () => {
      const { documents, connections } = await health();
      return documents === 0 && connections === 0;
    }, 'the note to be unloaded once nobody has it open');
  });

  it('says how late the event loop runs and how much memory the process holds', async () => {
    const report = await health();
    expect(report.eventLoopDelayMs.p99).toBeGreaterThanOrEqual(report.eventLoopDelayMs.p50);
    expect(report.eventLoopDelayMs.max).toBeGreaterThanOrEqual(report.eventLoopDelayMs.p99);
    expect(report.eventLoopDelayMs.p50).toBeGreaterThan(0);
    expect(report.memoryMb.rss).toBeGreaterThan(report.memoryMb.heapUsed);
    expect(report.memoryMb.heapUsed).toBeGreaterThan(1);
  });
});

describe('/metrics (ELN_METRICS=1)', () => {
  it('gives the same counts as gauges in Prometheus text, beside Node.js’s own figures', async () => {
    const editor = await connectWriter(url, noteDocumentName(labNoteNo), writer.token);
    clients.push(editor);
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(gauge(text, 'eln_open_documents')).toBe(1);
    expect(gauge(text, 'eln_connections')).toBe(1);
    expect(text).toMatch(/^# HELP eln_open_documents /m);
    // Nothing to deliver here: both results at 0 (tests/realtime/webhookTwoProcesses.postgres.test.ts counts them).
    expect(text).toMatch(/^eln_webhook_deliveries_total\{result="delivered"\} 0$/m);
    expect(text).toMatch(/^eln_webhook_deliveries_total\{result="failed"\} 0$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds /m);
    expect(text).toMatch(/^process_resident_memory_bytes /m);
    editor.destroy();
  });
});
