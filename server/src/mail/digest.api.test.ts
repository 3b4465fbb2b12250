import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import type { AddressObject, ParsedMail } from 'mailparser';
import { api } from '@eln/shared';
import { labNotes, mailOutbox, notifications, userSettings } from '../db/schema.js';
import { notify, type NotificationDraft } from '../notifications/notify.js';
import { startTestServer, type NewUser, type TestServer } from '../testing/harness.js';
import { TestSmtpServer } from '../testing/smtp.js';
import { lastDigestMoment } from './digestTime.js';
import { makeDueDigests } from './digests.js';

/*
 * The daily digest: at the time a person chose, in their zone (else the server's), once a day, one mail
 * gathering what they chose to hear of by email since the last one, newest first. The outbox's clock is
 * injected and moved to the minutes around that time.
 */

const PUBLIC_URL = 'https://eln.lab.example';
const SERVER_ZONE = 'America/New_York';
const MINUTE = 60_000;
const DAY = 86_400_000;
let smtp: TestSmtpServer;
let server: TestServer;
let clock = 0;
const now = () => new Date(clock || Date.now());
const flush = () => server.services.mailOutbox.flush();

type Person = NewUser & { userNo: number };
let leader: Person;
let writer: Person;
let kim: Person;
let park: Person;
let evans: Person;
let projectNo: number;
let otherProjectNo: number;
const notes: Record<'first' | 'second' | 'other', { no: number; number: string; title: string }> = {} as never;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  server = await startTestServer({
    config: { smtpUrl: smtp.url, publicUrl: PUBLIC_URL, timeZone: SERVER_ZONE },
    mail: { now, pollMs: 3_600_000 },
  });
  leader = await server.createUser({ name: 'Leader Lee' });
  writer = await server.createUser({ name: 'Writer Woo' });
  kim = await server.createUser({ name: 'Kim Digest' });
  park = await server.createUser({ name: 'Park Switch' });
  evans = await server.createUser({ name: 'Evans Zone' });
  await server.database.db.insert(userSettings).values([
    { userNo: kim.userNo, language: 'ko', timeZone: 'Asia/Seoul', digestEnabled: true, digestTime: '08:00' },
    { userNo: park.userNo, language: 'en', timeZone: 'Asia/Seoul', digestEnabled: false, digestTime: '08:00' },
    // No zone of his own: the server's.
    { userNo: evans.userNo, language: 'en', digestEnabled: false, digestTime: '18:30' },
  ]);
  const lead = await server.as(leader);
  const everyone = { department: '', user: [writer, kim, park, evans].map((p) => p.userId).join(',') };
  projectNo = (await lead(api.projects.create, { title: 'Digest project', signatureList: everyone })).body.data.projectNo;
  otherProjectNo = (await lead(api.projects.create, { title: 'Left project', signatureList: everyone })).body.data.projectNo;
  const write = await server.as(writer);
  for (const [key, title, project] of [
    ['first', 'Cell counts', projectNo],
    ['second', 'Lysis <buffer>', projectNo],
    ['other', 'Secret assay', otherProjectNo],
  ] as const) {
    const no = (await write(api.notes.create, { projectNo: project, title })).body.data.labNoteNo;
    const [row] = await server.database.db.select().from(labNotes).where(eq(labNotes.noteNo, no));
    notes[key] = { no, number: row!.labNoteNumber, title };
  }
});

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

beforeEach(() => {
  clock = 0;
  smtp.reset();
});

const record = (draft: Omit<NotificationDraft, 'actorUserNo'>) =>
  server.database.db.transaction((tx) => notify(tx, { actorUserNo: writer.userNo, ...draft }));

const toOf = (mail: ParsedMail) =>
  [mail.to]
    .flat()
    .filter((to): to is AddressObject => to !== undefined)
    .flatMap((to) => to.value.map((address) => address.address));
const mailsTo = (person: Person) => smtp.received.filter((mail) => toOf(mail).includes(person.userId));
const digestsOf = (person: Person) =>
  server.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.userNo, person.userNo), eq(mailOutbox.kind, 'digest')));
const sentUpTo = async (person: Person) =>
  (await server.database.db.select().from(userSettings).where(eq(userSettings.userNo, person.userNo)))[0]!.digestSentUpTo;

/** The next 08:00 in Seoul after now: the notifications recorded now are that digest's. */
const nextSeoulMorning = () => new Date(lastDigestMoment(new Date(), 'Asia/Seoul', '08:00').getTime() + DAY);

describe('the daily digest at 08:00 in Asia/Seoul', () => {
  let morning: Date;
  let gathered: number[];

  it('queues no mail of its own for each notification of a person who takes the digest', async () => {
    morning = nextSeoulMorning();
    // Park still hears at once: his mail is sent before he takes the digest, and is not in it.
    const [alone] = await record({
      event: 'signatureRequested',
      recipients: [park.userNo],
      projectNo,
      noteNo: notes.first.no,
      payload: { meaning: 'participant' },
    });
    await flush();
    expect(mailsTo(park)).toHaveLength(1);
    await server.database.db.update(userSettings).set({ digestEnabled: true }).where(eq(userSettings.userNo, park.userNo));

    const recorded = [
      ...(await record({
        event: 'signatureRequested',
        recipients: [kim.userNo, park.userNo],
        projectNo,
        noteNo: notes.first.no,
        payload: { meaning: 'reviewer' },
      })),
      ...(await record({
        event: 'signatureRemoved',
        recipients: [kim.userNo],
        projectNo,
        noteNo: notes.second.no,
        payload: { meaning: 'participant', reason: 'wrong version' },
      })),
      ...(await record({
        event: 'signatureRequested',
        recipients: [kim.userNo],
        projectNo: otherProjectNo,
        noteNo: notes.other.no,
        payload: { meaning: 'reviewer' },
      })),
      ...(await record({ event: 'mentioned', recipients: [kim.userNo], projectNo, noteNo: notes.second.no })),
    ];
    gathered = recorded.filter((n) => n.userNo === kim.userNo).map((n) => n.notificationId);
    expect(gathered).toHaveLength(4);
    const queued = await server.database.db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.notificationId, [...recorded.map((n) => n.notificationId), alone!.notificationId]));
    expect(queued.map((row) => row.userNo)).toEqual([park.userNo]);
    await flush();
    expect(smtp.delivered).toHaveLength(1);
  });

  it('sends nothing before the time: the day before’s digest, made at once, is empty', async () => {
    clock = morning.getTime() - MINUTE;
    await flush();
    expect(smtp.delivered).toEqual([]);
    expect(await digestsOf(kim)).toEqual([]);
    expect((await sentUpTo(kim))?.toISOString()).toBe(new Date(morning.getTime() - DAY).toISOString());
    // Just after 08:00 it waits a minute, for changes that began before 08:00 to commit.
    clock = morning.getTime() + 30_000;
    await flush();
    expect(smtp.delivered).toEqual([]);
  });

  it('gathers everything since into one mail in the person’s language and zone, leaving out what they may no longer read', async () => {
    // Kim leaves the other project before the digest is sent: its note is not told of.
    const lead = await server.as(leader);
    await lead(api.projects.update, {
      projectNo: otherProjectNo,
      signatureList: { department: '', user: [writer, park, evans].map((p) => p.userId).join(',') },
    });
    clock = morning.getTime() + 61_000;
    // Three processes at once make one digest each person and day.
    const made = await Promise.all([1, 2, 3].map(() => makeDueDigests(server.database.db, now(), SERVER_ZONE)));
    expect(made.reduce((a, b) => a + b, 0)).toBe(2);
    await flush();

    const [digest] = await digestsOf(kim);
    expect(await digestsOf(kim)).toHaveLength(1);
    expect(digest).toMatchObject({ kind: 'digest', status: 'sent', notificationId: null });
    expect(digest!.notificationIds).toEqual([...gathered].reverse());
    expect((await sentUpTo(kim))?.toISOString()).toBe(morning.toISOString());

    const [mail] = mailsTo(kim);
    expect(mailsTo(kim)).toHaveLength(1);
    expect(mail!.subject).toBe('실험노트: 지난 요약 이후 알림 3건');
    expect(mail!.messageId).toBe(digest!.messageId);
    const text = mail!.text ?? '';
    const lines = [
      `Writer Woo님이 노트 ${notes.second.title} (${notes.second.number})에서 나를 언급했습니다`,
      `Writer Woo님이 내 노트 ${notes.second.title} (${notes.second.number})의 참여자 서명을 삭제했습니다: wrong version`,
      `Writer Woo님이 노트 ${notes.first.title} (${notes.first.number})에 검토자 서명을 요청했습니다`,
    ];
    // Newest first, each with its link back.
    const positions = lines.map((line) => text.indexOf(line));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(text).toContain(`${PUBLIC_URL}/note/${notes.second.no}`);
    expect(text).toContain(`${PUBLIC_URL}/note/${notes.first.no}`);
    expect(text).not.toContain(notes.other.title);
    expect(text).toContain(`${PUBLIC_URL}/account`);
    // Times in Seoul's zone.
    expect(text).toMatch(/- \d{4}-\d\d-\d\d \d\d:\d\d GMT\+9/);
    const html = String(mail!.html);
    expect(html).toContain('Lysis &lt;buffer&gt;');
    expect(html).not.toContain('<buffer>');
    expect(html).toContain(`<a href="${PUBLIC_URL}/note/${notes.first.no}">`);

    // Park's digest holds only what was not mailed to him at once.
    expect(mailsTo(park)).toHaveLength(1);
    expect(mailsTo(park)[0]!.subject).toBe('Your lab notebook: 1 notification since the last summary');
  });

  it('is made once a day: no second digest the same day, the next day only what came after', async () => {
    clock = morning.getTime() + 10 * MINUTE;
    await flush();
    expect(smtp.delivered).toEqual([]);

    const [late] = await record({
      event: 'signatureRequested',
      recipients: [kim.userNo],
      projectNo,
      noteNo: notes.second.no,
      payload: { meaning: 'participant' },
    });
    // Recorded after this morning's digest (the tests' clock runs ahead of the database's).
    await server.database.db
      .update(notifications)
      .set({ createdAt: new Date(morning.getTime() + 2 * 3_600_000) })
      .where(eq(notifications.notificationId, late!.notificationId));
    clock = morning.getTime() + DAY - MINUTE;
    await flush();
    expect(smtp.delivered).toEqual([]);
    clock = morning.getTime() + DAY + 61_000;
    await flush();
    expect(mailsTo(kim).map((mail) => mail.subject)).toEqual(['실험노트: 지난 요약 이후 알림 1건']);
    expect(await digestsOf(kim)).toHaveLength(2);

    // A day with nothing: no mail, and the next digest starts from that day's time.
    smtp.reset();
    clock = morning.getTime() + 2 * DAY + 61_000;
    await flush();
    expect(smtp.delivered).toEqual([]);
    expect(await digestsOf(kim)).toHaveLength(2);
    expect((await sentUpTo(kim))?.toISOString()).toBe(new Date(morning.getTime() + 2 * DAY).toISOString());
  });
});

describe('a person with no zone of their own', () => {
  it('gets the digest at their time in the server’s zone (TIME_ZONE)', async () => {
    await server.database.db.update(userSettings).set({ digestEnabled: true }).where(eq(userSettings.userNo, evans.userNo));
    await record({
      event: 'signatureRequested',
      recipients: [evans.userNo],
      projectNo,
      noteNo: notes.first.no,
      payload: { meaning: 'reviewer' },
    });
    const evening = new Date(lastDigestMoment(new Date(), SERVER_ZONE, '18:30').getTime() + DAY);
    const hours = new Intl.DateTimeFormat('en-GB', { timeZone: SERVER_ZONE, hour: '2-digit', minute: '2-digit' }).format(evening);
    expect(hours).toBe('18:30');
    clock = evening.getTime() - MINUTE;
    await flush();
    expect(mailsTo(evans)).toEqual([]);
    clock = evening.getTime() + 61_000;
    await flush();
    expect(mailsTo(evans).map((mail) => mail.subject)).toEqual(['Your lab notebook: 1 notification since the last summary']);
    expect(mailsTo(evans)[0]!.text).toContain(`Writer Woo asked you to sign note ${notes.first.title} (${notes.first.number}) as Reviewer`);
  });
});
