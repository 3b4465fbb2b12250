import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '@eln/shared';
import { openDatabase, type Database } from '../db/client.js';
import { startTestServer, testDatabaseTarget, type TestServer } from '../testing/harness.js';
import { openNotificationStream, type StreamClient } from '../testing/notificationStream.js';

/**
 * Two server processes' worth of servers on one PostgreSQL database, each with its own connections (and its
 * own LISTEN): a change made through one reaches the bell streams held by the other, at the commit. Needs
 * a database server: PostgreSQL only.
 */

let databases: Database[] = [];
let drop: () => Promise<void> = async () => undefined;
let one: TestServer;
let two: TestServer;
let urlTwo: string;
const streams: StreamClient[] = [];

beforeAll(async () => {
  const target = await testDatabaseTarget();
  if (target.target.kind !== 'postgres') throw new Error('this suite needs PostgreSQL (ELN_TEST_DB=postgres with TEST_DATABASE_URL)');
  drop = target.drop;
  databases = [await openDatabase(target.target), await openDatabase(target.target)];
  one = await startTestServer({ database: databases[0] });
  two = await startTestServer({ database: databases[1] });
  urlTwo = await two.listen();
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await one?.stop();
  await two?.stop();
  for (const database of databases) await database.close();
  await drop();
});

describe('a change made through another process', () => {
  it('reaches the streams this process holds when it commits', async () => {
    const [leader, signer] = [await one.createUser({ name: 'Leader Lee' }), await one.createUser({ name: 'Signer Seo' })];
    const asLeader = await one.as(leader);
    const project = await asLeader(api.projects.create, {
      title: 'Across processes',
      signatureList: { department: '', user: [leader.userId, signer.userId].join(',') },
    });
    const { labNoteNo } = (await asLeader(api.notes.create, { projectNo: project.body.data.projectNo, title: 'Far away' })).body.data;

    // The signer's tab is connected to the second server.
    const { accessToken } = await two.signIn(signer.userId, signer.password);
    const live = await openNotificationStream(urlTwo, accessToken);
    streams.push(live);
    expect(await live.next()).toEqual({ unreadCount: 0, newest: null });
    expect(one.services.notificationStreams.openCount).toBe(0);

    const asked = await asLeader(api.signatures.request, { labNoteNo, signers: [{ userId: signer.userId, type: 'reviewer' }] });
    expect(asked.body.status).toBe('0000');
    const pushed = await live.next((state) => state.unreadCount === 1);
    expect(pushed.newest).toMatchObject({ event: 'signatureRequested', actorName: 'Leader Lee', note: { labNoteNo } });
  });
});
