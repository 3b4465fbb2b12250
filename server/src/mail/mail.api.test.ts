import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { desc, eq, inArray } from 'drizzle-orm';
import type { AddressObject, ParsedMail } from 'mailparser';
import { api, ERR, MAIL_LIMITS, type Language, type NotificationChoices } from '@eln/shared';
import { auditLog, labNotes, mailOutbox, users, userSettings } from '../db/schema.js';
import { notify, type NotificationDraft } from '../notifications/notify.js';
import { startTestServer, type Caller, type NewUser, type TestServer } from '../testing/harness.js';
import { TestSmtpServer } from '../testing/smtp.js';
import { MailOutbox } from './outbox.js';

/*
 * The mail outbox against a real SMTP server on loopback: each notification chosen by email is one mail in
 * its recipient's language with a plain-text and an HTML part and a link back; tries that the server
 * refuses wait longer each time and end `failed`, shown to administrators, who send them again; two
 * senders never send one mail twice. The clock is the outbox's own (injected), moved forward by the tests.
 */

const PUBLIC_URL = 'https://eln.lab.example';
let smtp: TestSmtpServer;
let server: TestServer;
let clockOffsetMs = 0;
const now = () => new Date(Date.now() + clockOffsetMs);
const later = (ms: number) => (clockOffsetMs += ms);

type Person = NewUser & { userNo: number };
let writer: Person;
let leader: Person;
let readers: Record<Language | 'unset', Person>;
let admin: Caller;
let projectNo: number;
let noteNo: number;
let labNoteNumber: string;
const NOTE_TITLE = 'Buffer <prep> & "salts"';

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  // No poll of its own during the tests: each pass is asked for (flush), on the tests' clock.
  server = await startTestServer({ config: { smtpUrl: smtp.url, publicUrl: PUBLIC_URL }, mail: { now, pollMs: 3_600_000 } });
  leader = await server.createUser({ name: 'Leader Lee' });
  writer = await server.createUser({ name: 'Writer Woo' });
  readers = {
    ko: await server.createUser({ name: 'Reader Kim' }),
    en: await server.createUser({ name: 'Reader Evans' }),
    ja: await server.createUser({ name: 'Reader Sato' }),
    unset: await server.createUser({ name: 'Reader Unset' }),
  };
  for (const language of ['ko', 'en', 'ja'] as const)
    await server.database.db.insert(userSettings).values({ userNo: readers[language].userNo, language });
  admin = await server.as(server.admin);
  const lead = await server.as(leader);
  projectNo = (
    await lead(api.projects.create, {
      title: 'Mailed project',
      signatureList: { department: '', user: [writer, ...Object.values(readers)].map((p) => p.userId).join(',') },
    })
  ).body.data.projectNo;
  noteNo = (await (await server.as(writer))(api.notes.create, { projectNo, title: NOTE_TITLE })).body.data.labNoteNo;
  labNoteNumber = (await server.database.db.select().from(labNotes).where(eq(labNotes.noteNo, noteNo)))[0]!.labNoteNumber;
});

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

beforeEach(async () => {
  await server.services.mailOutbox.flush();
  smtp.reset();
});

const recordNotifications = (draft: Omit<NotificationDraft, 'projectNo' | 'noteNo'> & Partial<NotificationDraft>) =>
  server.database.db.transaction((tx) => notify(tx, { projectNo, noteNo, ...draft }));

const signatureRequested = (recipients: Person[]) =>
  recordNotifications({
    event: 'signatureRequested',
    recipients: recipients.map((p) => p.userNo),
    actorUserNo: writer.userNo,
    payload: { meaning: 'reviewer' },
  });

const outboxOf = async (notificationIds: number[]) =>
  server.database.db.select().from(mailOutbox).where(inArray(mailOutbox.notificationId, notificationIds));

const addressesOf = (mail: ParsedMail) =>
  [mail.to]
    .flat()
    .filter((to): to is AddressObject => to !== undefined)
    .flatMap((to) => to.value.map((address) => address.address));
const mailTo = (person: Person) => {
  const found = smtp.received.filter((mail) => addressesOf(mail).includes(person.userId));
  expect(found, `mails to ${person.name}`).toHaveLength(1);
  return found[0]!;
};

describe('a notification chosen by email', () => {
  it('is one mail to each recipient in their language: the event’s sentence as subject, text and HTML parts, a link back, the footer', async () => {
    const recorded = await signatureRequested(Object.values(readers));
    expect(recorded).toHaveLength(4);
    await server.services.mailOutbox.flush();
    expect(smtp.received).toHaveLength(4);

    const link = `${PUBLIC_URL}/note/${noteNo}`;
    const note = `${NOTE_TITLE} (${labNoteNumber})`;
    const expected: Record<Language | 'unset', { subject: string; lang: Language; open: string }> = {
      ko: { subject: `Writer Woo님이 노트 ${note}에 검토자 서명을 요청했습니다`, lang: 'ko', open: '실험노트에서 열기:' },
      en: { subject: `Writer Woo asked you to sign note ${note} as Reviewer`, lang: 'en', open: 'Open it in the lab notebook:' },
      ja: {
        subject: `Writer Wooさんが実験ノート ${note} へのレビュアーとしての署名を依頼しました`,
        lang: 'ja',
        open: '電子実験ノートで開く:',
      },
      // No language chosen: the notebook's default.
      unset: { subject: `Writer Woo asked you to sign note ${note} as Reviewer`, lang: 'en', open: 'Open it in the lab notebook:' },
    };
    const rows = await outboxOf(recorded.map((n) => n.notificationId));
    for (const [who, wanted] of Object.entries(expected) as Array<[Language | 'unset', (typeof expected)['ko']]>) {
      const mail = mailTo(readers[who]);
      expect(mail.subject).toBe(wanted.subject);
      expect(mail.from?.value).toEqual([{ name: 'ELN', address: 'no-reply@eln.local' }]);
      expect(mail.headers.get('content-language')).toBe(wanted.lang);
      expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
      // The plain-text part: the sentence, the link back, and where the choices are changed.
      expect(mail.text).toContain(wanted.subject);
      expect(mail.text).toContain(`${wanted.open}\n${link}`);
      expect(mail.text).toContain(`${PUBLIC_URL}/account`);
      // The HTML part says the same, every name escaped.
      const html = String(mail.html);
      expect(html).toContain(`<html lang="${wanted.lang}">`);
      expect(html).toContain(`<a href="${link}">${link}</a>`);
      expect(html).toContain(`<a href="${PUBLIC_URL}/account">`);
      expect(html).toContain('Buffer &lt;prep&gt; &amp;');
      expect(html).not.toContain('<prep>');
      // Sent under the Message-ID the outbox keeps for it.
      const row = rows.find((r) => r.userNo === readers[who].userNo)!;
      expect(row).toMatchObject({ status: 'sent', attempts: 1, kind: 'notification', lastError: null });
      expect(row.sentAt).not.toBeNull();
      expect(mail.messageId).toBe(row.messageId);
      expect(row.messageId).toMatch(/^<eln\.\d+\.[0-9a-f]{32}@eln\.lab\.example>$/);
    }
    // Nothing is sent twice: another pass finds nothing due.
    await server.services.mailOutbox.flush();
    expect(smtp.delivered).toHaveLength(4);
  });

  it('names the system when no one did it, and fills the payload’s count and file', async () => {
    const recorded = await recordNotifications({
      event: 'usersDeactivated',
      recipients: [(await server.database.db.select().from(users).where(eq(users.userId, server.admin.userId)))[0]!.userNo],
      actorUserNo: null,
      projectNo: null,
      noteNo: null,
      payload: { count: 3 },
    });
    expect(recorded).toHaveLength(1);
    await server.services.mailOutbox.flush();
    expect(smtp.received.map((mail) => mail.subject)).toEqual(['Directory synchronisation deactivated 3 people']);
    expect(smtp.received[0]!.text).toContain(`${PUBLIC_URL}/admin\n`);
  });
});

describe('what is not mailed', () => {
  it('sends nothing for an event chosen without email, by the person or by default', async () => {
    const quiet = await server.createUser({ name: 'Quiet Q' });
    const choices: NotificationChoices = { signatureRequested: { app: true, email: false } };
    await server.database.db.insert(userSettings).values({ userNo: quiet.userNo, notificationChoices: choices });
    const requested = await signatureRequested([quiet]);
    // noteSigned is not mailed unless chosen (shared DEFAULT_NOTIFICATION_CHOICES).
    const signed = await recordNotifications({
      event: 'noteSigned',
      recipients: [readers.en.userNo],
      actorUserNo: writer.userNo,
      payload: { meaning: 'participant' },
    });
    expect([...requested, ...signed]).toHaveLength(2);
    expect(await outboxOf([...requested, ...signed].map((n) => n.notificationId))).toEqual([]);
    await server.services.mailOutbox.flush();
    expect(smtp.delivered).toEqual([]);
  });

  it('withholds a mail whose recipient may no longer read its note, or was deactivated, when it is to be sent', async () => {
    const leaving = await server.createUser({ name: 'Leaving Lim' });
    const deactivated = await server.createUser({ name: 'Gone Go' });
    const staying = readers.en;
    const lead = await server.as(leader);
    const everyone = [writer, ...Object.values(readers), leaving, deactivated];
    expect(
      (await lead(api.projects.update, { projectNo, signatureList: { department: '', user: everyone.map((p) => p.userId).join(',') } }))
        .body.status,
    ).toBe('0000');
    const recorded = await signatureRequested([leaving, deactivated, staying]);
    // After the commit, before the send: one leaves the project, one is deactivated.
    const remaining = everyone.filter((p) => p !== leaving);
    await lead(api.projects.update, { projectNo, signatureList: { department: '', user: remaining.map((p) => p.userId).join(',') } });
    await server.database.db.update(users).set({ active: false }).where(eq(users.userNo, deactivated.userNo));
    await server.services.mailOutbox.flush();

    expect(smtp.received.flatMap(addressesOf)).toEqual([staying.userId]);
    const rows = await outboxOf(recorded.map((n) => n.notificationId));
    const statusOf = (person: Person) => rows.find((row) => row.userNo === person.userNo);
    expect(statusOf(leaving)).toMatchObject({
      status: 'withheld',
      lastError: 'not sent: the recipient may no longer read what it tells of',
    });
    expect(statusOf(deactivated)).toMatchObject({ status: 'withheld', lastError: 'not sent: the recipient is deactivated' });
    expect(statusOf(staying)).toMatchObject({ status: 'sent' });
    // A withheld mail is not offered again.
    expect((await admin(api.mail.retry, { mailId: statusOf(leaving)!.mailId })).body.status).toBe(ERR.mailNotFailed);
  });

  it('tells a member of no directory synchronisation: only administrators may read of it', async () => {
    const recorded = await recordNotifications({
      event: 'usersDeactivated',
      recipients: [readers.ko.userNo],
      actorUserNo: null,
      projectNo: null,
      noteNo: null,
      payload: { count: 1 },
    });
    await server.services.mailOutbox.flush();
    expect(smtp.delivered).toEqual([]);
    expect(await outboxOf(recorded.map((n) => n.notificationId))).toMatchObject([{ status: 'withheld' }]);
  });
});

describe('a refused send', () => {
  it('is tried again after a wait that doubles (451), under the same Message-ID, until the server takes it', async () => {
    smtp.refuseNext(2, 451, 'Greylisted, try again later');
    const [recorded] = await signatureRequested([readers.en]);
    const rowOf = async () => (await outboxOf([recorded!.notificationId]))[0]!;

    const firstTry = now().getTime();
    await server.services.mailOutbox.flush();
    let row = await rowOf();
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.lastError).toContain('451');
    expect(row.lastError).toContain('Greylisted');
    const firstWait = row.nextAttemptAt.getTime() - firstTry;
    expect(firstWait).toBeGreaterThanOrEqual(MAIL_LIMITS.retryBaseSeconds * 1000);
    expect(firstWait).toBeLessThan(MAIL_LIMITS.retryBaseSeconds * 1000 + 5_000);

    // Not due before its time: nothing is tried.
    later(MAIL_LIMITS.retryBaseSeconds * 1000 - 5_000);
    await server.services.mailOutbox.flush();
    expect(smtp.delivered).toHaveLength(1);

    later(6_000);
    const secondTry = now().getTime();
    await server.services.mailOutbox.flush();
    row = await rowOf();
    expect(row).toMatchObject({ status: 'pending', attempts: 2 });
    const secondWait = row.nextAttemptAt.getTime() - secondTry;
    expect(secondWait).toBeGreaterThanOrEqual(2 * MAIL_LIMITS.retryBaseSeconds * 1000);
    expect(secondWait).toBeLessThan(2 * MAIL_LIMITS.retryBaseSeconds * 1000 + 5_000);

    later(2 * MAIL_LIMITS.retryBaseSeconds * 1000 + 1_000);
    await server.services.mailOutbox.flush();
    row = await rowOf();
    expect(row).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.delivered).toEqual([row.messageId, row.messageId, row.messageId]);
  });

  it('fails at once when the server refuses the recipient for good (550 to RCPT TO)', async () => {
    smtp.unknownRecipients.add(readers.ja.userId);
    const [recorded] = await signatureRequested([readers.ja]);
    await server.services.mailOutbox.flush();
    const [row] = await outboxOf([recorded!.notificationId]);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row!.lastError).toContain('550');
  });
});

describe('a mail that keeps failing', () => {
  let failedMailId: number;

  it(`ends failed after ${MAIL_LIMITS.maxAttempts} tries, with the last error`, async () => {
    smtp.answerAll({ kind: 'refuse', code: 451, text: 'Mailbox busy' });
    const [recorded] = await signatureRequested([readers.ko]);
    for (let attempt = 1; attempt <= MAIL_LIMITS.maxAttempts; attempt += 1) {
      await server.services.mailOutbox.flush();
      later(MAIL_LIMITS.retryMaxSeconds * 1000 + 1_000);
    }
    await server.services.mailOutbox.flush();
    const [row] = await outboxOf([recorded!.notificationId]);
    expect(row).toMatchObject({ status: 'failed', attempts: MAIL_LIMITS.maxAttempts });
    expect(row!.lastError).toContain('Mailbox busy');
    expect(smtp.delivered).toHaveLength(MAIL_LIMITS.maxAttempts);
    expect(new Set(smtp.delivered)).toEqual(new Set([row!.messageId]));
    failedMailId = row!.mailId;
  });

  it('is listed for administrators with its recipient, event, tries and last error; members are refused', async () => {
    const listed = await admin(api.mail.list, { status: 'failed' });
    expect(listed.body.status).toBe('0000');
    expect(listed.body.data.failedCount).toBeGreaterThanOrEqual(1);
    expect(listed.body.data.list.every((mail) => mail.status === 'failed')).toBe(true);
    const mail = listed.body.data.list.find((m) => m.mailId === failedMailId);
    expect(mail).toMatchObject({
      kind: 'notification',
      status: 'failed',
      recipient: { userNo: readers.ko.userNo, userId: readers.ko.userId, name: 'Reader Kim', active: true },
      event: 'signatureRequested',
      notificationCount: 1,
      attempts: MAIL_LIMITS.maxAttempts,
      nextAttemptAt: null,
      sentAt: null,
      abilities: { retry: true },
    });
    expect(mail!.lastError).toContain('451');
    // Every status, newest first; pages hold what they say.
    const all = await admin(api.mail.list, { page: 1, pageSize: 3 });
    expect(all.body.data.list).toHaveLength(3);
    expect(all.body.data.totalCount).toBeGreaterThan(3);
    const ids = all.body.data.list.map((m) => m.mailId);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const member = await server.as(readers.en);
    expect((await member(api.mail.list, {})).http).toBe(403);
    expect((await member(api.mail.list, {})).body.status).toBe(ERR.forbidden);
    expect((await member(api.mail.retry, { mailId: failedMailId })).http).toBe(403);
    expect((await admin(api.mail.list, { status: 'lost' })).http).toBe(400);
    const [row] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.mailId, failedMailId));
    expect(row).toMatchObject({ status: 'failed' });
  });

  it('is sent again when an administrator asks (audited), and only a failed one', async () => {
    smtp.answerAll({ kind: 'accept' });
    expect((await admin(api.mail.retry, { mailId: 987_654_321 })).body.status).toBe(ERR.mailMissing);
    const retried = await admin(api.mail.retry, { mailId: failedMailId });
    expect(retried.body.status).toBe('0000');
    expect(retried.body.data.mail).toMatchObject({
      mailId: failedMailId,
      status: expect.stringMatching(/^(pending|sending|sent)$/),
      abilities: { retry: false },
    });
    const [audit] = await server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'mail.retried'))
      .orderBy(desc(auditLog.seq))
      .limit(1);
    expect(audit).toMatchObject({
      targetType: 'mail',
      targetId: String(failedMailId),
      before: { status: 'failed', attempts: MAIL_LIMITS.maxAttempts },
    });
    await server.services.mailOutbox.flush();
    const [row] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.mailId, failedMailId));
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    expect(smtp.received.map((mail) => mail.messageId)).toEqual([row!.messageId]);
    // Sent: nothing to send again.
    const again = await admin(api.mail.retry, { mailId: failedMailId });
    expect(again.http).toBe(409);
    expect(again.body.status).toBe(ERR.mailNotFailed);
  });
});

describe('several senders', () => {
  it('hand a mail held past its lease to another sender: the first cannot mark it, both tries carry one Message-ID', async () => {
    const deps = { db: server.database.db, mailer: server.services.mailer, log: server.app.log, publicUrl: PUBLIC_URL, timeZone: 'UTC' };
    const slow = new MailOutbox(deps, { now, leaseMs: 1_000 });
    const [recorded] = await signatureRequested([readers.en]);
    smtp.answerAll({ kind: 'stall' });
    const slowPass = slow.flush();
    await smtp.waitForDelivered(1);
    // The lease has run out (on the second sender's clock): it takes the mail over and the server takes it.
    smtp.answerAll({ kind: 'accept' });
    const other = new MailOutbox(deps, { now: () => new Date(now().getTime() + 2_000) });
    await other.flush();
    const [taken] = await outboxOf([recorded!.notificationId]);
    expect(taken).toMatchObject({ status: 'sent', attempts: 2 });
    // The slow server answers the first try at last: its sender no longer holds the mail and changes nothing.
    smtp.acceptHeld();
    await slowPass;
    await Promise.all([slow.stop(), other.stop()]);
    const [after] = await outboxOf([recorded!.notificationId]);
    expect(after).toEqual(taken);
    expect(smtp.messageIds()).toEqual([taken!.messageId, taken!.messageId]);
  });

  it('never send one mail twice: two more senders on the same database share the due mails', async () => {
    const people = await Promise.all(Array.from({ length: 6 }, (_, i) => server.createUser({ name: `Crowd ${i}` })));
    const participants = [writer, ...Object.values(readers), ...people].map((p) => p.userId).join(',');
    await (
      await server.as(leader)
    )(api.projects.update, { projectNo, signatureList: { department: '', user: participants } });
    const recorded: number[] = [];
    for (let round = 0; round < 5; round += 1) recorded.push(...(await signatureRequested(people)).map((n) => n.notificationId));
    expect(recorded).toHaveLength(30);
    const deps = { db: server.database.db, mailer: server.services.mailer, log: server.app.log, publicUrl: PUBLIC_URL, timeZone: 'UTC' };
    const senders = [new MailOutbox(deps, { now, batch: 2 }), new MailOutbox(deps, { now, batch: 3 })];
    await Promise.all([...senders.map((sender) => sender.flush()), server.services.mailOutbox.flush()]);
    await Promise.all(senders.map((sender) => sender.stop()));
    const rows = await outboxOf(recorded);
    expect(rows.map((row) => row.status)).toEqual(Array(30).fill('sent'));
    expect(smtp.delivered).toHaveLength(30);
    expect(new Set(smtp.delivered)).toEqual(new Set(rows.map((row) => row.messageId)));
    expect(rows.every((row) => row.attempts === 1)).toBe(true);
  });
});
