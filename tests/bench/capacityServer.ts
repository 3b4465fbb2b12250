import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import { Server } from '@hocuspocus/server';
import * as Y from 'yjs';
import { COLLAB_PATH } from '@eln/shared';
import { realisticBodyUpdate } from './realisticNote.js';
import { answerParent } from './forked.js';

/**
 * The server of the capacity and soak benchmarks, in a process of its own so that its memory is
 * measured alone (run with --expose-gc): ours on the benchmark's PostgreSQL database, or bare
 * Hocuspocus (memory only, each note's body given at load), for comparison.
 */

export type ServerRequest =
  | { type: 'start'; mode: 'ours' | 'bare'; databaseUrl: string; dataDir: string }
  | { type: 'memory' }
  | { type: 'loop-start' }
  | { type: 'loop-stop' }
  | { type: 'heap-snapshot'; file: string }
  | { type: 'close' };

export interface ServerMemory {
  rss: number;
  heapUsed: number;
  /** The heap V8 has committed (used and free), part of RSS. */
  heapTotal: number;
  /** Outside V8's heap: Buffers and typed arrays (Yjs updates, socket buffers). */
  external: number;
  documents: number;
  connections: number;
}

export interface LoopFigures {
  p99Ms: number;
  maxMs: number;
  /** This process's CPU time (user and system) meanwhile, and the wall time, in ms. */
  cpuMs: number;
  wallMs: number;
}

export type ServerReply =
  | { type: 'started'; wsUrl: string; httpUrl: string }
  | { type: 'memory'; memory: ServerMemory }
  | { type: 'loop'; loop: LoopFigures | null }
  | { type: 'snapshot'; file: string; rssBefore: number; rssAfter: number }
  | { type: 'error'; message: string }
  | { type: 'closed' };

interface Running {
  documents(): number;
  connections(): number;
  close(): Promise<void>;
}

async function startOurs(databaseUrl: string, dataDir: string): Promise<Running & { wsUrl: string; httpUrl: string }> {
  // Imported here: bare Hocuspocus's process holds none of our server's code.
  const { openDatabase } = await import('../../server/src/db/client.js');
  const { buildApp } = await import('../../server/src/app.js');
  const { capacityConfig } = await import('./capacityDataset.js');
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl });
  const app = await buildApp(capacityConfig(dataDir), database);
  const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    wsUrl: `${address.replace('http', 'ws')}${COLLAB_PATH}`,
    httpUrl: address,
    documents: () => app.collab.getDocumentsCount(),
    connections: () => app.collab.getConnectionsCount(),
    async close() {
      await app.close();
      await database.close();
    },
  };
}

async function startBare(): Promise<Running & { wsUrl: string; httpUrl: string }> {
  const server = new Server({
    port: 0,
    quiet: true,
    address: '127.0.0.1',
    extensions: [
      {
        // The same body as the note's in the database, built at load as ours reads it from the store.
        async onLoadDocument({ document, documentName }) {
          Y.applyUpdate(document, realisticBodyUpdate(Number(documentName.split('.')[1])));
        },
      },
    ],
  });
  await server.listen();
  const { port } = server.httpServer.address() as { port: number };
  return {
    wsUrl: `ws://127.0.0.1:${port}`,
    httpUrl: `http://127.0.0.1:${port}`,
    documents: () => server.hocuspocus.getDocumentsCount(),
    connections: () => server.hocuspocus.getConnectionsCount(),
    close: () => server.destroy(),
  };
}

/** After two full collections: what the process holds, not what it has yet to collect. */
function memory(running: Running): ServerMemory {
  if (!global.gc) throw new Error('the capacity server runs with --expose-gc');
  global.gc();
  global.gc();
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external, documents: running.documents(), connections: running.connections() };
}

let running: Running | null = null;
let loop: { histogram: IntervalHistogram; cpu: NodeJS.CpuUsage; startedAt: number } | null = null;

answerParent<ServerRequest, ServerReply>('close', async (request) => {
  switch (request.type) {
    case 'start': {
      const started = request.mode === 'ours' ? await startOurs(request.databaseUrl, request.dataDir) : await startBare();
      running = started;
      return { type: 'started', wsUrl: started.wsUrl, httpUrl: started.httpUrl };
    }
    case 'memory':
      return { type: 'memory', memory: memory(running!) };
    case 'loop-start': {
      const histogram = monitorEventLoopDelay({ resolution: 1 });
      histogram.enable();
      loop = { histogram, cpu: process.cpuUsage(), startedAt: performance.now() };
      return { type: 'loop', loop: null };
    }
    case 'loop-stop': {
      const { histogram, cpu, startedAt } = loop!;
      histogram.disable();
      const used = process.cpuUsage(cpu);
      return {
        type: 'loop',
        loop: {
          p99Ms: histogram.percentile(99) / 1e6,
          maxMs: histogram.max / 1e6,
          cpuMs: (used.user + used.system) / 1000,
          wallMs: performance.now() - startedAt,
        },
      };
    }
    case 'heap-snapshot': {
      // What the snapshot leaves in RSS (V8's profiler keeps some of its state, and freed native memory
      // is not all handed back), so that later readings can be told apart from it.
      const rssBefore = memory(running!).rss;
      const file = writeHeapSnapshot(request.file);
      return { type: 'snapshot', file, rssBefore, rssAfter: memory(running!).rss };
    }
    case 'close':
      await running?.close();
      // A handle left open must not keep the process (and the benchmark waiting for its exit) alive;
      // exiting normally still writes a --cpu-prof profile.
      setTimeout(() => process.exit(0), 2000).unref();
      return null;
  }
});
