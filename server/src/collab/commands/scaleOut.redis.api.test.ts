import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { api, COLLAB_REFUSALS, HOLD_ENDED_MESSAGE, noteDocumentName } from '@eln/shared';
import { labNotes } from '../../db/schema.js';
import { installAfterLockTrigger, storedAfterLock } from '../../testing/afterLock.js';
import { createTestDatabase, startTestServer, type TestServer } from '../../testing/harness.js';
import { requireRedis } from '../../testing/redis.js';
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
import { DatabaseDocumentStore } from '../persistence/documentStore.js';

/**
 * Two server processes behind a load balancer share live documents through Redis. Here both run in
 * this process on one database and one real Redis (TEST_REDIS_URL, the local one by default; TEST_REDIS_URL=none leaves this file out).
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Two server processes on one database and one Redis; Alice (the leader) on one, Bob on two, one note. */
async function twoProcesses() {
  await requireRedis(REDIS_URL);
  const { database, dispose } = await createTestDatabase();
  cleanups.push(dispose);
  const redis = { url: REDIS_URL, prefix: `eln-test-${randomBytes(4).toString('hex')}` };
  const servers: TestServer[] = [];
  for (let i = 0; i < 2; i += 1) {
    // No periodic session re-check: access that ends here ends through the change itself.
    const server = await startTestServer({ database, redis, sessionRecheckMs: 24 * 3600 * 1000 });
    servers.push(server);
    cleanups.push(() => server.stop());
  }
  const [one, two] = servers as [TestServer, TestServer];
  const [urlOne, urlTwo] = [await one.listen(), await two.listen()];
  const alice = await one.createUser({ name: 'Alice on one' });
  const bob = await one.createUser({ name: 'Bob on two' });
  const aliceToken = (await one.signIn(alice.userId, alice.password)).accessToken;
  const bobToken = (await two.signIn(bob.userId, bob.password)).accessToken;
  const { projectNo } = (
    await one.call(
      api.projects.create,
      { title: 'Shared', signatureList: { department: '', user: `${alice.userId},${bob.userId}` } },
      { token: aliceToken },
    )
  ).body.data;
  const { labNoteNo } = (await two.call(api.notes.create, { projectNo, title: 'Across processes' }, { token: bobToken })).body.data;
  const name = noteDocumentName(labNoteNo);
  const connect = async (url: string, token: string) => {
    const client = await connectWriter(url, name, token);
    cleanups.push(() => client.destroy());
    return client;
  };
  const a: LiveClient = await connect(urlOne, aliceToken);
  const b: LiveClient = await connect(urlTwo, bobToken);
  return { database, one, two, urlOne, urlTwo, alice, bob, aliceToken, bobToken, projectNo, labNoteNo, name, a, b, connect };
}

const holdEnded = (client: LiveClient) => client.stateless().some((m) => (m as { type?: string }).type === HOLD_ENDED_MESSAGE);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Scene = Awaited<ReturnType<typeof bobWritingOnTwo>>;

/** Bob's editor on process two, watched from the moment the scene is set, with a first edit stored. */
async function bobWritingOnTwo() {
  const scene = await twoProcesses();
  let closedWith: string | null = null;
  scene.b.provider.on('close', ({ event }: { event: { reason: string } }) => {
    closedWith = event.reason;
  });
  appendParagraph(scene.b.doc, 'before the change');
  await eventually(
    () => scene.b.allDurable() && paragraphTexts(scene.a.doc).includes('before the change'),
    'Bob’s first edit to be stored',
  );
  return { ...scene, closedWith: () => closedWith };
}

/**
 * Bob types on two, every few milliseconds, from before the change until well after its call answered
 * (his provider sends edits regardless of what the server told it): answers the tags he typed after
 * the answer, of which there must be some.
 */
async function typedAfterAnswer(scene: Scene, change: () => Promise<{ body: { status: string } }>): Promise<string[]> {
  const typing = startTyping(scene.b, 'bob', 'paragraphs');
  await sleep(50);
  const answer = await change();
  const typedBefore = typing.typed().length;
  expect(answer.body.status).toBe('0000');
  await sleep(300);
  await typing.stop();
  const late = typing.typed().slice(typedBefore);
  expect(late.length, 'Bob typed on after the answer').toBeGreaterThan(5);
  return late;
}

/**
 * Nothing Bob typed after the answer is stored, or held by either process's document or Alice's
 * editor: Alice writes on through one (with `alice`) until that is stored, and past the delay after
 * which a process stores what another relayed to it.
 */
async function expectNoneStored({ database, one, two, name, a }: Scene, late: string[], alice: LiveClient = a): Promise<void> {
  appendParagraph(alice.doc, 'Alice writes on');
  await eventually(() => alice.allDurable(), 'Alice’s edit to be stored');
  for (const server of [one, two]) {
    await eventually(() => {
      const live = server.collab.documents.get(name);
      return !live || paragraphTexts(live).includes('Alice writes on');
    }, 'each process to have Alice’s edit');
  }
  await sleep(1500);
  for (const server of [one, two]) await server.services.live.persistence.flushAll();
  const stored = tagsOfState(await new DatabaseDocumentStore(database).load(name));
  expect(stored.has('Alice writes on')).toBe(true);
  expect(
    late.filter((tag) => stored.has(tag)),
    'typed after the answer and stored',
  ).toEqual([]);
  for (const server of [one, two]) {
    const live = server.collab.documents.get(name);
    if (live)
      expect(
        paragraphTexts(live).filter((tag) => late.includes(tag)),
        'typed after the answer and held by a process',
      ).toEqual([]);
  }
  expect(
    paragraphTexts(a.doc).filter((tag) => late.includes(tag)),
    'typed after the answer and shown to Alice',
  ).toEqual([]);
}

/** Bob's editor on two is closed with `reason`, and nothing he typed after the answer is kept anywhere. */
async function expectBobClosedOnTwo(scene: Scene, reason: string, late: string[]): Promise<void> {
  const { two, name, bob } = scene;
  await eventually(() => scene.closedWith() === reason, `Bob's editor on process two to be closed with ${reason}`);
  await eventually(
    () => two.services.live.connections(name).every((c) => c.context.user.userNo !== bob.userNo),
    'process two to drop Bob’s connection',
  );
  await expectNoneStored(scene, late);
}

// Each test starts two servers on a fresh PostgreSQL database (migrations included): under a loaded CI run
// that alone has taken most of the default 30 s.
describe('scale-out through Redis', { timeout: 90_000 }, () => {
  it('lets writers on two server processes edit one note, each confirmed durable, holds visible to both', async () => {
    const { two, urlTwo, bobToken, projectNo, a, b, connect } = await twoProcesses();
    appendParagraph(a.doc, 'from process one');
    appendParagraph(b.doc, 'from process two');
    await eventually(() => paragraphTexts(a.doc).length === 2 && paragraphTexts(b.doc).length === 2, 'both edits on both sides');
    expect(paragraphTexts(a.doc)).toEqual(paragraphTexts(b.doc));
    await eventually(() => a.allDurable() && b.allDurable(), 'durable confirmations from either process');

    const modifiers = (await two.call(api.projects.editor, { projectNo }, { token: bobToken })).body.data.list[0]?.modifiers;
    expect(modifiers?.map((m) => m.name).sort()).toEqual(['Alice on one', 'Bob on two']);

    // Each update was stored once, by the process that received it: a fresh client sees each edit once.
    a.destroy();
    b.destroy();
    const fresh = await connect(urlTwo, bobToken);
    expect(paragraphTexts(fresh.doc).sort()).toEqual(['from process one', 'from process two']);
  });

  it('ends write access on every process before the call answers: holds cleared on one turn a writer on two read-only', async () => {
    const scene = await bobWritingOnTwo();
    const { one, aliceToken, projectNo } = scene;
    const late = await typedAfterAnswer(scene, () => one.call(api.notes.releaseProjectHolds, { projectNo }, { token: aliceToken }));
    await eventually(() => holdEnded(scene.b) && holdEnded(scene.a), 'the hold-ended message on both processes');
    // Alice's writing ended too; she opens the note again to write on.
    await expectNoneStored(scene, late, await scene.connect(scene.urlOne, aliceToken));
  });

  it('closes the connections on every process when the note is deleted', async () => {
    const { one, aliceToken, labNoteNo, b } = await twoProcesses();
    let closedWith: string | null = null;
    b.provider.on('close', ({ event }: { event: { reason: string } }) => {
      closedWith = event.reason;
    });
    expect((await one.call(api.notes.delete, { labNoteNo }, { token: aliceToken })).body.status).toBe('0000');
    // The reason tells the editor the note is gone, not that it should reconnect.
    await eventually(() => closedWith === COLLAB_REFUSALS.document, 'the connection on process two to be closed as gone');
  });

  it('restores a version through one into the note open only on two: Bob sees it, and it is stored before the version is', async () => {
    const { database, one, two, name, labNoteNo, a, b, aliceToken, bobToken } = await twoProcesses();
    appendParagraph(b.doc, 'first');
    await eventually(() => b.allDurable(), 'Bob’s line to be stored');
    expect((await two.call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] }, { token: bobToken })).body.status).toBe('0000');
    appendParagraph(b.doc, 'second, unsaved');
    await eventually(() => b.allDurable(), 'Bob’s second line to be stored');
    a.destroy();
    await eventually(() => !one.collab.documents.has(name), 'process one to let go of the note');

    const restored = await one.call(
      api.noteHistory.restore,
      { labNoteNo, version: 1, reason: 'Back to the first line.' },
      { token: aliceToken },
    );
    expect(restored.body.status).toBe('0000');
    expect(restored.body.data).toMatchObject({ version: 2, restoredFrom: 1, reason: 'Back to the first line.' });
    expect([...tagsOfState(await new DatabaseDocumentStore(database).load(name))]).toEqual(['first']);
    await eventually(() => JSON.stringify(paragraphTexts(b.doc)) === '["first"]', 'Bob’s editor on two to show the restored version');
    const onTwo = await two.call(api.noteHistory.detail, { labNoteNo, version: 2 }, { token: bobToken });
    expect(onTwo.body.data.blockList.map((block) => block.content)).toEqual([expect.stringContaining('first')]);
    // Bob writes on from the restored content, through two.
    appendParagraph(b.doc, 'after the restore');
    await eventually(() => b.allDurable(), 'Bob’s edit after the restore to be stored');
    expect([...tagsOfState(await new DatabaseDocumentStore(database).load(name))]).toEqual(['first', 'after the restore']);
  });

  describe('ends access on every process when it ends through another, before the call answers', () => {
    it('closes Bob’s editor on two when he signs out through one', async () => {
      const scene = await bobWritingOnTwo();
      const late = await typedAfterAnswer(scene, () => scene.one.call(api.auth.signOut, {}, { token: scene.bobToken }));
      await expectBobClosedOnTwo(scene, COLLAB_REFUSALS.session, late);
    });

    it('closes Bob’s editor on two when an administrator deactivates him through one', async () => {
      const scene = await bobWritingOnTwo();
      const admin = await scene.one.signIn(scene.one.admin.userId, scene.one.admin.password);
      const late = await typedAfterAnswer(scene, () =>
        scene.one.call(api.users.update, { userNo: scene.bob.userNo, active: false }, { token: admin.accessToken }),
      );
      await expectBobClosedOnTwo(scene, COLLAB_REFUSALS.session, late);
    });

    it('closes Bob’s editor on two when Alice removes him from the project through one', async () => {
      const scene = await bobWritingOnTwo();
      const signatureList = { department: '', user: scene.alice.userId };
      const late = await typedAfterAnswer(scene, () =>
        scene.one.call(api.projects.update, { projectNo: scene.projectNo, signatureList }, { token: scene.aliceToken }),
      );
      await expectBobClosedOnTwo(scene, COLLAB_REFUSALS.forbidden, late);
    });
  });

  it('stores nothing after a lock on any process, and no process serves the refused copy', async () => {
    const { database, one, two, aliceToken, bobToken, labNoteNo, a, b } = await twoProcesses();
    await installAfterLockTrigger(database.db);
    const name = noteDocumentName(labNoteNo);
    appendParagraph(b.doc, 'before the lock');
    await eventually(() => b.allDurable() && paragraphTexts(a.doc).length === 1, 'the first edit stored and shared');

    // Locked as a signature commits, before any process has told its connections.
    await database.db.update(labNotes).set({ status: 'T' }).where(eq(labNotes.noteNo, labNoteNo));
    appendParagraph(b.doc, 'after the lock');
    // Process two's store refuses it; process one holds it too (through Redis) and is told to drop its copy.
    await eventually(() => holdEnded(b) && holdEnded(a), 'both processes to end writing');
    await roundTrip(b, a);
    await two.services.live.persistence.flushDocument(name);

    expect(await storedAfterLock(database.db, name)).toBe(0);
    expect([...tagsOfState(await new DatabaseDocumentStore(database).load(name))]).toEqual(['before the lock']);
    expect(b.allDurable()).toBe(false);
    for (const [server, token] of [
      [one, aliceToken],
      [two, bobToken],
    ] as const) {
      const texts = (await server.call(api.notes.blockList, { labNoteNo }, { token })).body.data.blockList.map(
        (blk) => JSON.parse(blk.content).content[0].text,
      );
      expect(texts).toEqual(['before the lock']);
    }
  });

  it('races a writer on one process against a signature made on the other: nothing stored after it', async () => {
    const { database, one, two, urlOne, urlTwo, alice, aliceToken, bobToken, projectNo } = await twoProcesses();
    await installAfterLockTrigger(database.db);
    const store = new DatabaseDocumentStore(database);
    const open = async (url: string, name: string, token: string) => {
      const client = await connectWriter(url, name, token);
      cleanups.push(() => client.destroy());
      return client;
    };
    for (let round = 0; round < 8; round += 1) {
      const { labNoteNo } = (await two.call(api.notes.create, { projectNo, title: `Race ${round}` }, { token: bobToken })).body.data;
      const name = noteDocumentName(labNoteNo);
      const writer = await open(urlTwo, name, bobToken);
      const watcher = await open(urlOne, name, aliceToken);
      appendParagraph(writer.doc, 'Result');
      await eventually(() => writer.allDurable(), 'the first paragraph stored');
      expect((await two.call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] }, { token: bobToken })).body.status).toBe(
        '0000',
      );
      await two.call(api.signatures.request, { labNoteNo, signers: [{ userId: alice.userId, type: 'reviewer' }] }, { token: bobToken });

      // Side-map edits leave the blocks as saved: the signature goes through while they keep coming,
      // and process two hears of it only through Redis.
      const typing = startTyping(writer, `r${round}`, 'side map');
      const answer = await one.call(
        api.signatures.respond,
        { labNoteNo, status: 'T', password: alice.password, name: alice.name },
        { token: aliceToken },
      );
      expect(answer.body.status).toBe('0000');
      await eventually(() => holdEnded(writer), 'the writer on process two to be turned read-only');
      await typing.stop();
      await roundTrip(writer, watcher);
      await two.services.live.persistence.flushDocument(name);

      expect(await storedAfterLock(database.db, name), `round ${round}: updates stored after the signature`).toBe(0);
      const present = tagsOfState(await store.load(name));
      expect(
        typing.confirmed().filter((tag) => !present.has(tag)),
        `round ${round}: confirmed but not stored`,
      ).toEqual([]);
    }
  }, 120_000);
});
