import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as Y from 'yjs';
import { api, ERR, HOLD_ENDED_MESSAGE, noteDocumentName, type CallInput, type CallSpec } from '@eln/shared';
import { labNotes, projects } from '../../db/schema.js';
import { installAfterLockTrigger, storedAfterLock } from '../../testing/afterLock.js';
import { startTestServer, type NewUser, type TestServer } from '../../testing/harness.js';
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
import { DatabaseDocumentStore } from './documentStore.js';

/**
 * Once a signature or a project's finish commits, no later live update of the note is stored, from any
 * connection. The oracle is in the database (testing/afterLock.ts): a trigger records every update row
 * inserted while the note, as the inserting transaction sees it, is already locked.
 */

let server: TestServer;
let url: string;
type Person = { user: NewUser & { userNo: number }; token: string };
let leader: Person;
let writer: Person;
let reviewer: Person;
const clients: LiveClient[] = [];

async function person(name: string): Promise<Person> {
  const user = await server.createUser({ name });
  return { user, token: (await server.signIn(user.userId, user.password)).accessToken };
}

const call = async <C extends CallSpec>(who: Person, spec: C, body: CallInput<C>) =>
  (await server.call(spec, body, { token: who.token })).body;

const storedState = (documentName: string) => new DatabaseDocumentStore(server.database).load(documentName);

/** The paragraphs the database holds of a note's document. */
async function storedTexts(documentName: string): Promise<string[]> {
  const doc = new Y.Doc();
  const state = await storedState(documentName);
  if (state) Y.applyUpdate(doc, state);
  return paragraphTexts(doc);
}

/** The confirmed tags that the database does not hold. */
async function confirmedButLost(documentName: string, confirmed: string[]): Promise<string[]> {
  const present = tagsOfState(await storedState(documentName));
  return confirmed.filter((tag) => !present.has(tag));
}

beforeAll(async () => {
  // No session rechecks: they would find the locked or deleted note too, and end the connections before
  // the update this file sends after the lock.
  server = await startTestServer({ sessionRecheckMs: 24 * 3600 * 1000 });
  url = await server.listen();
  [leader, writer, reviewer] = (await Promise.all(['Leader Lim', 'Writer Won', 'Reviewer Rhee'].map(person))) as [Person, Person, Person];
  await installAfterLockTrigger(server.database.db);
});
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});
afterAll(async () => {
  await server?.stop();
});

async function newProject(title: string): Promise<number> {
  const body = await call(leader, api.projects.create, {
    title,
    signatureList: { department: '', user: [leader, writer, reviewer].map((p) => p.user.userId).join(',') },
  });
  return body.data.projectNo;
}

async function connect(who: Person, documentName: string): Promise<LiveClient> {
  const client = await connectWriter(url, documentName, who.token);
  clients.push(client);
  return client;
}

/** A note by the writer with a saved version ("Result"), its open editor, and the reviewer watching. */
async function savedNote(projectNo: number, title: string) {
  const { labNoteNo } = (await call(writer, api.notes.create, { projectNo, title })).data;
  const documentName = noteDocumentName(labNoteNo);
  const editor = await connect(writer, documentName);
  const observer = await connect(reviewer, documentName);
  appendParagraph(editor.doc, 'Result');
  await eventually(() => editor.allDurable(), 'the first paragraph to be stored');
  expect((await call(writer, api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] })).status).toBe('0000');
  return { labNoteNo, documentName, editor, observer };
}

const holdEnded = (client: LiveClient) => client.stateless().some((m) => (m as { type?: string }).type === HOLD_ENDED_MESSAGE);
const sign = (labNoteNo: number) =>
  call(reviewer, api.signatures.respond, { labNoteNo, status: 'T', password: reviewer.user.password, name: reviewer.user.name });

/** Waits until the server has handled everything the editor sent and stored what it was going to. */
async function settle(editor: LiveClient, observer: LiveClient, documentName: string): Promise<void> {
  await roundTrip(editor, observer);
  await server.services.live.persistence.flushDocument(documentName);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a locked note takes no more live updates', () => {
  const locks = {
    // What a signature or a finish commits, here without the live command that tells the connections:
    // as when the command is still on its way to this process, or the connection was authorised just before.
    signed: (labNoteNo: number) => server.database.db.update(labNotes).set({ status: 'T' }).where(eq(labNotes.noteNo, labNoteNo)),
    finished: async (labNoteNo: number, projectNo: number) => {
      await server.database.db.update(projects).set({ status: 'C' }).where(eq(projects.projectNo, projectNo));
      await server.database.db.update(labNotes).set({ status: 'F' }).where(eq(labNotes.noteNo, labNoteNo));
    },
    deleted: (labNoteNo: number) =>
      server.database.db.update(labNotes).set({ deletedAt: new Date() }).where(eq(labNotes.noteNo, labNoteNo)),
  };

  for (const [lock, apply] of Object.entries(locks)) {
    it(`refuses, does not confirm and does not serve an update that arrives once the note is ${lock}`, async () => {
      const projectNo = await newProject(`Locked ${lock}`);
      const { labNoteNo, documentName, editor, observer } = await savedNote(projectNo, `Locked ${lock}`);
      await apply(labNoteNo, projectNo);

      appendParagraph(editor.doc, 'after the lock');
      await eventually(() => holdEnded(editor), 'the writer to be turned read-only');
      appendParagraph(editor.doc, 'after being told');
      await settle(editor, observer, documentName);

      expect(await storedTexts(documentName)).toEqual(['Result']);
      expect(await storedAfterLock(server.database.db, documentName)).toBe(0);
      expect(editor.allDurable()).toBe(false);
      expect(server.services.live.persistence.isStale(documentName)).toBe(true);
      if (lock !== 'deleted') {
        // The API reads the stored note, not the refused copy still in memory.
        const list = await call(writer, api.notes.blockList, { labNoteNo });
        expect(list.data.blockList.map((block) => JSON.parse(block.content).content[0].text)).toEqual(['Result']);
      }
      // Once everyone has left, the note opens again from what is stored, read-only.
      editor.destroy();
      observer.destroy();
      await eventually(() => !server.collab.documents.has(documentName), 'the refused copy to unload');
      if (lock !== 'deleted') {
        const fresh = await connect(reviewer, documentName);
        expect(paragraphTexts(fresh.doc)).toEqual(['Result']);
      }
    });
  }

  it('races a writer against signing: nothing is stored after the signature, everything confirmed is stored', async () => {
    const projectNo = await newProject('Signing race');
    const outcomes: Record<string, number> = {};
    for (let round = 0; round < 20; round += 1) {
      const { labNoteNo, documentName, editor, observer } = await savedNote(projectNo, `Sign race ${round}`);
      expect(
        (await call(writer, api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] })).status,
      ).toBe('0000');

      // Even rounds: paragraphs from a random moment of the signature's work (password, lock, commit),
      // so it either sees them (2021) or they come after. Odd rounds: side-map edits all along, which
      // the signature's check lets through, so updates keep arriving as it commits and after.
      const into = round % 2 === 0 ? 'paragraphs' : 'side map';
      const early = into === 'side map' ? startTyping(editor, `s${round}`, into) : null;
      const signing = sign(labNoteNo);
      await sleep(Math.floor(Math.random() * 250));
      const typing = early ?? startTyping(editor, `s${round}`, into);
      const answer = await signing;
      await sleep(20);
      await typing.stop();
      await settle(editor, observer, documentName);

      outcomes[`${into} ${answer.status}`] = (outcomes[`${into} ${answer.status}`] ?? 0) + 1;
      expect([ERR.unsavedChanges, '0000']).toContain(answer.status);
      if (answer.status === '0000')
        expect(await storedTexts(documentName), `round ${round}: the signed note holds only its signed version`).toEqual(['Result']);
      expect(await storedAfterLock(server.database.db, documentName), `round ${round}: updates stored after the lock`).toBe(0);
      expect(await confirmedButLost(documentName, typing.confirmed()), `round ${round}: confirmed but not stored`).toEqual([]);
      for (const client of clients.splice(0)) client.destroy();
    }
    console.info('signing race outcomes', outcomes);
  }, 240_000);

  it('races a writer against finishing the project: nothing is stored after the finish', async () => {
    for (let round = 0; round < 12; round += 1) {
      const projectNo = await newProject(`Finish race ${round}`);
      const signed = await savedNote(projectNo, 'Reviewed');
      await call(writer, api.signatures.request, {
        labNoteNo: signed.labNoteNo,
        signers: [{ userId: reviewer.user.userId, type: 'reviewer' }],
      });
      expect((await sign(signed.labNoteNo)).status).toBe('0000');
      const { documentName, editor, observer } = await savedNote(projectNo, 'Still being written');

      const typing = startTyping(editor, `f${round}`, 'paragraphs');
      await sleep(Math.floor(Math.random() * 60));
      expect((await call(leader, api.projects.finish, { projectNo })).status).toBe('0000');
      await sleep(20);
      await typing.stop();
      await settle(editor, observer, documentName);

      expect(await storedAfterLock(server.database.db, documentName), `round ${round}: updates stored after the lock`).toBe(0);
      expect(await confirmedButLost(documentName, typing.confirmed()), `round ${round}: confirmed but not stored`).toEqual([]);
      for (const client of clients.splice(0)) client.destroy();
    }
  }, 240_000);
});
