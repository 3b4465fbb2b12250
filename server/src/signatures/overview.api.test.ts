import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import type { AddressObject, ParsedMail } from 'mailparser';
import { api, ERR, noteDocumentName, type SignatureOverviewNote, type SignatureRequestOverview } from '@eln/shared';
import { auditLog, labNotes, signatureReminders, userSettings } from '../db/schema.js';
import { startTestServer, type Caller, type TestServer, type TestPerson } from '../testing/harness.js';
import { appendParagraph, connectWriter, eventually, type LiveClient } from '../testing/live.js';
import { TestSmtpServer } from '../testing/smtp.js';

/*
 * The signature overview of a note and of a project (every state a request can be in, who asked, the
 * signer's answer with their recorded zone, reminders) and the reminder: who may send it, once a day per
 * request, the signer told in the app and by mail (a real SMTP server on loopback), the audit record.
 */

const PUBLIC_URL = 'https://eln.lab.example';
let smtp: TestSmtpServer;
let server: TestServer;
let url: string;
type Person = TestPerson;
let leader: Person;
let writer: Person;
let reviewer: Person;
let colleague: Person;
let waiter: Person;
let extra: Person;
let outsider: Person;
let admin: Caller;
let projectNo: number;
let closedProjectNo: number;
/** Project P's notes: every state on one note, a deleted note, a note without requests. */
let allStates: number;
let deletedNote: number;
let untouched: number;
/** Project Q, closed with a request still waiting: cancelled. */
let cancelledNote: number;
const clients: LiveClient[] = [];

const person = (name: string): Promise<Person> => server.person({ name });

const ids = (...people: Person[]) => people.map((p) => p.user.userId).join(',');

/** A note by the writer with one saved version (what a signature needs). */
async function savedNote(inProject: number, title: string): Promise<number> {
  const { labNoteNo } = (await writer.call(api.notes.create, { projectNo: inProject, title })).body.data;
  const editor = await connectWriter(url, noteDocumentName(labNoteNo), writer.token);
  clients.push(editor);
  appendParagraph(editor.doc, `Result of ${title}`);
  await eventually(() => editor.allDurable(), 'durable');
  expect((await writer.call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] })).body.status).toBe('0000');
  return labNoteNo;
}

const answer = (who: Person, labNoteNo: number, status: 'T' | 'F', description = '') =>
  who.call(api.signatures.respond, {
    labNoteNo,
    status,
    password: who.user.password,
    name: `${who.user.name} (printed)`,
    description,
    timeZone: 'Asia/Seoul',
  });

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  // The outbox sends when the tests ask (flush), not on its own poll.
  server = await startTestServer({ config: { smtpUrl: smtp.url, publicUrl: PUBLIC_URL }, mail: { pollMs: 3_600_000 } });
  url = await server.listen();
  [leader, writer, reviewer, colleague, waiter, extra, outsider] = (await Promise.all(
    ['Leader Lee', 'Writer Woo', 'Reviewer Ryu', 'Colleague Cho', 'Waiter Wang', 'Extra Eom', 'Outsider Oh'].map(person),
  )) as [Person, Person, Person, Person, Person, Person, Person];
  await server.database.db.insert(userSettings).values({ userNo: waiter.user.userNo, language: 'ko' });
  admin = await server.as(server.admin);
  const members = ids(leader, writer, reviewer, colleague, waiter, extra);
  projectNo = (await leader.call(api.projects.create, { title: 'Overview', signatureList: { department: '', user: members } })).body.data
    .projectNo;
  closedProjectNo = (await leader.call(api.projects.create, { title: 'Overview closed', signatureList: { department: '', user: members } }))
    .body.data.projectNo;

  // One note holding every state but cancelled: signed, declined, waiting, withdrawn.
  allStates = await savedNote(projectNo, 'All states');
  await writer.call(api.signatures.request, {
    labNoteNo: allStates,
    signers: [
      { userId: reviewer.user.userId, type: 'reviewer' },
      { userId: colleague.user.userId, type: 'participant' },
      { userId: waiter.user.userId, type: 'participant' },
      { userId: extra.user.userId, type: 'participant' },
    ],
  });
  // Extra's request is withdrawn by changing the pending signers (before anyone signs: a signed note takes no changes).
  await writer.call(api.signatures.updateSigners, {
    labNoteNo: allStates,
    signers: [
      { userId: reviewer.user.userId, type: 'reviewer' },
      { userId: colleague.user.userId, type: 'participant' },
      { userId: waiter.user.userId, type: 'participant' },
    ],
  });
  expect((await answer(reviewer, allStates, 'T', 'Checked the blank')).body.status).toBe('0000');
  expect((await answer(colleague, allStates, 'F', 'Wrong lot')).body.status).toBe('0000');
  deletedNote = (await writer.call(api.notes.create, { projectNo, title: 'Deleted' })).body.data.labNoteNo;
  await writer.call(api.signatures.request, { labNoteNo: deletedNote, signers: [{ userId: waiter.user.userId, type: 'participant' }] });
  expect((await writer.call(api.notes.delete, { labNoteNo: deletedNote })).body.status).toBe('0000');
  untouched = (await writer.call(api.notes.create, { projectNo, title: 'Untouched' })).body.data.labNoteNo;

  // Project Q: a reviewer's signature lets the leader close it; the request still waiting is cancelled.
  const signedInQ = await savedNote(closedProjectNo, 'Signed in Q');
  await writer.call(api.signatures.request, { labNoteNo: signedInQ, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
  expect((await answer(reviewer, signedInQ, 'T')).body.status).toBe('0000');
  cancelledNote = (await writer.call(api.notes.create, { projectNo: closedProjectNo, title: 'Cancelled in Q' })).body.data.labNoteNo;
  await writer.call(api.signatures.request, { labNoteNo: cancelledNote, signers: [{ userId: waiter.user.userId, type: 'participant' }] });
  expect((await leader.call(api.projects.finish, { projectNo: closedProjectNo })).body.status).toBe('0000');
}, 120_000);

afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

const noteOverview = (who: Person | Caller, labNoteNo: number) =>
  (typeof who === 'function' ? who : who.call)(api.signatureOverview.noteOverview, { labNoteNo });
const overviewOf = async (who: Person, labNoteNo: number): Promise<SignatureOverviewNote> => {
  const result = await noteOverview(who, labNoteNo);
  expect(result.body.status).toBe('0000');
  return result.body.data;
};
const requestOf = (note: SignatureOverviewNote, who: Person): SignatureRequestOverview => {
  const found = note.requests.find((r) => r.signer.userId === who.user.userId);
  expect(found, who.user.name).toBeDefined();
  return found!;
};
const remind = (who: Person, labNoteNo: number, signatureId: number) => who.call(api.signatureOverview.remind, { labNoteNo, signatureId });

describe('the overview of a note', () => {
  it('lists every request with who asked and when, and what became of it: signed, declined, waiting, withdrawn', async () => {
    const note = await overviewOf(writer, allStates);
    expect(note).toMatchObject({ labNoteNo: allStates, title: 'All states', status: 'T' });
    expect(note.requests.map((r) => [r.signer.name, r.type, r.state])).toEqual([
      ['Reviewer Ryu', 'reviewer', 'signed'],
      ['Colleague Cho', 'participant', 'declined'],
      ['Waiter Wang', 'participant', 'waiting'],
      ['Extra Eom', 'participant', 'removed'],
    ]);
    for (const request of note.requests) {
      expect(request.requestedBy).toEqual({ userId: writer.user.userId, name: 'Writer Woo' });
      expect(Date.parse(request.requestedAt)).not.toBeNaN();
    }
    expect(requestOf(note, reviewer)).toMatchObject({
      signatureName: 'Reviewer Ryu (printed)',
      description: 'Checked the blank',
      timeZone: 'Asia/Seoul',
      signedVersion: 1,
      removed: null,
    });
    expect(Date.parse(requestOf(note, reviewer).answeredAt!)).toBeGreaterThanOrEqual(Date.parse(requestOf(note, reviewer).requestedAt));
    expect(requestOf(note, colleague)).toMatchObject({ description: 'Wrong lot', timeZone: 'Asia/Seoul', signedVersion: null });
    expect(requestOf(note, colleague).answeredAt).not.toBeNull();
    expect(requestOf(note, waiter)).toMatchObject({
      answeredAt: null,
      timeZone: null,
      reminders: { count: 0, lastAt: null, lastBy: null },
    });
    expect(requestOf(note, extra)).toMatchObject({
      answeredAt: null,
      removed: { by: { userId: writer.user.userId, name: 'Writer Woo' }, reason: 'request withdrawn' },
    });
  });

  it('carries the reminder verdict: the requester and the leader may remind the one waiting; no one else, and not the answered', async () => {
    const verdicts = async (who: Person) => (await overviewOf(who, allStates)).requests.map((r) => [r.signer.name, r.reminder]);
    const onlyWaiting = [
      ['Reviewer Ryu', null],
      ['Colleague Cho', null],
      ['Waiter Wang', { allowed: true, nextAt: null }],
      ['Extra Eom', null],
    ];
    expect(await verdicts(writer)).toEqual(onlyWaiting);
    expect(await verdicts(leader)).toEqual(onlyWaiting);
    // Another participant, and the waiting signer themselves, read it all but may not remind.
    for (const who of [reviewer, waiter]) expect((await verdicts(who)).every(([, reminder]) => reminder === null)).toBe(true);
  });

  it('is read by whoever may read the note: not by others (2013), not once deleted (2014); administrators read any', async () => {
    expect((await noteOverview(outsider, allStates)).body.status).toBe(ERR.noteMissing);
    expect((await noteOverview(outsider, allStates)).http).toBe(404);
    expect((await noteOverview(writer, deletedNote)).body.status).toBe(ERR.noteDeleted);
    const asAdmin = await noteOverview(admin, allStates);
    expect(asAdmin.body.data.requests).toHaveLength(4);
    // An administrator who neither asked nor leads may not remind.
    expect(asAdmin.body.data.requests.every((r) => r.reminder === null)).toBe(true);
    expect((await writer.call(api.signatureOverview.noteOverview, { labNoteNo: 'x' })).http).toBe(400);
  });

  it('says a request waiting when the project closed is cancelled, at the close, and may no longer be reminded', async () => {
    const note = await overviewOf(leader, cancelledNote);
    expect(note.status).toBe('F');
    expect(note.requests).toMatchObject([{ signer: { name: 'Waiter Wang' }, state: 'cancelled', reminder: null }]);
    expect(note.requests[0]?.answeredAt).not.toBeNull();
    expect((await remind(writer, cancelledNote, note.requests[0]!.signatureId)).body.status).toBe(ERR.reminderNotWaiting);
  });
});

describe('the overview of a project', () => {
  const projectOverview = (who: Person | Caller, body: Record<string, unknown>) =>
    (typeof who === 'function' ? who : who.call)(api.signatureOverview.projectOverview, body);

  it('lists the notes the caller may read, newest first, each with its requests, and counts the requests by state', async () => {
    const result = await projectOverview(colleague, { projectNo });
    expect(result.body.status).toBe('0000');
    const { list, totalCount, counts } = result.body.data;
    // The deleted note is no note anyone reads: neither listed nor counted.
    expect(list.map((n) => [n.labNoteNo, n.requests.length])).toEqual([
      [untouched, 0],
      [allStates, 4],
    ]);
    expect(totalCount).toBe(2);
    expect(counts).toEqual({ waiting: 1, signed: 1, declined: 1, cancelled: 0, removed: 1 });
    expect(list[1]?.requests.map((r) => r.state)).toEqual(['signed', 'declined', 'waiting', 'removed']);
  });

  it('filters by state ("waiting only": the notes with a waiting request, and only those requests) and pages by note', async () => {
    const waiting = (await projectOverview(leader, { projectNo, status: 'waiting' })).body.data;
    expect(waiting.totalCount).toBe(1);
    expect(waiting.list.map((n) => [n.labNoteNo, n.requests.map((r) => [r.signer.name, r.reminder?.allowed])])).toEqual([
      [allStates, [['Waiter Wang', true]]],
    ]);
    // The counts stay those of the whole project, for the filter's choices.
    expect(waiting.counts.signed).toBe(1);
    const page2 = (await projectOverview(leader, { projectNo, page: 2, pageSize: 1 })).body.data;
    expect([page2.totalCount, page2.list.map((n) => n.labNoteNo)]).toEqual([2, [allStates]]);
    const closed = (await projectOverview(leader, { projectNo: closedProjectNo, status: 'cancelled' })).body.data;
    expect(closed.list.map((n) => [n.labNoteNo, n.requests.map((r) => r.state)])).toEqual([[cancelledNote, ['cancelled']]]);
    expect(closed.counts).toEqual({ waiting: 0, signed: 1, declined: 0, cancelled: 1, removed: 0 });
  });

  it('is refused to those who may not read the project (9002), and checks its input', async () => {
    const hidden = await projectOverview(outsider, { projectNo });
    expect([hidden.http, hidden.body.status]).toEqual([404, ERR.notFound]);
    expect((await projectOverview(admin, { projectNo })).body.data.totalCount).toBe(2);
    const bad = await projectOverview(leader, { projectNo, status: 'late', pageSize: 500 });
    expect(bad.http).toBe(400);
    expect(bad.body.status).toBe(ERR.validation);
  });
});

const addressesOf = (mail: ParsedMail) =>
  [mail.to]
    .flat()
    .filter((to): to is AddressObject => to !== undefined)
    .flatMap((to) => to.value.map((address) => address.address));

describe('a reminder', () => {
  let waiting: SignatureRequestOverview;
  beforeEach(async () => {
    await server.services.mailOutbox.flush();
    smtp.reset();
    waiting = requestOf(await overviewOf(writer, allStates), waiter);
  });

  it('is refused to others than the requester and the leader, to the signer, and for requests not waiting', async () => {
    expect((await remind(reviewer, allStates, waiting.signatureId)).body).toMatchObject({ status: ERR.reminderNotAllowed });
    expect((await remind(reviewer, allStates, waiting.signatureId)).http).toBe(403);
    expect((await remind(waiter, allStates, waiting.signatureId)).body.status).toBe(ERR.reminderNotAllowed);
    expect((await remind(outsider, allStates, waiting.signatureId)).body.status).toBe(ERR.noteMissing);
    const note = await overviewOf(writer, allStates);
    for (const answered of [reviewer, colleague, extra])
      expect((await remind(writer, allStates, requestOf(note, answered).signatureId)).body.status).toBe(ERR.reminderNotWaiting);
    // A request of another note, named with this note, is none of this note's.
    expect((await remind(writer, untouched, waiting.signatureId)).body.status).toBe(ERR.reminderNotWaiting);
    expect((await remind(writer, allStates, 0)).http).toBe(400);
    // Nothing was sent, recorded or audited.
    expect(await server.database.db.select().from(signatureReminders)).toEqual([]);
  });

  it('by the requester notifies the signer in the app and by mail, is audited, and then waits a day (4961 says until when)', async () => {
    const sent = await remind(writer, allStates, waiting.signatureId);
    expect(sent.body.status).toBe('0000');
    const { remindedAt, nextAt } = sent.body.data;
    expect(Date.parse(nextAt) - Date.parse(remindedAt)).toBe(24 * 3_600_000);

    // The signer hears of it in the app…
    const bell = (await waiter.call(api.notifications.list, { page: 1, pageSize: 20 })).body.data.list;
    expect(bell.filter((n) => n.event === 'signatureReminder')).toMatchObject([
      { actorName: 'Writer Woo', note: { labNoteNo: allStates }, meaning: 'participant', link: `/note/${allStates}` },
    ]);
    // …and by mail (the default for this event), in their language, with the link back.
    await server.services.mailOutbox.flush();
    const mails = smtp.received.filter((mail) => addressesOf(mail).includes(waiter.user.userId));
    expect(mails).toHaveLength(1);
    const [number] = await server.database.db.select({ n: labNotes.labNoteNumber }).from(labNotes).where(eq(labNotes.noteNo, allStates));
    expect(mails[0]?.subject).toBe(`리마인더: Writer Woo님이 노트 All states (${number?.n})에 대한 참여자 서명을 기다리고 있습니다`);
    expect(mails[0]?.text).toContain(`${PUBLIC_URL}/note/${allStates}`);

    const [record] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(record).toMatchObject({
      action: 'signature.reminded',
      actorUserId: writer.user.userId,
      targetType: 'note',
      targetId: String(allStates),
      after: { signatureId: waiting.signatureId, signer: waiter.user.userId, meaning: 'participant', previousReminder: null },
    });

    // Within the day, even the leader is refused, told from when the next is possible.
    const again = await leader.call(
      api.signatureOverview.remind,
      { labNoteNo: allStates, signatureId: waiting.signatureId },
      { language: 'en' },
    );
    expect([again.http, again.body.status]).toEqual([429, ERR.reminderTooSoon]);
    expect(again.body.data).toMatchObject({ nextAt, lastAt: remindedAt });
    expect(again.body.message).toMatch(/less than 24 hours ago\. The next one can be sent from \d{4}-\d{2}-\d{2} \d{2}:\d{2} /);
    const inKorean = await leader.call(
      api.signatureOverview.remind,
      { labNoteNo: allStates, signatureId: waiting.signatureId },
      { language: 'ko' },
    );
    expect(inKorean.body.message).toContain('다음 리마인더는');
    expect(await server.database.db.select().from(signatureReminders)).toHaveLength(1);

    // The overview says so: one reminder, by whom, and the button's time.
    expect(requestOf(await overviewOf(leader, allStates), waiter)).toMatchObject({
      reminders: { count: 1, lastAt: remindedAt, lastBy: { userId: writer.user.userId, name: 'Writer Woo' } },
      reminder: { allowed: false, nextAt },
    });
  });

  it('by the leader, once the day has passed since the last one', async () => {
    // The last reminder moved a day and a minute back, as if sent then.
    const [last] = await server.database.db.select().from(signatureReminders).orderBy(desc(signatureReminders.remindedAt)).limit(1);
    expect(last).toBeDefined();
    await server.database.db
      .update(signatureReminders)
      .set({ remindedAt: new Date(last!.remindedAt.getTime() - 24 * 3_600_000 - 60_000) })
      .where(eq(signatureReminders.reminderId, last!.reminderId));
    expect(requestOf(await overviewOf(leader, allStates), waiter).reminder).toEqual({ allowed: true, nextAt: null });
    expect((await remind(leader, allStates, waiting.signatureId)).body.status).toBe('0000');
    const after = requestOf(await overviewOf(writer, allStates), waiter);
    expect(after.reminders).toMatchObject({ count: 2, lastBy: { name: 'Leader Lee' } });
    const bell = (await waiter.call(api.notifications.list, { page: 1, pageSize: 20 })).body.data.list;
    expect(bell.filter((n) => n.event === 'signatureReminder').map((n) => n.actorName)).toEqual(['Leader Lee', 'Writer Woo']);
  });
});
