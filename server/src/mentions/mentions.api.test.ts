import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import * as Y from 'yjs';
import { ADMIN_LEVEL, api, ERR, MENTION_LIMITS, newBlockUid, noteDocumentName, type MentionPerson } from '@eln/shared';
import { mailOutbox, noteMentions, users } from '../db/schema.js';
import { composeMail } from '../mail/compose.js';
import { NoteMentionWatcher } from './noteMentions.js';
import { startTestServer, type Caller, type NewUser, type TestServer } from '../testing/harness.js';
import {
  appendMention,
  appendParagraph,
  blockElement,
  connectWriter,
  eventually,
  removeMentions,
  type LiveClient,
} from '../testing/live.js';

/**
 * Mentions in a note's body through the API and real live connections: whom `@` offers and whether each
 * may read the note (the notes policy's verdict), and the `mentioned` notification a mention stored in the
 * live document makes: once per note, block and person, never for someone who may not read the note, nor
 * for the writer themself, and at most MENTION_LIMITS.perText per store. On each database the suite runs against.
 */

let server: TestServer;
let url: string;
type Person = { user: NewUser & { userNo: number }; call: Caller; token: string };
let leader: Person;
let writer: Person;
let kim: Person;
let dora: Person;
let outsider: Person;
let administrator: Person;
let projectNo: number;
const clients: LiveClient[] = [];

async function person(name: string, fields: Partial<NewUser> = {}): Promise<Person> {
  const user = await server.createUser({ name, ...fields });
  const { accessToken } = await server.signIn(user.userId, user.password);
  return { user, token: accessToken, call: server.callerWith(accessToken) };
}

const listOf = (people: Person[]) => people.map((p) => p.user.userId).join(',');

beforeAll(async () => {
  server = await startTestServer();
  url = await server.listen();
  [leader, writer, kim, dora, outsider] = (await Promise.all(
    ['Leader Lee', 'Writer Woo', 'Kim Minji', 'Dora Department', 'Outsider Oh'].map((name) => person(name)),
  )) as [Person, Person, Person, Person, Person];
  administrator = await person('Admin Kang', { level: ADMIN_LEVEL });
  await administrator.call(api.departments.create, { code: 'CHEM', name: 'Chemistry' });
  // Dora belongs to a department the project names, but is not listed: offered, yet she may not read its notes.
  await server.database.db.update(users).set({ departmentCode: 'CHEM' }).where(eq(users.userNo, dora.user.userNo));
  const inactive = await person('Kim Inactive');
  await server.database.db.update(users).set({ departmentCode: 'CHEM', active: false }).where(eq(users.userNo, inactive.user.userNo));
  projectNo = (
    await leader.call(api.projects.create, { title: 'Mentioned work', signatureList: { department: 'CHEM', user: listOf([writer, kim]) } })
  ).body.data.projectNo;
});
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});
afterAll(async () => {
  await server?.stop();
});

let counter = 0;
async function newNote(inProject = projectNo): Promise<number> {
  const created = await writer.call(api.notes.create, { projectNo: inProject, title: `Note ${++counter}` });
  expect(created.body.status).toBe('0000');
  return created.body.data.labNoteNo;
}

/** The writer's live editor on the note, with one paragraph typed (so their client is known as theirs). */
async function editorOf(labNoteNo: number, who: Person = writer): Promise<{ client: LiveClient; blockUid: string }> {
  const client = await connectWriter(url, noteDocumentName(labNoteNo), who.token);
  clients.push(client);
  const blockUid = appendParagraph(client.doc, 'Please check this, ');
  await eventually(() => client.allDurable(), 'the first paragraph stored');
  return { client, blockUid };
}

const mention = (who: Person) => ({ userId: who.user.userId, label: who.user.name });

async function mentionsHeard(who: Person, labNoteNo?: number) {
  const result = await who.call(api.notifications.list, { page: 1, pageSize: 50 });
  expect(result.body.status).toBe('0000');
  return result.body.data.list.filter(
    (item) => item.event === 'mentioned' && (labNoteNo === undefined || item.note?.labNoteNo === labNoteNo),
  );
}

/** The outcomes the watcher recorded for a note, by person (block given: that block's only). */
async function outcomes(labNoteNo: number, blockUid?: string): Promise<Record<string, string>> {
  const rows = await server.database.db
    .select()
    .from(noteMentions)
    .where(and(eq(noteMentions.noteNo, labNoteNo), blockUid ? eq(noteMentions.blockUid, blockUid) : undefined));
  return Object.fromEntries(rows.map((row) => [row.userId, row.outcome]));
}

const byId = (list: MentionPerson[]) => Object.fromEntries(list.map((p) => [p.userId, p]));

describe('whom @ offers', () => {
  it('offers the leader, the listed participants and the departments’ active people, each with whether they may read the note', async () => {
    const labNoteNo = await newNote();
    const answer = await writer.call(api.mentions.candidates, { labNoteNo });
    expect(answer.body.status).toBe('0000');
    const { list, leader: named, abilities } = answer.body.data;
    expect(list.map((p) => p.name)).toEqual(['Dora Department', 'Kim Minji', 'Leader Lee', 'Writer Woo']);
    const people = byId(list);
    expect(people[leader.user.userId]).toEqual({
      userId: leader.user.userId,
      name: 'Leader Lee',
      department: null,
      leader: true,
      canRead: true,
    });
    expect(people[kim.user.userId]?.canRead).toBe(true);
    expect(people[dora.user.userId]).toMatchObject({ department: 'Chemistry', leader: false, canRead: false });
    expect(named).toEqual({ userId: leader.user.userId, name: 'Leader Lee' });
    expect(abilities).toEqual({ addParticipants: false });
    expect((await leader.call(api.mentions.candidates, { labNoteNo })).body.data.abilities).toEqual({ addParticipants: true });
    expect((await administrator.call(api.mentions.candidates, { labNoteNo })).body.data.abilities).toEqual({ addParticipants: true });
  });

  it('filters by what was typed, in the name or the ID, literally', async () => {
    const labNoteNo = await newNote();
    const names = async (q: string) => (await writer.call(api.mentions.candidates, { labNoteNo, q })).body.data.list.map((p) => p.name);
    expect(await names('kim')).toEqual(['Kim Minji']);
    expect(await names(' LEE ')).toEqual(['Leader Lee']);
    expect(await names(kim.user.userId.slice(0, 6))).toEqual(['Kim Minji']);
    expect(await names('%')).toEqual([]);
    expect(await names('Oh')).toEqual([]);
  });

  it('refuses a reader of no such note, and what was typed too long', async () => {
    const labNoteNo = await newNote();
    expect((await outsider.call(api.mentions.candidates, { labNoteNo })).body.status).toBe(ERR.noteMissing);
    expect((await outsider.call(api.mentions.people, { labNoteNo, userIds: [kim.user.userId] })).body.status).toBe(ERR.noteMissing);
    const long = await writer.call(api.mentions.candidates, { labNoteNo, q: 'x'.repeat(MENTION_LIMITS.query + 1) });
    expect(long.http).toBe(400);
    expect(long.body.status).toBe(ERR.validation);
  });

  it('names the people a note’s mentions name, members or not, and leaves out IDs of no one', async () => {
    const labNoteNo = await newNote();
    const answer = await writer.call(api.mentions.people, {
      labNoteNo,
      userIds: [kim.user.userId.toUpperCase(), outsider.user.userId, 'nobody@lab.test'],
    });
    expect(answer.body.status).toBe('0000');
    const people = byId(answer.body.data.list);
    expect(Object.keys(people).sort()).toEqual([kim.user.userId, outsider.user.userId].sort());
    expect(people[kim.user.userId]).toMatchObject({ name: 'Kim Minji', canRead: true });
    expect(people[outsider.user.userId]).toMatchObject({ name: 'Outsider Oh', canRead: false });
  });
});

describe('the notification a mention makes', () => {
  it('tells the person mentioned once, linking to the block, however often the mention is deleted and typed again', async () => {
    const labNoteNo = await newNote();
    const { client, blockUid } = await editorOf(labNoteNo);
    appendMention(client.doc, blockUid, mention(kim));
    await eventually(async () => (await mentionsHeard(kim, labNoteNo)).length === 1, 'Kim to hear of the mention');
    const [heard] = await mentionsHeard(kim, labNoteNo);
    expect(heard).toMatchObject({ actorName: 'Writer Woo', link: `/note/${labNoteNo}?block=${blockUid}`, read: false });
    // Kim hears of mentions by mail too (the default): it says who mentioned Kim in which note, and opens the block.
    const [mail] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.notificationId, heard!.id));
    const composed = await composeMail(server.database.db, mail!, { publicUrl: 'https://eln.example', timeZone: 'UTC' });
    expect(composed).toMatchObject({ to: kim.user.userId });
    const content = 'content' in composed ? composed.content : null;
    expect(content?.subject).toBe(`Writer Woo mentioned you in note ${heard!.note!.title} (${heard!.note!.labNoteNumber})`);
    expect(content?.text).toContain(`https://eln.example/note/${labNoteNo}?block=${blockUid}`);

    const paragraph = blockElement(client.doc, blockUid);
    for (let round = 0; round < 3; round += 1) {
      removeMentions(client.doc, kim.user.userId, paragraph);
      await eventually(() => client.allDurable(), 'the deletion stored');
      appendMention(client.doc, blockUid, mention(kim));
      await eventually(() => client.allDurable(), 'the mention typed again stored');
    }
    // The leader, mentioned last, hears of it after every pass over Kim's mention typed again.
    appendMention(client.doc, blockUid, mention(leader));
    await eventually(async () => (await mentionsHeard(leader, labNoteNo)).length === 1, 'the leader to hear of the mention');
    expect(await mentionsHeard(kim, labNoteNo)).toHaveLength(1);
    expect(await outcomes(labNoteNo)).toEqual({ [kim.user.userId]: 'notified', [leader.user.userId]: 'notified' });

    // Another block mentioning Kim is another mention.
    const second = appendParagraph(client.doc, 'Also here ');
    appendMention(client.doc, second, mention(kim));
    await eventually(async () => (await mentionsHeard(kim, labNoteNo)).length === 2, 'Kim to hear of the second block');
    expect((await mentionsHeard(kim, labNoteNo))[0]!.link).toBe(`/note/${labNoteNo}?block=${second}`);
  });

  it('never tells someone who may not read the note, nor the writer of their own mention', async () => {
    const labNoteNo = await newNote();
    const { client, blockUid } = await editorOf(labNoteNo);
    appendMention(client.doc, blockUid, mention(dora));
    appendMention(client.doc, blockUid, mention(outsider));
    appendMention(client.doc, blockUid, mention(writer));
    appendMention(client.doc, blockUid, { userId: 'nobody@lab.test', label: 'Nobody' });
    appendMention(client.doc, blockUid, mention(kim));
    await eventually(async () => (await mentionsHeard(kim, labNoteNo)).length === 1, 'Kim to hear of the mention');
    expect(await outcomes(labNoteNo, blockUid)).toEqual({
      [dora.user.userId]: 'notReader',
      [outsider.user.userId]: 'notReader',
      [writer.user.userId]: 'self',
      'nobody@lab.test': 'unknownPerson',
      [kim.user.userId]: 'notified',
    });
    for (const who of [dora, outsider, writer]) expect(await mentionsHeard(who, labNoteNo)).toEqual([]);
  });

  it('tells someone made a participant by the leader of a mention written after', async () => {
    const project = (
      await leader.call(api.projects.create, { title: 'Joined later', signatureList: { department: '', user: listOf([writer]) } })
    ).body.data.projectNo;
    const labNoteNo = await newNote(project);
    const { client, blockUid } = await editorOf(labNoteNo);
    const before = byId((await leader.call(api.mentions.people, { labNoteNo, userIds: [outsider.user.userId] })).body.data.list);
    expect(before[outsider.user.userId]?.canRead).toBe(false);
    const updated = await leader.call(api.projects.update, {
      projectNo: project,
      signatureList: { department: '', user: listOf([writer, outsider]) },
    });
    expect(updated.body.status).toBe('0000');
    expect((await leader.call(api.mentions.candidates, { labNoteNo, q: 'Outsider' })).body.data.list).toMatchObject([{ canRead: true }]);
    appendMention(client.doc, blockUid, mention(outsider));
    await eventually(async () => (await mentionsHeard(outsider, labNoteNo)).length === 1, 'the new participant to hear of it');
  });

  it('never tells a member removed from the project, and forgets what told them while they are out', async () => {
    const project = (
      await leader.call(api.projects.create, { title: 'Leaving', signatureList: { department: '', user: listOf([writer, kim]) } })
    ).body.data.projectNo;
    const labNoteNo = await newNote(project);
    const { client, blockUid } = await editorOf(labNoteNo);
    appendMention(client.doc, blockUid, mention(kim));
    await eventually(async () => (await mentionsHeard(kim, labNoteNo)).length === 1, 'Kim to hear of the first mention');

    await leader.call(api.projects.update, { projectNo: project, signatureList: { department: '', user: listOf([writer]) } });
    expect(await mentionsHeard(kim, labNoteNo)).toEqual([]);
    const people = byId((await writer.call(api.mentions.people, { labNoteNo, userIds: [kim.user.userId] })).body.data.list);
    expect(people[kim.user.userId]?.canRead).toBe(false);
    expect((await writer.call(api.mentions.candidates, { labNoteNo, q: 'Kim' })).body.data.list).toEqual([]);

    const second = appendParagraph(client.doc, 'After Kim left ');
    appendMention(client.doc, second, mention(kim));
    await eventually(async () => (await outcomes(labNoteNo, second))[kim.user.userId] === 'notReader', 'the second mention recorded');
    // Back in the project, Kim sees the first mention's notification again, and only it.
    await leader.call(api.projects.update, { projectNo: project, signatureList: { department: '', user: listOf([writer, kim]) } });
    expect(await mentionsHeard(kim, labNoteNo)).toHaveLength(1);
  });

  it('tells at most MENTION_LIMITS.perText people of one store', async () => {
    const many = await Promise.all(
      Array.from({ length: MENTION_LIMITS.perText + 1 }, (_, n) => person(`Crowd ${String(n).padStart(2, '0')}`)),
    );
    const project = (
      await leader.call(api.projects.create, { title: 'Crowded', signatureList: { department: '', user: listOf([writer, ...many]) } })
    ).body.data.projectNo;
    const labNoteNo = await newNote(project);
    const client = await connectWriter(url, noteDocumentName(labNoteNo), writer.token);
    clients.push(client);
    const blockUid = newBlockUid();
    // One update: the paragraph with its mentions, as a paste of it would store them.
    client.doc.transact(() => {
      appendParagraph(client.doc, 'All of you: ', blockUid);
      for (const who of many) appendMention(client.doc, blockUid, mention(who));
    });
    await eventually(async () => Object.keys(await outcomes(labNoteNo)).length === many.length, 'every mention recorded', 20_000);
    const recorded = Object.values(await outcomes(labNoteNo));
    expect(recorded.filter((outcome) => outcome === 'notified')).toHaveLength(MENTION_LIMITS.perText);
    expect(recorded.filter((outcome) => outcome === 'overLimit')).toHaveLength(1);
    const told = await Promise.all(many.map(async (who) => (await mentionsHeard(who, labNoteNo)).length));
    expect(told.reduce((sum, n) => sum + n, 0)).toBe(MENTION_LIMITS.perText);
    expect(told.slice(0, MENTION_LIMITS.perText).every((n) => n === 1)).toBe(true);
  });

  it('waits a while for the writer of a mention whose client is not yet known, then keeps it untold', async () => {
    const labNoteNo = await newNote();
    const name = noteDocumentName(labNoteNo);
    // A document no connection wrote: its client was never recorded as anyone's (the server's own copy, say).
    const doc = new Y.Doc();
    const blockUid = appendParagraph(doc, 'Copied: ');
    appendMention(doc, blockUid, mention(kim));
    let now = 1_000_000;
    const watcher = new NoteMentionWatcher(() => now);
    const look = () => server.database.db.transaction((tx) => watcher.notesStored(tx, [labNoteNo], async () => new Map([[name, doc]])));
    expect(await look()).toEqual([name]);
    now += 5_000;
    expect(await look()).toEqual([name]);
    expect(await outcomes(labNoteNo)).toEqual({});
    now += 6_000;
    expect(await look()).toEqual([]);
    expect(await outcomes(labNoteNo)).toEqual({ [kim.user.userId]: 'unattributed' });
    expect(await mentionsHeard(kim, labNoteNo)).toEqual([]);
    // Settled: looking again costs nothing and changes nothing.
    expect(await look()).toEqual([]);
  });
});
