import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  ADMIN_LEVEL,
  api,
  ERR,
  NOTIFICATION_EVENTS,
  NOTIFICATION_LIMITS,
  noteDocumentName,
  templateDocumentName,
  type NotificationChoice,
  type NotificationEvent,
} from '@eln/shared';
import { exportJobs, notifications, userSettings } from '../db/schema.js';
import { startTestServer, type NewUser, type TestServer, type TestPerson } from '../testing/harness.js';
import { appendParagraph, connectWriter, eventually, type LiveClient } from '../testing/live.js';
import { openNotificationStream, type StreamClient } from '../testing/notificationStream.js';
import { notify } from './notify.js';

/**
 * The bell through the API: every event reaches who it is for and not who caused it, as each person chose;
 * the list, paging and marking read; what a reader may no longer read is never shown; and the live stream,
 * pushed at the commit and never for a change rolled back. On each database the suite runs against.
 */

let server: TestServer;
let url: string;
type Person = TestPerson;
let leader: Person;
let writer: Person;
let reviewer: Person;
let colleague: Person;
let outsider: Person;
let administrator: Person;
let projectNo: number;
const clients: LiveClient[] = [];
const streams: StreamClient[] = [];
const TEMPLATE_FLAGS = { project: 'Y', schema: 'N', dropbox: 'N', template: 'Y' } as const;

const person = (name: string, fields: Partial<NewUser> = {}): Promise<Person> => server.person({ name, ...fields });

beforeAll(async () => {
  server = await startTestServer();
  url = await server.listen();
  [leader, writer, reviewer, colleague, outsider] = (await Promise.all(
    ['Leader Lee', 'Writer Woo', 'Reviewer Ryu', 'Colleague Cho', 'Outsider Oh'].map((name) => person(name)),
  )) as [Person, Person, Person, Person, Person];
  administrator = await person('Admin Kang', { level: ADMIN_LEVEL, auth: TEMPLATE_FLAGS });
  projectNo = await newProject('Notified work');
});
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
  for (const stream of streams.splice(0)) stream.close();
});
afterAll(async () => {
  await server?.stop();
});

let counter = 0;
async function newProject(title = `Project ${++counter}`, members: Person[] = [leader, writer, reviewer, colleague]): Promise<number> {
  const created = await leader.call(api.projects.create, {
    title,
    signatureList: { department: '', user: members.map((p) => p.user.userId).join(',') },
  });
  expect(created.body.status).toBe('0000');
  return created.body.data.projectNo;
}

/** A note by the writer with one saved version (and what `coWriters` wrote in it). */
async function savedNote(title = `Note ${++counter}`, inProject = projectNo, coWriters: Person[] = []) {
  const { labNoteNo } = (await writer.call(api.notes.create, { projectNo: inProject, title })).body.data;
  for (const who of [writer, ...coWriters]) {
    const editor = await connectWriter(url, noteDocumentName(labNoteNo), who.token);
    clients.push(editor);
    appendParagraph(editor.doc, `${who.user.name} wrote in ${title}`);
    await eventually(() => editor.allDurable(), 'durable');
  }
  expect((await writer.call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] })).body.status).toBe('0000');
  return labNoteNo;
}

const request = (labNoteNo: number, signers: Array<[Person, 'reviewer' | 'participant']>) =>
  writer.call(api.signatures.request, { labNoteNo, signers: signers.map(([p, type]) => ({ userId: p.user.userId, type })) });

const answer = (who: Person, labNoteNo: number, status: 'T' | 'F', description = '') =>
  who.call(api.signatures.respond, { labNoteNo, status, password: who.user.password, name: who.user.name, description });

async function listOf(who: Person, body: { unreadOnly?: boolean; page?: number; pageSize?: number } = {}) {
  const result = await who.call(api.notifications.list, { page: 1, pageSize: NOTIFICATION_LIMITS.pageSize, ...body });
  expect(result.body.status).toBe('0000');
  return result.body.data;
}

/** The reader's notifications of one event about one note (or any record when none is named). */
async function heard(who: Person, event: NotificationEvent, about: { labNoteNo?: number; projectNo?: number; templateNo?: number } = {}) {
  return (await listOf(who)).list.filter(
    (item) =>
      item.event === event &&
      (about.labNoteNo === undefined || item.note?.labNoteNo === about.labNoteNo) &&
      (about.projectNo === undefined || item.project?.projectNo === about.projectNo || item.link === `/project/${about.projectNo}`) &&
      (about.templateNo === undefined || item.template?.templateNo === about.templateNo),
  );
}

/** Sets how a person hears of one event, as the settings page will (the row the settings keep). */
async function choose(who: Person, event: NotificationEvent, choice: NotificationChoice): Promise<void> {
  await server.database.db
    .insert(userSettings)
    .values({ userNo: who.user.userNo, notificationChoices: { [event]: choice } })
    .onConflictDoUpdate({ target: userSettings.userNo, set: { notificationChoices: { [event]: choice } } });
}
const forget = (who: Person) => server.database.db.delete(userSettings).where(eq(userSettings.userNo, who.user.userNo));

async function stream(who: Person): Promise<StreamClient> {
  const opened = await openNotificationStream(url, who.token);
  streams.push(opened);
  expect(opened.status).toBe(200);
  await opened.next();
  return opened;
}

describe('a signature requested of me', () => {
  it('tells each signer with the meaning asked of them, linking to the note; never the requester', async () => {
    const labNoteNo = await savedNote('Buffer prep');
    expect(
      (
        await request(labNoteNo, [
          [reviewer, 'reviewer'],
          [colleague, 'participant'],
        ])
      ).body.status,
    ).toBe('0000');
    const [toReviewer] = await heard(reviewer, 'signatureRequested', { labNoteNo });
    expect(toReviewer).toMatchObject({
      actorName: 'Writer Woo',
      meaning: 'reviewer',
      note: { labNoteNo, title: 'Buffer prep' },
      project: { projectNo, title: 'Notified work' },
      read: false,
      link: `/note/${labNoteNo}`,
    });
    expect(toReviewer?.note?.labNoteNumber).toMatch(/\d/);
    expect(await heard(colleague, 'signatureRequested', { labNoteNo })).toMatchObject([{ meaning: 'participant' }]);
    expect(await heard(writer, 'signatureRequested', { labNoteNo })).toEqual([]);
    expect(await heard(leader, 'signatureRequested', { labNoteNo })).toEqual([]);
  });

  it('tells signers added later, once; and not in the app who chose not to hear of it there', async () => {
    const labNoteNo = await savedNote();
    await request(labNoteNo, [[reviewer, 'participant']]);
    await choose(colleague, 'signatureRequested', { app: false, email: true });
    try {
      const updated = await writer.call(api.signatures.updateSigners, {
        labNoteNo,
        signers: [
          { userId: reviewer.user.userId, type: 'reviewer' },
          { userId: colleague.user.userId, type: 'participant' },
          { userId: leader.user.userId, type: 'participant' },
        ],
      });
      expect(updated.body.status).toBe('0000');
      expect(await heard(reviewer, 'signatureRequested', { labNoteNo })).toHaveLength(1);
      expect(await heard(leader, 'signatureRequested', { labNoteNo })).toMatchObject([{ meaning: 'participant' }]);
      expect(await heard(colleague, 'signatureRequested', { labNoteNo })).toEqual([]);
      // Recorded for the mail, not shown in the app.
      const rows = await server.database.db.select().from(notifications).where(eq(notifications.userNo, colleague.user.userNo));
      expect(rows.filter((r) => r.noteNo === labNoteNo)).toMatchObject([{ inApp: false, byEmail: true }]);
    } finally {
      await forget(colleague);
    }
  });

  it('records nothing at all for who chose to hear of it neither way', async () => {
    const labNoteNo = await savedNote();
    await choose(reviewer, 'signatureRequested', { app: false, email: false });
    try {
      await request(labNoteNo, [[reviewer, 'reviewer']]);
      const rows = await server.database.db.select().from(notifications).where(eq(notifications.userNo, reviewer.user.userNo));
      expect(rows.filter((r) => r.noteNo === labNoteNo)).toEqual([]);
    } finally {
      await forget(reviewer);
    }
  });
});

describe('my note signed, declined or its signature removed', () => {
  it('tells the writer and the co-writers when it is signed; not the signer', async () => {
    const labNoteNo = await savedNote('Co-written', projectNo, [colleague]);
    await request(labNoteNo, [[reviewer, 'reviewer']]);
    expect((await answer(reviewer, labNoteNo, 'T')).body.status).toBe('0000');
    for (const who of [writer, colleague]) {
      expect(await heard(who, 'noteSigned', { labNoteNo })).toMatchObject([
        { actorName: 'Reviewer Ryu', meaning: 'reviewer', link: `/note/${labNoteNo}` },
      ]);
    }
    expect(await heard(reviewer, 'noteSigned', { labNoteNo })).toEqual([]);
    expect(await heard(leader, 'noteSigned', { labNoteNo })).toEqual([]);
  });

  it('tells the writers of a decline with its reason, and of a removal by the leader with theirs', async () => {
    const labNoteNo = await savedNote();
    await request(labNoteNo, [
      [reviewer, 'reviewer'],
      [colleague, 'participant'],
    ]);
    expect((await answer(colleague, labNoteNo, 'F', 'The yield is not recorded')).body.status).toBe('0000');
    expect(await heard(writer, 'signatureRemoved', { labNoteNo })).toMatchObject([
      { actorName: 'Colleague Cho', declined: true, meaning: 'participant', reason: 'The yield is not recorded' },
    ]);
    expect(await heard(colleague, 'signatureRemoved', { labNoteNo })).toEqual([]);

    expect((await answer(reviewer, labNoteNo, 'T')).body.status).toBe('0000');
    const signatureId = (await writer.call(api.notes.blockList, { labNoteNo })).body.data.note.signatureList.find(
      (s) => s.userId === reviewer.user.userId,
    )!.signatureId;
    const removed = await leader.call(api.signatures.remove, { labNoteNo, signatureId, reason: 'Signed the wrong version' });
    expect(removed.body.status).toBe('0000');
    const told = await heard(writer, 'signatureRemoved', { labNoteNo });
    expect(told).toHaveLength(2);
    expect(told[0]).toMatchObject({ actorName: 'Leader Lee', declined: false, meaning: 'reviewer', reason: 'Signed the wrong version' });
    expect(await heard(leader, 'signatureRemoved', { labNoteNo })).toEqual([]);
  });
});

describe('a project I take part in closed', () => {
  it('tells every participant, linking to the project; not the leader who closed it, nor outsiders', async () => {
    const closing = await newProject('Closing soon');
    const labNoteNo = await savedNote(undefined, closing);
    await request(labNoteNo, [[reviewer, 'reviewer']]);
    await answer(reviewer, labNoteNo, 'T');
    expect((await leader.call(api.projects.finish, { projectNo: closing })).body.status).toBe('0000');
    for (const who of [writer, reviewer, colleague]) {
      expect(await heard(who, 'projectClosed', { projectNo: closing })).toMatchObject([
        { actorName: 'Leader Lee', project: { projectNo: closing, title: 'Closing soon' }, note: null, link: `/project/${closing}` },
      ]);
    }
    expect(await heard(leader, 'projectClosed', { projectNo: closing })).toEqual([]);
    expect(await heard(outsider, 'projectClosed')).toEqual([]);
  });
});

describe('a template of mine', () => {
  let author: Person;
  let approver: Person;
  beforeAll(async () => {
    author = await person('Author Ahn', { auth: TEMPLATE_FLAGS });
    approver = await person('Approver Bae', { auth: TEMPLATE_FLAGS });
  });

  async function draft(title: string) {
    const templateNo = (await author.call(api.templates.create, { title })).body.data.templateNo;
    const editor = await connectWriter(url, templateDocumentName(templateNo), author.token);
    clients.push(editor);
    appendParagraph(editor.doc, 'Weigh the reagents');
    await eventually(() => editor.allDurable(), 'durable');
    editor.destroy();
    return templateNo;
  }

  it('tells its author of a check-in by someone else, of approval with the version, and of a return with the reason', async () => {
    const templateNo = await draft('Titration');
    expect((await administrator.call(api.templates.checkIn, { templateNo, version: 0, blockList: [] })).body.status).toBe('0000');
    expect(await heard(author, 'templateChecked', { templateNo })).toMatchObject([
      { actorName: 'Admin Kang', template: { templateNo, title: 'Titration' }, link: `/template/note/${templateNo}` },
    ]);
    const approved = await approver.call(api.templates.approve, {
      templateNo,
      version: '1.2',
      revision: 1,
      password: approver.user.password,
    });
    expect(approved.body.status).toBe('0000');
    expect(await heard(author, 'templateApproved', { templateNo })).toMatchObject([{ actorName: 'Approver Bae', version: '1.2' }]);
    expect(await heard(approver, 'templateApproved', { templateNo })).toEqual([]);

    // Their own check-in tells them nothing; a return does.
    expect((await author.call(api.templates.reopen, { templateNo })).body.status).toBe('0000');
    expect((await author.call(api.templates.checkIn, { templateNo, version: 1, blockList: [] })).body.status).toBe('0000');
    expect(await heard(author, 'templateChecked', { templateNo })).toHaveLength(1);
    const returned = await approver.call(api.templates.sendBack, { templateNo, revision: 2, reason: 'Name the balance' });
    expect(returned.body.status).toBe('0000');
    expect(await heard(author, 'templateReturned', { templateNo })).toMatchObject([
      { actorName: 'Approver Bae', reason: 'Name the balance' },
    ]);
  });

  it('is seen by its author only while they may read the template', async () => {
    const templateNo = await draft('Deleted later');
    await administrator.call(api.templates.checkIn, { templateNo, version: 0, blockList: [] });
    expect(await heard(author, 'templateChecked', { templateNo })).toHaveLength(1);
    await approver.call(api.templates.sendBack, { templateNo, revision: 1, reason: 'Start again' });
    expect((await author.call(api.templates.delete, { templateNo })).body.status).toBe('0000');
    expect(await heard(author, 'templateChecked', { templateNo })).toEqual([]);
    expect(await heard(author, 'templateReturned', { templateNo })).toEqual([]);
  });
});

describe('an export of mine', () => {
  it('tells its requester when it is ready, linking to the project (administrators: the downloads page)', async () => {
    const exported = await newProject('Exported work');
    const started = await leader.call(api.exports.create, { format: 'eln', projectNos: [exported] });
    expect(started.body.status).toBe('0000');
    await server.services.exportJobs.idle();
    const [ready] = await heard(leader, 'exportFinished');
    expect(ready).toMatchObject({ actorName: null, project: null, link: `/project/${exported}` });
    expect(ready?.file).toMatch(/\.eln$/);
    expect(await heard(writer, 'exportFinished')).toEqual([]);

    await administrator.call(api.exports.create, { format: 'auditCsv' });
    await server.services.exportJobs.idle();
    expect((await heard(administrator, 'exportFinished'))[0]).toMatchObject({ link: '/admin/download' });
    expect((await heard(administrator, 'exportFinished'))[0]?.file).toMatch(/\.csv$/);
  });

  it('tells its requester when it failed, naming what it was to be', async () => {
    await server.services.exportJobs.stop();
    const started = await leader.call(api.exports.create, { format: 'pdf', projectNos: [projectNo] });
    const jobId = started.body.data.list[0]!.jobId;
    // The process running it stopped: its heartbeat grows old and the next look fails it.
    await server.database.db
      .update(exportJobs)
      .set({ status: 'running', heartbeatAt: new Date(Date.now() - 5 * 60_000) })
      .where(eq(exportJobs.jobId, jobId));
    server.services.exportJobs.start();
    await server.services.exportJobs.idle();
    expect(await heard(leader, 'exportFailed')).toMatchObject([{ file: 'Notified work.pdf', link: `/project/${projectNo}` }]);
  });
});

describe('each person’s choices', () => {
  it('keep every event out of the app for who chose so, while the mail still has each recorded', async () => {
    // Someone who is every kind of recipient at once: an administrator with the template permission who
    // writes notes, is asked to sign, takes part in a project, authors a template and exports.
    const everyone = await person('Every Event', { level: ADMIN_LEVEL, auth: TEMPLATE_FLAGS });
    const approver = await person('Approver Kwon', { auth: TEMPLATE_FLAGS });
    // A webhook turned off is told in webhooks.api.test.ts (it takes a day of failed deliveries).
    const events = NOTIFICATION_EVENTS.filter((event) => event !== 'mentioned' && event !== 'webhookDisabled');
    await server.database.db.insert(userSettings).values({
      userNo: everyone.user.userNo,
      notificationChoices: Object.fromEntries(events.map((e) => [e, { app: false, email: true }])),
    });
    const project = await newProject('Every event', [leader, writer, reviewer, colleague, everyone]);

    async function ownNote(title: string) {
      const { labNoteNo } = (await everyone.call(api.notes.create, { projectNo: project, title })).body.data;
      const editor = await connectWriter(url, noteDocumentName(labNoteNo), everyone.token);
      clients.push(editor);
      appendParagraph(editor.doc, title);
      await eventually(() => editor.allDurable(), 'durable');
      await everyone.call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
      return labNoteNo;
    }
    const signed = await ownNote('Signed by the reviewer');
    await everyone.call(api.signatures.request, { labNoteNo: signed, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
    expect((await answer(reviewer, signed, 'T')).body.status).toBe('0000');
    const declined = await ownNote('Declined by a colleague');
    await everyone.call(api.signatures.request, { labNoteNo: declined, signers: [{ userId: colleague.user.userId, type: 'participant' }] });
    expect((await answer(colleague, declined, 'F', 'Not mine to sign')).body.status).toBe('0000');
    const asked = await savedNote('Asking everyone', project);
    expect((await request(asked, [[everyone, 'participant']])).body.status).toBe('0000');
    const [waiting] = (await writer.call(api.signatureOverview.noteOverview, { labNoteNo: asked })).body.data.requests;
    expect((await writer.call(api.signatureOverview.remind, { labNoteNo: asked, signatureId: waiting!.signatureId })).body.status).toBe(
      '0000',
    );
    expect((await leader.call(api.projects.finish, { projectNo: project })).body.status).toBe('0000');

    const templateNo = (await everyone.call(api.templates.create, { title: 'Every event' })).body.data.templateNo;
    const editor = await connectWriter(url, templateDocumentName(templateNo), everyone.token);
    appendParagraph(editor.doc, 'Step one');
    await eventually(() => editor.allDurable(), 'durable');
    editor.destroy();
    expect((await administrator.call(api.templates.checkIn, { templateNo, version: 0, blockList: [] })).body.status).toBe('0000');
    const approved = await approver.call(api.templates.approve, {
      templateNo,
      version: '1.1',
      revision: 1,
      password: approver.user.password,
    });
    expect(approved.body.status).toBe('0000');
    expect((await everyone.call(api.templates.reopen, { templateNo })).body.status).toBe('0000');
    expect((await everyone.call(api.templates.checkIn, { templateNo, version: 1, blockList: [] })).body.status).toBe('0000');
    expect((await approver.call(api.templates.sendBack, { templateNo, revision: 2, reason: 'Again' })).body.status).toBe('0000');

    await everyone.call(api.exports.create, { format: 'eln', projectNos: [project] });
    await server.services.exportJobs.idle();
    await server.services.exportJobs.stop();
    const failing = (await everyone.call(api.exports.create, { format: 'pdf', projectNos: [project] })).body.data.list[0]!.jobId;
    await server.database.db
      .update(exportJobs)
      .set({ status: 'running', heartbeatAt: new Date(Date.now() - 5 * 60_000) })
      .where(eq(exportJobs.jobId, failing));
    server.services.exportJobs.start();
    await server.services.exportJobs.idle();
    await server.database.db.transaction((tx) =>
      notify(tx, { event: 'usersDeactivated', recipients: [everyone.user.userNo], actorUserNo: null, payload: { count: 1 } }),
    );

    const rows = await server.database.db.select().from(notifications).where(eq(notifications.userNo, everyone.user.userNo));
    expect(new Set(rows.map((r) => r.event))).toEqual(new Set(events));
    expect(rows.every((r) => !r.inApp && r.byEmail)).toBe(true);
    expect(await listOf(everyone)).toEqual({ list: [], totalCount: 0, unreadCount: 0 });
  });
});

describe('the list', () => {
  let reader: Person;
  const ids: number[] = [];
  beforeAll(async () => {
    reader = await person('Reader Yoon');
    const listed = await newProject('Listed', [leader, writer, reader]);
    for (let i = 0; i < 5; i += 1) {
      const labNoteNo = await savedNote(`Listed ${i}`, listed);
      await request(labNoteNo, [[reader, 'participant']]);
    }
    ids.push(...(await listOf(reader)).list.map((item) => item.id));
  });

  it('lists newest first in pages, counting all and the unread', async () => {
    expect(ids).toHaveLength(5);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const first = await listOf(reader, { page: 1, pageSize: 2 });
    expect(first).toMatchObject({ totalCount: 5, unreadCount: 5 });
    expect(first.list.map((i) => i.id)).toEqual(ids.slice(0, 2));
    expect((await listOf(reader, { page: 3, pageSize: 2 })).list.map((i) => i.id)).toEqual(ids.slice(4));
    expect((await listOf(reader, { page: 4, pageSize: 2 })).list).toEqual([]);
    expect(first.list[0]?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('marks one read, then all; others’ ids are passed over; unreadOnly lists what is left', async () => {
    const one = await reader.call(api.notifications.read, { ids: [ids[1]!] });
    expect(one.body).toMatchObject({ status: '0000', data: { unreadCount: 4 } });
    const unread = await listOf(reader, { unreadOnly: true });
    expect(unread.totalCount).toBe(4);
    expect(unread.list.map((i) => i.id)).toEqual(ids.filter((id) => id !== ids[1]));
    expect((await listOf(reader)).list.find((i) => i.id === ids[1])?.read).toBe(true);

    // Someone else's ids change nothing of theirs.
    const others = await outsider.call(api.notifications.read, { ids: [ids[0]!, ids[2]!] });
    expect(others.body).toMatchObject({ status: '0000', data: { unreadCount: 0 } });
    expect((await listOf(reader)).unreadCount).toBe(4);

    const all = await reader.call(api.notifications.read, { all: true });
    expect(all.body).toMatchObject({ status: '0000', data: { unreadCount: 0 } });
    expect(await listOf(reader, { unreadOnly: true })).toMatchObject({ list: [], totalCount: 0, unreadCount: 0 });
    expect((await listOf(reader)).totalCount).toBe(5);
  });

  it('refuses bad requests (9001) and strangers (1002)', async () => {
    const refusals: Array<[unknown, string]> = [
      [{ ids: [ids[0]], all: true }, 'ids'],
      [{}, 'ids'],
      [{ ids: [] }, 'ids'],
      [{ ids: Array.from({ length: NOTIFICATION_LIMITS.readIds + 1 }, (_, i) => i + 1) }, 'ids'],
      [{ ids: [0] }, 'ids.0'],
      [{ ids: ['1'] }, 'ids.0'],
      [{ all: false }, 'all'],
      [{ all: true, userNo: reader.user.userNo }, 'userNo'],
    ];
    for (const [body, field] of refusals) {
      const refused = await reader.call<{ fields: Array<{ field: string }> }>(api.notifications.read.path, body);
      expect(refused.http, JSON.stringify(body)).toBe(400);
      expect(refused.body.status).toBe(ERR.validation);
      expect(refused.body.data.fields.map((f) => f.field)).toContain(field);
    }
    for (const body of [
      { page: 1, pageSize: NOTIFICATION_LIMITS.pageSize + 1 },
      { page: 0, pageSize: 10 },
      { page: 1, pageSize: 10, unreadOnly: 'yes' },
      { page: 1, pageSize: 10, userNo: 1 },
    ]) {
      expect((await reader.call(api.notifications.list.path, body)).http, JSON.stringify(body)).toBe(400);
    }
    expect((await server.call(api.notifications.list, { page: 1, pageSize: 10 })).http).toBe(401);
    expect((await server.call(api.notifications.read, { all: true })).http).toBe(401);
    expect((await server.call(api.notifications.stream, {})).body.status).toBe(ERR.sessionEnded);
    expect((await reader.call(api.notifications.stream.path, { all: true })).http).toBe(400);
  });
});

describe('what a reader may no longer read', () => {
  it('hides a project’s notifications from a member removed from it, and shows them again when they are back', async () => {
    const member = await person('Member Moon');
    const shared = await newProject('Membership', [leader, writer, member]);
    const labNoteNo = await savedNote('Members only', shared);
    await request(labNoteNo, [[member, 'participant']]);
    expect(await heard(member, 'signatureRequested', { labNoteNo })).toHaveLength(1);
    const before = (await listOf(member)).unreadCount;
    const live = await stream(member);

    const removal = await leader.call(api.projects.update, {
      projectNo: shared,
      signatureList: { department: '', user: writer.user.userId },
    });
    expect(removal.body.status).toBe('0000');
    expect(await heard(member, 'signatureRequested', { labNoteNo })).toEqual([]);
    expect(await listOf(member)).toMatchObject({ unreadCount: before - 1, totalCount: before - 1 });
    // Their open bell is corrected at once, not at their next change.
    expect((await live.next((s) => s.unreadCount === before - 1)).newest?.note?.labNoteNo).not.toBe(labNoteNo);

    await leader.call(api.projects.update, {
      projectNo: shared,
      signatureList: { department: '', user: [writer, member].map((p) => p.user.userId).join(',') },
    });
    expect(await heard(member, 'signatureRequested', { labNoteNo })).toHaveLength(1);
  });

  it('hides a deleted note’s notifications, and shows directory news to administrators only', async () => {
    const labNoteNo = await savedNote('Deleted later');
    await request(labNoteNo, [[reviewer, 'participant']]);
    await writer.call(api.signatures.updateSigners, { labNoteNo, signers: [] });
    expect(await heard(reviewer, 'signatureRequested', { labNoteNo })).toHaveLength(1);
    expect((await writer.call(api.notes.delete, { labNoteNo })).body.status).toBe('0000');
    expect(await heard(reviewer, 'signatureRequested', { labNoteNo })).toEqual([]);

    // A directory synchronisation's notification (directory.api.test.ts makes real ones) for a member is never shown.
    await server.database.db.transaction((tx) =>
      notify(tx, {
        event: 'usersDeactivated',
        recipients: [outsider.user.userNo, administrator.user.userNo],
        actorUserNo: null,
        payload: { count: 3 },
      }),
    );
    expect(await heard(outsider, 'usersDeactivated')).toEqual([]);
    expect(await heard(administrator, 'usersDeactivated')).toMatchObject([{ count: 3, actorName: null, link: '/admin' }]);
  });
});

describe('the live stream', () => {
  it('sends the state at once, and pushes a change once it commits', async () => {
    const watcher = await person('Watcher Won');
    const watched = await newProject('Watched', [leader, writer, watcher]);
    const live = await stream(watcher);
    expect(live.contentType).toContain('text/event-stream');
    expect(live.states[0]).toEqual({ unreadCount: 0, newest: null });
    const labNoteNo = await savedNote('Watched note', watched);
    await request(labNoteNo, [[watcher, 'reviewer']]);
    const pushed = await live.next((s) => s.unreadCount === 1);
    expect(pushed.newest).toMatchObject({ event: 'signatureRequested', note: { labNoteNo }, read: false, link: `/note/${labNoteNo}` });
  });

  it('pushes nothing for a change that rolled back', async () => {
    const watcher = await person('Watcher Ahn');
    const watched = await newProject('Rolled back', [leader, writer, watcher]);
    const labNoteNo = await savedNote('Rolled back note', watched);
    const live = await stream(watcher);
    const notifyWatcher = (tx: Parameters<typeof notify>[0]) =>
      notify(tx, {
        event: 'signatureRequested',
        recipients: [watcher.user.userNo],
        actorUserNo: writer.user.userNo,
        noteNo: labNoteNo,
        projectNo: watched,
        payload: { meaning: 'participant' },
      });
    await expect(
      server.database.db.transaction(async (tx) => {
        await notifyWatcher(tx);
        throw new Error('the change fails after notifying');
      }),
    ).rejects.toThrow('the change fails');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(live.states).toEqual([{ unreadCount: 0, newest: null }]);
    // A committed one arrives, and counts only itself.
    await server.database.db.transaction((tx) => notifyWatcher(tx));
    expect(await live.next(() => true, 1)).toMatchObject({ unreadCount: 1, newest: { note: { labNoteNo } } });
    expect(live.states).toHaveLength(2);
  });

  it('tells every open tab of the reader when they read, and no one else', async () => {
    const labNoteNo = await savedNote();
    await request(labNoteNo, [[reviewer, 'reviewer']]);
    const [tabOne, tabTwo, other] = await Promise.all([stream(reviewer), stream(reviewer), stream(colleague)]);
    const otherCount = other.states.length;
    expect(tabOne.states[0]!.unreadCount).toBeGreaterThan(0);
    await reviewer.call(api.notifications.read, { all: true });
    await Promise.all([tabOne.next((s) => s.unreadCount === 0), tabTwo.next((s) => s.unreadCount === 0)]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(other.states).toHaveLength(otherCount);
  });

  it('ends at sign-out', async () => {
    const leaving = await person('Leaving Lim');
    const live = await stream(leaving);
    expect(server.services.notificationStreams.openCount).toBeGreaterThan(0);
    expect((await leaving.call(api.auth.signOut, {})).body.status).toBe('0000');
    await live.ended;
    const again = await openNotificationStream(url, leaving.token);
    expect(again.status).toBe(401);
  });

  it('ends when its access token expires, so the client opens it again with a fresh one', async () => {
    const shortLived = await startTestServer({ accessTokenSeconds: 2 });
    try {
      const base = await shortLived.listen();
      const signedInAt = Date.now();
      const { accessToken } = await shortLived.signIn(shortLived.admin.userId, shortLived.admin.password);
      const live = await openNotificationStream(base, accessToken);
      expect(live.status).toBe(200);
      await live.next();
      await live.ended;
      // The token's expiry is counted in whole seconds from its issue: between one and two seconds after signing in.
      expect(Date.now() - signedInAt).toBeGreaterThanOrEqual(900);
      expect(Date.now() - signedInAt).toBeLessThan(2000 + 3000);
      expect(shortLived.services.notificationStreams.openCount).toBe(0);
    } finally {
      await shortLived.stop();
    }
  });
});
