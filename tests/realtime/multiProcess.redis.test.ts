import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import * as Y from 'yjs';
import { api, CONTENT_FIELD, HOLD_ENDED_MESSAGE, noteDocumentName, type CallInput, type CallSpec } from '@eln/shared';
import { openDatabase, type Database } from '../../server/src/db/client.js';
import { DatabaseDocumentStore } from '../../server/src/collab/persistence/documentStore.js';
import { installAfterLockTrigger, storedAfterLock } from '../../server/src/testing/afterLock.js';
import {
  SIDE_MAP,
  appendParagraph,
  connectLive,
  connectWriter,
  eventually,
  paragraphTexts,
  plainText,
  startTyping,
  tagsOfState,
  type LiveClient,
} from '../../server/src/testing/live.js';
import { requireRedis } from '../../server/src/testing/redis.js';
import { FaultProxy } from './faultProxy.js';
import { ServerProcess } from './serverProcess.js';

/**
 * Two real server processes on one PostgreSQL and one Redis, with editors on both, under the faults of
 * a real deployment: a process killed with SIGKILL mid-writing while the database is slow (a proxy adds
 * latency) and stalled (a held table lock), a process cut off from Redis, Redis not answering. Every
 * edit ever shown saved must be in a fresh load after both restart, nothing may be stored after a lock,
 * a lock, clear or ended access made through one process must end writing on the other before the
 * call answers (what is typed there after the answer is never stored), and every copy converges,
 * formatting included.
 */
const KILLS = Number(process.env.ELN_MULTIPROCESS_KILLS ?? 4);
const REDIS_URL = process.env.TEST_REDIS_URL ?? '';
const PASSWORD = 'multi-process-password-1';

interface Person {
  userId: string;
  name: string;
  token: string;
}

let baseUrl: string;
let dbName: string;
let database: Database;
let sqlAdmin: postgres.Sql;
const proxies: FaultProxy[] = [];
let dbProxyOne: FaultProxy;
let redisProxyOne: FaultProxy;
let redisProxyTwo: FaultProxy;
let one: ServerProcess;
let two: ServerProcess;
let alice: Person;
let bob: Person;
let projectNo: number;
const clients: LiveClient[] = [];

const call = <C extends CallSpec>(server: ServerProcess, spec: C, body: CallInput<C>, token?: string) => server.call(spec, body, token);

async function connect(server: ServerProcess, name: string, person: Person, doc?: Y.Doc): Promise<LiveClient> {
  const client = await connectWriter(server.url, name, person.token, doc);
  clients.push(client);
  return client;
}

/** Every note the suite wrote, to check at the end that each converges on both processes. */
const notes: string[] = [];

async function newNote(title: string): Promise<{ labNoteNo: number; name: string }> {
  const { labNoteNo } = await call(one, api.notes.create, { projectNo, title }, alice.token);
  notes.push(noteDocumentName(labNoteNo));
  return { labNoteNo, name: noteDocumentName(labNoteNo) };
}

/** A node of a document's content with its attributes and, for text, its formatted runs. */
type Formatted = { node: string; attributes: Record<string, unknown>; children: Formatted[] } | { text: unknown };

function formatted(node: Y.XmlElement | Y.XmlText | Y.XmlHook): Formatted {
  if (node instanceof Y.XmlText) return { text: node.toDelta() };
  if (node instanceof Y.XmlHook) return { node: 'hook', attributes: {}, children: [] };
  return { node: node.nodeName, attributes: node.getAttributes(), children: node.toArray().map(formatted) };
}

/** A document's content (every node, attribute and mark) and side map, to compare copies. */
const contentOf = (doc: Y.Doc) => ({
  content: doc.getXmlFragment(CONTENT_FIELD).toArray().map(formatted),
  side: [...doc.getMap(SIDE_MAP).keys()].sort(),
});

/** The paragraph whose text is `tag`. */
function paragraphOf(doc: Y.Doc, tag: string): Y.XmlText | undefined {
  for (const node of doc.getXmlFragment(CONTENT_FIELD).toArray()) {
    const text = node instanceof Y.XmlElement && node.nodeName === 'paragraph' ? node.get(0) : undefined;
    if (text instanceof Y.XmlText && plainText(text) === tag) return text;
  }
  return undefined;
}

/** Makes a whole paragraph bold, as the editor's bold mark does. */
function embolden(doc: Y.Doc, tag: string): void {
  const text = paragraphOf(doc, tag);
  if (!text) throw new Error(`no paragraph ${tag}`);
  text.format(0, text.length, { bold: {} });
}

const isBold = (doc: Y.Doc, tag: string) =>
  (paragraphOf(doc, tag)?.toDelta() as Array<{ attributes?: { bold?: unknown } }> | undefined)?.every((op) => op.attributes?.bold) ?? false;

const holdEnded = (client: LiveClient) => client.stateless().some((m) => (m as { type?: string }).type === HOLD_ENDED_MESSAGE);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tagged paragraphs a writer typed, with its clock after each: confirmed once a durable clock reaches it. */
class Typed {
  private readonly edits: Array<{ tag: string; clock: number }> = [];
  readonly confirmed = new Set<string>();
  constructor(readonly doc: Y.Doc) {}
  type(tag: string): void {
    appendParagraph(this.doc, tag);
    this.edits.push({ tag, clock: Y.getState(this.doc.store, this.doc.clientID) });
  }
  /** Takes what the connection shows saved now, as the editor would show it. */
  note(client: LiveClient): void {
    const durable = client.durable()?.clocks[String(this.doc.clientID)] ?? 0;
    for (const edit of this.edits) if (edit.clock <= durable) this.confirmed.add(edit.tag);
  }
}

/** Holds `lock table document_updates in exclusive mode` until released: every append waits. */
async function stallDatabase(): Promise<() => Promise<void>> {
  const connection = await sqlAdmin.reserve();
  await connection`begin`;
  await connection`lock table document_updates in exclusive mode`;
  return async () => {
    await connection`rollback`;
    connection.release();
  };
}

async function freshTags(name: string): Promise<Set<string>> {
  return tagsOfState(await new DatabaseDocumentStore(database).load(name));
}

beforeAll(async () => {
  if (process.env.ELN_TEST_DB !== 'postgres' || !process.env.TEST_DATABASE_URL) {
    throw new Error(
      'The multi-process fault suite needs PostgreSQL shared by two processes: set TEST_DATABASE_URL (it runs in the api:postgres project)',
    );
  }
  if (!REDIS_URL) throw new Error('The multi-process fault suite needs Redis: set TEST_REDIS_URL');
  await requireRedis(REDIS_URL);
  baseUrl = process.env.TEST_DATABASE_URL;
  dbName = `eln_mp_${randomBytes(4).toString('hex')}`;
  sqlAdmin = postgres(baseUrl, { max: 4, onnotice: () => undefined });
  await sqlAdmin.unsafe(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(baseUrl);
  dbUrl.pathname = `/${dbName}`;
  await sqlAdmin.end();
  sqlAdmin = postgres(dbUrl.toString(), { max: 4, onnotice: () => undefined });

  const pgPort = Number(dbUrl.port || 5432);
  const redisUrl = new URL(REDIS_URL);
  const redisPort = Number(redisUrl.port || 6379);
  dbProxyOne = await FaultProxy.start(pgPort);
  redisProxyOne = await FaultProxy.start(redisPort);
  redisProxyTwo = await FaultProxy.start(redisPort);
  proxies.push(dbProxyOne, redisProxyOne, redisProxyTwo);
  const via = (url: URL, port: number) => Object.assign(new URL(url.toString()), { hostname: '127.0.0.1', port: String(port) }).toString();
  const prefix = `eln-mp-${randomBytes(4).toString('hex')}`;
  // Process one reaches the database through the latency proxy; each reaches Redis through its own proxy.
  one = await ServerProcess.create({
    env: { DATABASE_URL: via(dbUrl, dbProxyOne.port), REDIS_URL: via(redisUrl, redisProxyOne.port), REDIS_PREFIX: prefix },
  });
  two = await ServerProcess.create({
    env: { DATABASE_URL: dbUrl.toString(), REDIS_URL: via(redisUrl, redisProxyTwo.port), REDIS_PREFIX: prefix },
  });
  await one.start();
  await two.start();
  database = await openDatabase({ kind: 'postgres', url: dbUrl.toString() });
  await installAfterLockTrigger(database.db);

  const admin = await call(one, api.auth.signIn, { userId: 'admin@eln.local', password: ServerProcess.adminPassword });
  const people: Person[] = [];
  for (const name of ['Alice', 'Bob']) {
    const userId = `${name.toLowerCase()}@multi.test`;
    await call(
      one,
      api.users.create,
      { userId, name, password: PASSWORD, auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } },
      admin.accessToken,
    );
    people.push({ userId, name, token: (await call(one, api.auth.signIn, { userId, password: PASSWORD })).accessToken });
  }
  [alice, bob] = people as [Person, Person];
  ({ projectNo } = await call(
    one,
    api.projects.create,
    { title: 'Faults', signatureList: { department: '', user: `${alice.userId},${bob.userId}` } },
    alice.token,
  ));
}, 120_000);

afterAll(async () => {
  for (const client of clients) client.destroy();
  await one?.stop('SIGKILL');
  await two?.stop('SIGKILL');
  for (const proxy of proxies) await proxy.close();
  await database?.close();
  await sqlAdmin?.end();
  if (dbName && baseUrl) {
    const drop = postgres(baseUrl, { max: 1, onnotice: () => undefined });
    await drop.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await drop.end();
  }
});

describe('two server processes under faults', () => {
  const written: Array<{ name: string; typed: Typed }> = [];

  it(`keeps every edit shown saved when either process is killed mid-writing (${KILLS} kills, slow and stalled database)`, async () => {
    const { name } = await newNote('Kills');
    const typed = new Typed(new Y.Doc());
    written.push({ name, typed });
    dbProxyOne.delayMs = 3;
    for (let round = 0; round < KILLS; round += 1) {
      const [victim, survivor] = round % 2 === 0 ? [one, two] : [two, one];
      const writer = await connect(victim, name, alice, typed.doc);
      const observer = await connect(survivor, name, bob);
      for (let i = 0; i < 5; i += 1) typed.type(`k${round}-before-${i}`);
      await eventually(() => writer.allDurable(), `round ${round}: the first edits stored`, 20_000);
      typed.note(writer);

      // The database stalls; the victim's writer types, the survivor receives it through Redis; the
      // victim dies before it could store it.
      const release = await stallDatabase();
      for (let i = 0; i < 5; i += 1) typed.type(`k${round}-stalled-${i}`);
      // Formatting too, of an edit already stored: only the survivor's relay holds it when the victim dies.
      embolden(typed.doc, `k${round}-before-0`);
      await eventually(
        () => paragraphTexts(observer.doc).includes(`k${round}-stalled-4`),
        `round ${round}: the stalled edits relayed to the survivor`,
      );
      typed.note(writer);
      await victim.stop('SIGKILL');
      await release();
      writer.destroy();

      // The writer reconnects to the survivor with everything it holds and types on.
      const again = await connect(survivor, name, alice, typed.doc);
      for (let i = 0; i < 5; i += 1) typed.type(`k${round}-after-${i}`);
      embolden(typed.doc, `k${round}-after-0`);
      await eventually(() => again.allDurable(), `round ${round}: the writer's edits on the survivor confirmed`, 20_000);
      typed.note(again);
      again.destroy();
      observer.destroy();
      await victim.start();
    }
    dbProxyOne.delayMs = 0;
    // Every edit was shown saved in the end (the writer waited for it), so every one must be stored.
    expect(typed.confirmed.size).toBe(KILLS * 15);
    const present = await freshTags(name);
    expect([...typed.confirmed].filter((tag) => !present.has(tag))).toEqual([]);
  }, 180_000);

  it('ends writing on a process cut off from Redis when a note is signed through the other, and stores nothing after it', async () => {
    const { labNoteNo, name } = await newNote('Signed');
    const writer = await connect(two, name, alice);
    const watcher = await connect(one, name, bob);
    appendParagraph(writer.doc, 'Result');
    await eventually(() => writer.allDurable() && paragraphTexts(watcher.doc).includes('Result'), 'the first paragraph stored and shared');
    await call(two, api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] }, alice.token);
    await call(two, api.signatures.request, { labNoteNo, signers: [{ userId: bob.userId, type: 'reviewer' }] }, alice.token);

    const typing = startTyping(writer, 'cut', 'side map');
    await sleep(100);
    // Process two loses Redis for 4 s: the command must reach it through the log in the database.
    const cutEnds = Date.now() + 4000;
    redisProxyTwo.cut(4000);
    await call(one, api.signatures.respond, { labNoteNo, status: 'T', password: PASSWORD, name: bob.name }, bob.token);
    await eventually(() => holdEnded(writer), 'the writer on the cut-off process turned read-only', 10_000);
    expect(Date.now(), 'turned read-only while still cut off from Redis').toBeLessThan(cutEnds);
    await typing.stop();
    await sleep(1500);

    expect(await storedAfterLock(database.db, name)).toBe(0);
    const present = await freshTags(name);
    expect(typing.confirmed().filter((tag) => !present.has(tag))).toEqual([]);
    writer.destroy();
    watcher.destroy();
  }, 60_000);

  it('ends writing on a process cut off from Redis when the project is finished through the other, and stores nothing after it', async () => {
    // A project of its own: finishing closes every note in it.
    const { projectNo: finishing } = await call(
      one,
      api.projects.create,
      { title: 'Finished under faults', signatureList: { department: '', user: `${alice.userId},${bob.userId}` } },
      alice.token,
    );
    const reviewed = await call(one, api.notes.create, { projectNo: finishing, title: 'Reviewed' }, alice.token);
    const reviewedWriter = await connect(one, noteDocumentName(reviewed.labNoteNo), alice);
    appendParagraph(reviewedWriter.doc, 'Result');
    await eventually(() => reviewedWriter.allDurable(), 'the reviewed note stored');
    await call(one, api.notes.saveVersion, { labNoteNo: reviewed.labNoteNo, version: 0, blockList: [] }, alice.token);
    await call(
      one,
      api.signatures.request,
      { labNoteNo: reviewed.labNoteNo, signers: [{ userId: bob.userId, type: 'reviewer' }] },
      alice.token,
    );
    await call(one, api.signatures.respond, { labNoteNo: reviewed.labNoteNo, status: 'T', password: PASSWORD, name: bob.name }, bob.token);
    reviewedWriter.destroy();

    const { labNoteNo } = await call(one, api.notes.create, { projectNo: finishing, title: 'Still being written' }, alice.token);
    const name = noteDocumentName(labNoteNo);
    notes.push(name);
    const writer = await connect(two, name, bob);
    const watcher = await connect(one, name, alice);
    const typing = startTyping(writer, 'fin', 'paragraphs');
    await sleep(100);
    // Process two loses Redis for 4 s: the finish's end-writing command reaches it through the log.
    const cutEnds = Date.now() + 4000;
    redisProxyTwo.cut(4000);
    await call(one, api.projects.finish, { projectNo: finishing }, alice.token);
    await eventually(() => holdEnded(writer), 'the writer on the cut-off process turned read-only', 10_000);
    expect(Date.now(), 'turned read-only while still cut off from Redis').toBeLessThan(cutEnds);
    await typing.stop();
    await sleep(1500);

    expect(await storedAfterLock(database.db, name)).toBe(0);
    const present = await freshTags(name);
    expect(typing.confirmed().filter((tag) => !present.has(tag))).toEqual([]);
    writer.destroy();
    watcher.destroy();
  }, 60_000);

  it('clears holds on every process while Redis answers nothing (as under CLIENT PAUSE): nothing typed after the answer is stored', async () => {
    const { name } = await newNote('Cleared');
    const writer = await connect(two, name, bob);
    const watcher = await connect(one, name, alice);
    appendParagraph(writer.doc, 'before the clear');
    await eventually(() => writer.allDurable() && paragraphTexts(watcher.doc).length === 1, 'the first edit stored and shared');

    const typing = startTyping(writer, 'clear', 'paragraphs');
    await sleep(100);
    const pauseEnds = Date.now() + 4000;
    redisProxyOne.stall(4000);
    redisProxyTwo.stall(4000);
    // Process two confirms through the database, at its next read of the command log.
    await call(one, api.notes.releaseProjectHolds, { projectNo }, alice.token);
    const typedBefore = typing.typed().length;
    expect(Date.now(), 'the clear answered while Redis was paused').toBeLessThan(pauseEnds);
    await eventually(() => holdEnded(writer), 'the writer on process two turned read-only', 10_000);
    expect(Date.now(), 'turned read-only while Redis was still paused').toBeLessThan(pauseEnds);
    await sleep(500);
    await typing.stop();
    const late = typing.typed().slice(typedBefore);
    expect(late.length, 'typed on after the answer').toBeGreaterThan(20);
    await sleep(Math.max(0, pauseEnds - Date.now()) + 1500);
    const stored = await freshTags(name);
    expect(stored.has('before the clear')).toBe(true);
    expect(
      late.filter((tag) => stored.has(tag)),
      'typed after the answer and stored',
    ).toEqual([]);
    expect(
      late.filter((tag) => paragraphTexts(watcher.doc).includes(tag)),
      'typed after the answer and shown on process one',
    ).toEqual([]);
    writer.destroy();
    watcher.destroy();
  }, 60_000);

  it('ends a writer’s access on the other process before the call answers (sign-out, deactivation, removal), also while it is cut off from Redis', async () => {
    const admin = await call(one, api.auth.signIn, { userId: 'admin@eln.local', password: ServerProcess.adminPassword });
    const carolId = 'carol@multi.test';
    const { userNo } = await call(
      one,
      api.users.create,
      { userId: carolId, name: 'Carol', password: PASSWORD, auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' } },
      admin.accessToken,
    );
    const members = (...userIds: string[]) => ({ department: '', user: userIds.join(',') });
    const withCarol = () =>
      call(one, api.projects.update, { projectNo, signatureList: members(alice.userId, bob.userId, carolId) }, alice.token);
    await withCarol();
    const scenarios: Array<{ change: string; cut: boolean; end: (token: string) => Promise<unknown>; restore?: () => Promise<unknown> }> = [
      { change: 'signs out', cut: false, end: (token) => call(one, api.auth.signOut, {}, token) },
      { change: 'signs out', cut: true, end: (token) => call(one, api.auth.signOut, {}, token) },
      {
        change: 'is deactivated',
        cut: true,
        end: () => call(one, api.users.update, { userNo, active: false }, admin.accessToken),
        restore: () => call(one, api.users.update, { userNo, active: true }, admin.accessToken),
      },
      {
        change: 'is removed from the project',
        cut: true,
        end: () => call(one, api.projects.update, { projectNo, signatureList: members(alice.userId, bob.userId) }, alice.token),
        restore: withCarol,
      },
    ];
    for (const [index, { change, cut, end, restore }] of scenarios.entries()) {
      const what = `Carol ${change}${cut ? ' while process two is cut off from Redis' : ''}`;
      const carol: Person = {
        userId: carolId,
        name: 'Carol',
        token: (await call(one, api.auth.signIn, { userId: carolId, password: PASSWORD })).accessToken,
      };
      const { name } = await newNote(`Access ends ${index + 1}`);
      const writer = await connect(two, name, carol);
      const watcher = await connect(one, name, alice);
      appendParagraph(writer.doc, 'before');
      await eventually(
        () => writer.allDurable() && paragraphTexts(watcher.doc).includes('before'),
        `${what}: the first edit stored and shared`,
      );

      // Carol types on process two from before the change until well after its answer (her provider
      // sends whatever she types, whatever the server told it).
      const typing = startTyping(writer, 'late', 'paragraphs');
      await sleep(100);
      if (cut) redisProxyTwo.cut(1500);
      await end(carol.token);
      const typedBefore = typing.typed().length;
      await sleep(cut ? 2000 : 500);
      await typing.stop();
      const late = typing.typed().slice(typedBefore);
      expect(late.length, `${what}: typed on after the answer`).toBeGreaterThan(20);
      // Past the delay after which a process stores what another relayed to it.
      await sleep(1500);
      const stored = await freshTags(name);
      expect(stored.has('before'), `${what}: the first edit stored`).toBe(true);
      expect(
        late.filter((tag) => stored.has(tag)),
        `${what}: typed after the answer and stored`,
      ).toEqual([]);
      expect(
        late.filter((tag) => paragraphTexts(watcher.doc).includes(tag)),
        `${what}: typed after the answer and shown on process one`,
      ).toEqual([]);
      writer.destroy();
      watcher.destroy();
      await restore?.();
    }
  }, 120_000);

  it('catches up after a Redis blip: an edit published while a process was cut off reaches it without more typing', async () => {
    const { name } = await newNote('Blip');
    const writer = await connect(one, name, alice);
    const reader = await connect(two, name, bob);
    appendParagraph(writer.doc, 'before the blip');
    await eventually(() => paragraphTexts(reader.doc).includes('before the blip'), 'the first edit on both');
    redisProxyTwo.cut(1500);
    await sleep(100);
    appendParagraph(writer.doc, 'during the blip');
    await eventually(() => writer.allDurable(), 'the edit during the blip stored');
    await eventually(
      () => paragraphTexts(reader.doc).includes('during the blip'),
      'the edit during the blip on the reader, with nobody typing',
      15_000,
    );
    writer.destroy();
    reader.destroy();
  }, 60_000);

  it('after both processes restart, every note loads with every confirmed edit, alike on both', async () => {
    for (const server of [one, two]) await server.stop('SIGKILL');
    await one.start();
    await two.start();
    for (const { name, typed } of written) {
      const fresh = await connect(one, name, alice);
      expect([...typed.confirmed].filter((tag) => !paragraphTexts(fresh.doc).includes(tag))).toEqual([]);
      // The formats made while processes died are there too, so the comparison below compares marks.
      for (let round = 0; round < KILLS; round += 1) {
        expect(isBold(fresh.doc, `k${round}-before-0`), `k${round}-before-0 bold`).toBe(true);
        expect(isBold(fresh.doc, `k${round}-after-0`), `k${round}-after-0 bold`).toBe(true);
      }
      fresh.destroy();
    }
    // Every note converges: both processes serve the same document, which is the stored one, to every
    // node, attribute and mark.
    for (const name of notes) {
      const onOne = await connectLive(one.url, name, alice.token);
      const onTwo = await connectLive(two.url, name, bob.token);
      if (onOne.kind !== 'synced' || onTwo.kind !== 'synced') throw new Error(`${name} did not open on both processes`);
      const stored = new Y.Doc();
      Y.applyUpdate(stored, (await new DatabaseDocumentStore(database).load(name)) ?? Y.encodeStateAsUpdate(new Y.Doc()));
      expect(contentOf(onOne.client.doc), name).toEqual(contentOf(stored));
      expect(contentOf(onTwo.client.doc), name).toEqual(contentOf(stored));
      onOne.client.destroy();
      onTwo.client.destroy();
    }
  }, 120_000);
});
