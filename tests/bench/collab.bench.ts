import { performance } from 'node:perf_hooks';
import { Server } from '@hocuspocus/server';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { COLLAB_PATH, DurableTracker, noteDocumentName, type SignInAnswer } from '@eln/shared';
import { buildApp, type App } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase, type Database } from '../../server/src/db/client.js';
import { bootstrap } from '../../server/src/system/bootstrap.js';
import { appendTable, appendParagraph } from '../../server/src/testing/live.js';
import { freshPostgres, percentile, printTable } from './database.js';

const NOTES = 20;
const EDITOR_COUNTS = [1, 10, 50];
const EDITS_PER_WRITER = 4;

interface Measured {
  propagation: number[];
  durable: number[];
}

interface Peer {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
  /** The server's confirmations, merged, as the editor tracks them. */
  durable: DurableTracker;
}

function connect(url: string, name: string, token: string, onDurable?: (peer: Peer) => void): Promise<Peer> {
  const doc = new Y.Doc();
  const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`connect ${name} timed out`)), 30_000);
    const provider: HocuspocusProvider = new HocuspocusProvider({
      websocketProvider: socket,
      name,
      document: doc,
      token,
      onStateless: ({ payload }) => {
        if (peer.durable.receive(payload)) onDurable?.(peer);
      },
      onSynced: () => {
        clearTimeout(timer);
        resolve(peer);
      },
      onAuthenticationFailed: ({ reason }) => reject(new Error(reason)),
    });
    const peer: Peer = { doc, socket, provider, durable: new DurableTracker(doc) };
    provider.attach();
  });
}

/** Writers push timestamped entries; one reader per note records when each arrives. */
async function run(url: string, names: string[], tokens: string[], editors: number): Promise<Measured> {
  const measured: Measured = { propagation: [], durable: [] };
  const peers: Peer[] = [];
  const pendingDurable = new Map<Peer, Array<{ clock: number; at: number }>>();
  const onDurable = (peer: Peer) => {
    const waiting = pendingDurable.get(peer) ?? [];
    const now = performance.now();
    pendingDurable.set(
      peer,
      waiting.filter((entry) => {
        if (peer.durable.storedClock() >= entry.clock) {
          measured.durable.push(now - entry.at);
          return false;
        }
        return true;
      }),
    );
  };
  try {
    const writersByNote: Peer[][] = [];
    for (const name of names) {
      const reader = await connect(url, name, tokens[0]!);
      peers.push(reader);
      reader.doc.getArray<string>('bench').observe((event) => {
        const now = performance.now();
        for (const item of event.changes.added) {
          for (const value of item.content.getContent() as string[]) measured.propagation.push(now - Number(value.split('@')[1]));
        }
      });
      const writers: Peer[] = [];
      for (let i = 0; i < editors; i += 1) writers.push(await connect(url, name, tokens[(i % (tokens.length - 1)) + 1]!, onDurable));
      peers.push(...writers);
      writersByNote.push(writers);
    }
    const all = writersByNote.flat();
    for (let round = 0; round < EDITS_PER_WRITER; round += 1) {
      for (const writer of all) {
        const at = performance.now();
        writer.doc.getArray<string>('bench').push([`${writer.doc.clientID}.${round}@${at}`]);
        pendingDurable.set(writer, [...(pendingDurable.get(writer) ?? []), { clock: Y.getState(writer.doc.store, writer.doc.clientID), at }]);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const expected = all.length * EDITS_PER_WRITER;
    const until = Date.now() + 60_000;
    while (measured.propagation.length < expected && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    return measured;
  } finally {
    for (const peer of peers) {
      peer.provider.destroy();
      peer.socket.destroy();
    }
  }
}

const ms = (values: number[], p: number) => (values.length ? Number(percentile([...values].sort((a, b) => a - b), p).toFixed(2)) : Number.NaN);

async function ourServer(): Promise<{ app: App; database: Database; url: string; names: string[]; tokens: string[]; drop: () => Promise<void> }> {
  const target = await freshPostgres();
  const database = await openDatabase({ kind: 'postgres', url: target.url });
  // Every benchmark editor connects from loopback: up to 50 per note on 20 notes, past the per-address limit.
  const config = loadConfig({ LOG_LEVEL: 'silent', ELN_ADMIN_PASSWORD: 'bench-admin-password', CLIENT_DIST: '/nonexistent', COLLAB_SOCKETS_PER_ADDRESS: '10000' });
  const app = await buildApp(config, database);
  await bootstrap(database.db, config);
  const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
  const call = async <T>(path: string, body: unknown, token?: string) => {
    const response = await app.app.inject({ method: 'POST', url: `/server${path}`, payload: body as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
    return response.json<{ status: string; data: T }>().data;
  };
  const admin = (await call<SignInAnswer>('/v1/user/signIn', { userId: config.admin.email, password: 'bench-admin-password' })).accessToken;
  const tokens: string[] = [];
  const userIds: string[] = [];
  for (let i = 0; i < 11; i += 1) {
    const userId = `editor${i}@bench.test`;
    await call('/v1/admin/user/create', { userId, name: `Editor ${i}`, password: 'bench-editor-password', auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } }, admin);
    userIds.push(userId);
    tokens.push((await call<SignInAnswer>('/v1/user/signIn', { userId, password: 'bench-editor-password' })).accessToken);
  }
  const { projectNo } = await call<{ projectNo: number }>('/v1/project/create', { title: 'Bench', signatureList: { department: '', user: userIds.join(',') } }, tokens[0]);
  const names: string[] = [];
  for (let i = 0; i < NOTES; i += 1) {
    const { labNoteNo } = await call<{ labNoteNo: number }>('/v1/project/note/create', { projectNo, title: `Note ${i}` }, tokens[0]);
    names.push(noteDocumentName(labNoteNo));
  }
  return {
    app,
    database,
    url: `${address.replace('http', 'ws')}${COLLAB_PATH}`,
    names,
    tokens,
    async drop() {
      await app.close();
      await database.close();
      await target.drop();
    },
  };
}

async function tempSaveBench(ours: Awaited<ReturnType<typeof ourServer>>): Promise<Record<string, string | number>> {
  const name = ours.names[0]!;
  const labNoteNo = Number(name.split('.')[1]);
  const writer = await connect(ours.url, name, ours.tokens[1]!);
  writer.doc.getXmlFragment('default').delete(0, writer.doc.getXmlFragment('default').length);
  appendTable(writer.doc, 30, 30);
  for (let i = 0; i < 20; i += 1) appendParagraph(writer.doc, `Observation ${i}: the solution turned pale yellow after ${i} minutes at 37 °C.`);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const times: number[] = [];
  for (let i = 0; i < 60; i += 1) {
    const start = performance.now();
    const response = await ours.app.app.inject({
      method: 'POST',
      url: '/server/v1/project/note/temp',
      payload: { labNoteNo, blockList: [] },
      headers: { authorization: `Bearer ${ours.tokens[1]}` },
    });
    if (response.json<{ status: string }>().status !== '0000') throw new Error(response.body);
    times.push(performance.now() - start);
  }
  writer.provider.destroy();
  writer.socket.destroy();
  return { measure: 'temp save, 30x30 table + 20 text blocks', calls: times.length, 'p50 ms': ms(times, 50), 'p99 ms': ms(times, 99) };
}

export async function collabBench(): Promise<void> {
  const bare = new Server({ port: 0, quiet: true, address: '127.0.0.1' });
  await bare.listen();
  const bareUrl = `ws://127.0.0.1:${(bare.httpServer.address() as { port: number }).port}`;
  const bareNames = Array.from({ length: NOTES }, (_, i) => `bench.${i}`);
  const ours = await ourServer();
  try {
    const rows: Array<Record<string, string | number>> = [];
    for (const editors of EDITOR_COUNTS) {
      const plain = await run(bareUrl, bareNames.map((n) => `${n}.${editors}`), Array(12).fill('token'), editors);
      const full = await run(ours.url, ours.names, ours.tokens, editors);
      rows.push({
        'editors/note': editors,
        notes: NOTES,
        edits: full.propagation.length,
        'bare p50 ms': ms(plain.propagation, 50),
        'bare p99 ms': ms(plain.propagation, 99),
        'ours p50 ms': ms(full.propagation, 50),
        'ours p99 ms': ms(full.propagation, 99),
        'p50 ratio': Number((ms(full.propagation, 50) / ms(plain.propagation, 50)).toFixed(2)),
        'p99 ratio': Number((ms(full.propagation, 99) / ms(plain.propagation, 99)).toFixed(2)),
        'durable p50 ms': ms(full.durable, 50),
        'durable p99 ms': ms(full.durable, 99),
      });
    }
    printTable(`Edit propagation writer → reader, bare Hocuspocus vs ours (auth, holds, presence, durable PostgreSQL persistence), ${NOTES} notes`, rows);
    printTable('Server time', [await tempSaveBench(ours)]);
  } finally {
    await bare.destroy();
    await ours.drop();
  }
}
