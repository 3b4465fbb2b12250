import { afterEach, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import * as Y from 'yjs';
import { api, DURABLE_MESSAGE, noteDocumentName } from '@eln/shared';
import { documentSnapshots, documentUpdates, noteVersions } from '../../db/schema.js';
import type { Database, Queryable } from '../../db/client.js';
import { createTestDatabase, startTestServer, type TestServer } from '../../testing/harness.js';
import {
  appendParagraph,
  connectWriter,
  eventually,
  paragraphTexts,
  roundTrip,
  startTyping,
  tagsOfState,
  type LiveClient,
} from '../../testing/live.js';
import { DatabaseDocumentStore, loadDocumentState, type DocumentStore } from './documentStore.js';

/** A store that can be held shut or made to fail, wrapped around the real database store. */
class ControlledStore implements DocumentStore {
  failuresLeft = 0;
  appendAttempts = 0;
  /** How long each append takes before it reaches the database. */
  appendDelayMs = 0;
  private gate: Promise<void> | null = null;
  private openGate: (() => void) | null = null;
  constructor(private readonly inner: DocumentStore) {}
  hold(): void {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
  }
  release(): void {
    this.openGate?.();
    this.gate = null;
  }
  load(name: string) {
    return this.inner.load(name);
  }
  async append(name: string, updates: Uint8Array[]) {
    this.appendAttempts += 1;
    if (this.gate) await this.gate;
    if (this.appendDelayMs) await new Promise((resolve) => setTimeout(resolve, this.appendDelayMs));
    if (this.failuresLeft > 0) {
      this.failuresLeft -= 1;
      throw new Error('injected store failure');
    }
    return this.inner.append(name, updates);
  }
  compact(name: string) {
    return this.inner.compact(name);
  }
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server with a note and a writer's token; `restart` starts a new server on the same database. */
async function setUp(options: { store?: (db: Database) => ControlledStore; compactEvery?: number } = {}) {
  const { database, dispose } = await createTestDatabase();
  cleanups.unshift(dispose);
  // Each start below is a server process on the same database.
  const start = async () => {
    const store = options.store?.(database);
    const server = await startTestServer({
      database,
      documentStore: store,
      persistence: { compactEvery: options.compactEvery ?? 200, retryDelayMs: 20 },
    });
    const url = await server.listen();
    return { server, url, store };
  };
  return { database, start };
}

/** The clients a durable message names, or none for any other message. */
function clocksIn(message: unknown): string[] {
  const clocks =
    (message as { type?: string; clocks?: Record<string, number> }).type === DURABLE_MESSAGE
      ? (message as { clocks: Record<string, number> }).clocks
      : {};
  return Object.keys(clocks);
}

async function noteFor(server: TestServer) {
  const user = await server.createUser();
  const session = await server.signIn(user.userId, user.password);
  const created = await server.call(
    api.projects.create,
    { title: `P ${user.userId}`.slice(0, 25), signatureList: { department: '', user: user.userId } },
    { token: session.accessToken },
  );
  const note = await server.call(
    api.notes.create,
    { projectNo: created.body.data.projectNo, title: 'Durable' },
    { token: session.accessToken },
  );
  return { token: session.accessToken, labNoteNo: note.body.data.labNoteNo, name: noteDocumentName(note.body.data.labNoteNo) };
}

describe('the document store', () => {
  it('still loads an update that commits after a compaction passed its id (another process was slower)', async () => {
    const { database, dispose } = await createTestDatabase();
    cleanups.push(dispose);
    const store = new DatabaseDocumentStore(database);
    const writer = new Y.Doc();
    const updates: Uint8Array[] = [];
    writer.on('update', (update: Uint8Array) => updates.push(update));
    writer.getArray<string>('a').push(['first']);
    writer.getArray<string>('a').push(['late']);
    writer.getArray<string>('a').push(['third']);
    // The "late" update took id 1 but commits only after the others were stored and compacted.
    const [first, late, third] = updates as [Uint8Array, Uint8Array, Uint8Array];
    await database.db.insert(documentUpdates).values([
      { id: 2, documentName: 'scratch.late', update: first },
      { id: 3, documentName: 'scratch.late', update: third },
    ]);
    expect(await store.compact('scratch.late')).toBe(2);
    await database.db.insert(documentUpdates).values({ id: 1, documentName: 'scratch.late', update: late });
    const reader = new Y.Doc();
    Y.applyUpdate(reader, (await store.load('scratch.late'))!);
    expect(reader.getArray<string>('a').toArray()).toEqual(['first', 'late', 'third']);
    expect(await store.compact('scratch.late')).toBe(1);
    const again = new Y.Doc();
    Y.applyUpdate(again, (await store.load('scratch.late'))!);
    expect(again.getArray<string>('a').toArray()).toEqual(['first', 'late', 'third']);
  });
});

/**
 * A Queryable whose queries wait, each until the test lets it run (`step`), so that another transaction
 * can be made to commit between two reads of one operation.
 */
function steppedQueries(db: Database['db']): { q: Queryable; pending: () => number; step: () => void } {
  const waiting: Array<() => void> = [];
  const wrap = (builder: object): object =>
    new Proxy(builder, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (prop === 'then') {
          return (resolve: (v: unknown) => unknown, reject: (e: unknown) => unknown) =>
            new Promise<void>((go) => waiting.push(go)).then(() => (target as PromiseLike<unknown>).then(resolve, reject));
        }
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const out: unknown = value.apply(target, args);
          return out && typeof out === 'object' ? wrap(out) : out;
        };
      },
    });
  const q = new Proxy(db, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (prop !== 'select' || typeof value !== 'function') return value;
      return (...args: unknown[]) => wrap(value.apply(target, args) as object);
    },
  });
  return { q, pending: () => waiting.length, step: () => waiting.shift()?.() };
}

describe('loading while a compaction commits', () => {
  it('misses no update when the compaction commits between the load’s reads', async () => {
    const { database, dispose } = await createTestDatabase();
    cleanups.push(dispose);
    const store = new DatabaseDocumentStore(database);
    const writer = new Y.Doc();
    writer.on('update', (update: Uint8Array) => void store.append('scratch.race', [update]));
    for (const word of ['one', 'two', 'three']) writer.getArray<string>('a').push([word]);
    await eventually(
      async () => (await database.db.select({ n: count() }).from(documentUpdates)).at(0)?.n === 3,
      'the three updates stored',
    );

    const stepped = steppedQueries(database.db);
    const loading = loadDocumentState(stepped.q, 'scratch.race');
    await eventually(() => stepped.pending() === 1, 'the first read');
    stepped.step();
    await eventually(() => stepped.pending() === 1, 'the second read');
    // Folds the three updates into the snapshot and deletes them, between the load's two reads.
    expect(await store.compact('scratch.race')).toBe(3);
    stepped.step();
    const reader = new Y.Doc();
    Y.applyUpdate(reader, (await loading)!);
    expect(reader.getArray<string>('a').toArray()).toEqual(['one', 'two', 'three']);
  });
});

describe('durable persistence', () => {
  it('confirms an edit only once it is in the database', async () => {
    const { start } = await setUp({ store: (db) => new ControlledStore(new DatabaseDocumentStore(db)) });
    const { server, url, store } = await start();
    cleanups.push(() => server.stop());
    const { token, name } = await noteFor(server);
    const client = await connectWriter(url, name, token);
    cleanups.push(() => client.destroy());

    store!.hold();
    appendParagraph(client.doc, 'waiting for the database');
    await eventually(() => store!.appendAttempts > 0, 'the append to start');
    const stored = async () =>
      Number((await server.database.db.select({ n: count() }).from(documentUpdates).where(eq(documentUpdates.documentName, name)))[0]?.n);
    expect(client.allDurable()).toBe(false);
    expect(await stored()).toBe(0);
    store!.release();
    await eventually(() => client.allDurable(), 'the durable confirmation');
    expect(await stored()).toBeGreaterThan(0);
  });

  it('tells a newcomer every stored clock, and after each commit only its writers the clocks it stored', async () => {
    const { start } = await setUp();
    const { server, url } = await start();
    cleanups.push(() => server.stop());
    const { token, name } = await noteFor(server);
    const first = await connectWriter(url, name, token);
    const second = await connectWriter(url, name, token);
    cleanups.push(
      () => first.destroy(),
      () => second.destroy(),
    );
    const named = (client: LiveClient, from: number) =>
      client
        .stateless()
        .slice(from)
        .map(clocksIn)
        .filter((clients) => clients.length);

    // Neither has written yet: each hears the other's first commit (a writer not yet known hears everything).
    const secondBefore = second.stateless().length;
    appendParagraph(first.doc, 'from the first');
    await eventually(() => first.allDurable(), 'the first writer confirmed');
    await eventually(
      () => named(second, secondBefore).some((clients) => clients.includes(String(first.doc.clientID))),
      'the second writer told',
    );
    appendParagraph(second.doc, 'from the second');
    await eventually(() => second.allDurable(), 'the second writer confirmed');

    // Both are known now: each commit is told to its writer alone, naming only that writer.
    for (const [writer, other] of [
      [first, second],
      [second, first],
    ] as const) {
      const writerBefore = writer.stateless().length;
      const otherBefore = other.stateless().length;
      appendParagraph(writer.doc, 'again');
      await eventually(() => writer.allDurable(), 'the writer confirmed');
      expect(named(writer, writerBefore).length).toBeGreaterThan(0);
      for (const clients of named(writer, writerBefore)) expect(clients).toEqual([String(writer.doc.clientID)]);
      // Whatever the server sent the other before this round trip has arrived: nothing about this commit.
      await roundTrip(writer, other);
      expect(named(other, otherBefore)).toEqual([]);
    }

    const newcomer = await connectWriter(url, name, token);
    cleanups.push(() => newcomer.destroy());
    await eventually(() => newcomer.stateless().some((m) => clocksIn(m).length === 2), 'the newcomer told every clock');
    expect(
      newcomer
        .stateless()
        .map(clocksIn)
        .find((clients) => clients.length)
        ?.sort(),
    ).toEqual([String(first.doc.clientID), String(second.doc.clientID)].sort());

    // A tab whose first stored update passes on another client's items with its own (a reconnect's sync
    // to a server that lacked them) is not known by them: it goes on hearing every commit.
    const elsewhere = new Y.Doc();
    appendParagraph(elsewhere, 'written where the server never saw it');
    const carried = new Y.Doc();
    Y.applyUpdate(carried, Y.encodeStateAsUpdate(elsewhere));
    appendParagraph(carried, 'its own');
    const passing = await connectWriter(url, name, token, carried);
    cleanups.push(() => passing.destroy());
    await eventually(() => passing.allDurable(), 'the passed-on items stored');
    const passingBefore = passing.stateless().length;
    appendParagraph(first.doc, 'heard by the passing tab');
    await eventually(() => first.allDurable(), 'the first writer confirmed again');
    await eventually(
      () => named(passing, passingBefore).some((clients) => clients.includes(String(first.doc.clientID))),
      'the passing tab told',
    );
  });

  it('flushes a document up to the edits it holds when asked, while someone types on faster than it stores', async () => {
    // As a signature or a save asks: a queue that is never empty must not keep the caller waiting.
    const { start } = await setUp({ store: (db) => new ControlledStore(new DatabaseDocumentStore(db)) });
    const { server, url, store } = await start();
    cleanups.push(() => server.stop());
    const { token, name } = await noteFor(server);
    const typist = await connectWriter(url, name, token);
    const observer = await connectWriter(url, name, token);
    cleanups.push(
      () => typist.destroy(),
      () => observer.destroy(),
    );
    // Each commit takes longer than the typist between keystrokes, so edits are always pending.
    store!.appendDelayMs = 40;
    const typing = startTyping(typist, 'typed', 'side map');
    await eventually(() => store!.appendAttempts >= 2, 'typing to be stored');
    appendParagraph(typist.doc, 'before the flush');
    await roundTrip(typist, observer);
    // Typing stops by itself twenty commits later: a flush that waited for an empty queue returns only then.
    const attemptsAtFlush = store!.appendAttempts;
    let typingStopped = false;
    const stopLater = eventually(() => store!.appendAttempts >= attemptsAtFlush + 20, 'twenty more commits').then(() => {
      typingStopped = true;
      return typing.stop();
    });
    await server.services.live.persistence.flushDocument(name);
    const storedAtFlush = tagsOfState(await loadDocumentState(server.database.db, name));
    expect(typingStopped).toBe(false);
    expect(storedAtFlush.has('before the flush')).toBe(true);
    await stopLater;
    // Edits made after the flush was asked were not waited for, and are stored all the same.
    await eventually(() => typist.allDurable(), 'the typing confirmed');
    const storedAtEnd = tagsOfState(await loadDocumentState(server.database.db, name));
    expect(typing.confirmed().filter((tag) => !storedAtEnd.has(tag))).toEqual([]);
    expect(storedAtEnd.size).toBeGreaterThan(storedAtFlush.size);
  });

  it('saves a version holding only edits already stored, while someone types on faster than it stores', async () => {
    const { start } = await setUp({ store: (db) => new ControlledStore(new DatabaseDocumentStore(db)) });
    const { server, url, store } = await start();
    cleanups.push(() => server.stop());
    const { token, labNoteNo, name } = await noteFor(server);
    const typist = await connectWriter(url, name, token);
    cleanups.push(() => typist.destroy());
    store!.appendDelayMs = 40;
    const typing = startTyping(typist, 'typed', 'side map');
    try {
      await eventually(() => store!.appendAttempts >= 2, 'typing to be stored');
      const saved = await server.call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] }, { token });
      expect(saved.body.status).toBe('0000');
      // Read before anything more can be stored: what the database held when the version was written, or more.
      const storedAtSave = tagsOfState(await loadDocumentState(server.database.db, name));
      const [version] = await server.database.db
        .select({ state: noteVersions.documentState })
        .from(noteVersions)
        .where(and(eq(noteVersions.noteNo, labNoteNo), eq(noteVersions.version, 1)));
      const inVersion = tagsOfState(version!.state);
      expect(inVersion.size).toBeGreaterThan(0);
      // A crash now would lose nothing the version holds.
      expect([...inVersion].filter((tag) => !storedAtSave.has(tag))).toEqual([]);
    } finally {
      await typing.stop();
    }
  });

  it('confirms edits sent before a reconnect on the new connection, once they are stored', async () => {
    const { start } = await setUp({ store: (db) => new ControlledStore(new DatabaseDocumentStore(db)) });
    const { server, url, store } = await start();
    cleanups.push(() => server.stop());
    const { token, name } = await noteFor(server);
    const tab = await connectWriter(url, name, token);
    cleanups.push(() => tab.destroy());
    appendParagraph(tab.doc, 'stored on the first connection');
    await eventually(() => tab.allDurable(), 'the first edit confirmed');

    store!.hold();
    appendParagraph(tab.doc, 'sent, then the connection dropped');
    await eventually(() => store!.appendAttempts > 1, 'the append to start');
    // The tab's socket drops while its edit is being stored, and the same provider connects again.
    const socket = tab.provider.configuration.websocketProvider;
    socket.disconnect();
    await eventually(() => (server.collab.documents.get(name)?.getConnectionsCount() ?? 0) === 0, 'the old connection gone');
    await socket.connect();
    await eventually(() => server.collab.documents.get(name)?.getConnectionsCount() === 1, 'the tab connected again');
    expect(tab.allDurable()).toBe(false);
    store!.release();
    await eventually(() => tab.allDurable(), 'the reconnected tab told its edit is stored');
  });

  it('retries a failed store, keeps the document while it has unstored edits, and loses nothing when all clients left', async () => {
    const { start } = await setUp({ store: (db) => new ControlledStore(new DatabaseDocumentStore(db)) });
    const first = await start();
    const { token, name } = await noteFor(first.server);
    const client = await connectWriter(first.url, name, token);

    first.store!.failuresLeft = 3;
    first.store!.hold();
    appendParagraph(client.doc, 'survives a failing store');
    await eventually(() => first.store!.appendAttempts > 0, 'the first attempt');
    client.destroy();
    // The last client is gone, but the edit is not stored yet: the document must stay.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(first.server.collab.documents.has(name)).toBe(true);
    first.store!.release();
    await eventually(() => !first.server.collab.documents.has(name), 'the document to unload once stored');
    expect(first.store!.appendAttempts).toBeGreaterThanOrEqual(4);
    await first.server.stop();

    const second = await start();
    cleanups.push(() => second.server.stop());
    const fresh = await connectWriter(second.url, name, token);
    cleanups.push(() => fresh.destroy());
    expect(paragraphTexts(fresh.doc)).toEqual(['survives a failing store']);
  });

  it('stores everything pending when the server stops gracefully (SIGTERM)', async () => {
    const { start } = await setUp({ store: (db) => new ControlledStore(new DatabaseDocumentStore(db)) });
    const first = await start();
    const { token, name } = await noteFor(first.server);
    const client = await connectWriter(first.url, name, token);
    first.store!.hold();
    for (let i = 0; i < 20; i += 1) appendParagraph(client.doc, `line ${i}`);
    await eventually(() => first.store!.appendAttempts > 0, 'appends to start');
    const stopping = first.server.stop();
    first.store!.release();
    await stopping;
    client.destroy();

    const second = await start();
    cleanups.push(() => second.server.stop());
    const fresh = await connectWriter(second.url, name, token);
    cleanups.push(() => fresh.destroy());
    await eventually(() => paragraphTexts(fresh.doc).length === 20, 'all 20 lines after the restart', 5000);
  });

  it('compacts appended updates into a snapshot without losing any', async () => {
    const { start } = await setUp({ compactEvery: 10 });
    const first = await start();
    const { token, name } = await noteFor(first.server);
    const client = await connectWriter(first.url, name, token);
    for (let i = 0; i < 60; i += 1) {
      appendParagraph(client.doc, `entry ${i}`);
      if (i % 5 === 0) await eventually(() => client.allDurable(), 'durable');
    }
    await eventually(() => client.allDurable(), 'all durable');
    const db = first.server.database.db;
    await eventually(
      async () => (await db.select().from(documentSnapshots).where(eq(documentSnapshots.documentName, name))).length === 1,
      'a snapshot',
    );
    const left = Number((await db.select({ n: count() }).from(documentUpdates).where(eq(documentUpdates.documentName, name)))[0]?.n);
    expect(left).toBeLessThan(60);
    client.destroy();
    await first.server.stop();

    const second = await start();
    cleanups.push(() => second.server.stop());
    const fresh = await connectWriter(second.url, name, token);
    cleanups.push(() => fresh.destroy());
    expect(paragraphTexts(fresh.doc)).toEqual(Array.from({ length: 60 }, (_, i) => `entry ${i}`));
  });
});
