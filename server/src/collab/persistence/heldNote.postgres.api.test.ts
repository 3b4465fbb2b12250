import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, noteDocumentName } from '@eln/shared';
import { lockNote } from '../../notes/queries.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { appendParagraph, connectWriter, eventually, roundTrip, type LiveClient } from '../../testing/live.js';

/**
 * A note's row held by another transaction (a signature, a save, a project's finish) keeps that note's
 * live edits waiting, and no other note's: group commits run one at a time, so a group stuck on the
 * lock must give way. Needs a second connection to hold the lock: PostgreSQL only.
 */

let server: TestServer;
let url: string;
const clients: LiveClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  if (server.database.engine !== 'postgres') throw new Error('this suite needs PostgreSQL (ELN_TEST_DB=postgres with TEST_DATABASE_URL)');
  url = await server.listen();
});
afterAll(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await server?.stop();
});

describe('a note whose row another transaction holds', () => {
  it('keeps its own edits unconfirmed until the lock goes, while another note’s edits are confirmed meanwhile', async () => {
    const user = await server.createUser();
    const { accessToken: token } = await server.signIn(user.userId, user.password);
    const project = await server.call(
      api.projects.create,
      { title: 'Held rows', signatureList: { department: '', user: user.userId } },
      { token },
    );
    const noteNo = async (title: string) =>
      (await server.call(api.notes.create, { projectNo: project.body.data.projectNo, title }, { token })).body.data.labNoteNo;
    const [heldNo, freeNo] = [await noteNo('Held'), await noteNo('Free')];
    const open = async (labNoteNo: number) => {
      const client = await connectWriter(url, noteDocumentName(labNoteNo), token);
      clients.push(client);
      return client;
    };
    const [held, heldObserver, free] = [await open(heldNo), await open(heldNo), await open(freeNo)];

    let release = () => {};
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    // As a signature holds its note: FOR UPDATE, on a connection of the pool, until released.
    const holder = server.database.db.transaction(async (tx) => {
      await lockNote(tx, heldNo, 'update');
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await lockTaken;

    try {
      appendParagraph(held.doc, 'waits for the lock');
      // The server has taken the held note's edit, and its commit waits on the lock.
      await roundTrip(held, heldObserver);
      appendParagraph(free.doc, 'goes on');
      await eventually(() => free.allDurable(), 'the other note’s edit confirmed while the lock is held');
      expect(held.allDurable()).toBe(false);
    } finally {
      // Else a failure would leave the lock held and the server's stop waiting on it, hiding the failure.
      release();
      await holder;
    }
    await eventually(() => held.allDurable(), 'the held note’s edit confirmed once the lock is gone');
  });
});
