import { eq } from 'drizzle-orm';
import { api, MAIL_LIMITS } from '@eln/shared';
import { expect, test } from './test.js';
import { mailOutbox, users, userSettings } from '../../server/src/db/schema.js';
import { notify } from '../../server/src/notifications/notify.js';
import { startTestServer, type TestServer } from '../../server/src/testing/harness.js';
import { TestSmtpServer } from '../../server/src/testing/smtp.js';
import { eachDisplay, openAs, shot } from './support.js';

/**
 * The user list's card of mails not delivered, against a server of its own whose SMTP server (real, on
 * loopback) refuses every mail: notification mails and a daily digest fail after their tries and are
 * listed with recipient, event, tries and the server's answer; "Send again" sends one once the server
 * takes mails again. In both themes and the three languages.
 */
let smtp: TestSmtpServer;
let server: TestServer;
let baseURL: string;
let clockOffsetMs = 0;

test.beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  smtp.answerAll({ kind: 'refuse', code: 451, text: '4.2.1 Mailbox busy, try again later' });
  server = await startTestServer({
    serveClient: true,
    config: { smtpUrl: smtp.url },
    mail: { now: () => new Date(Date.now() + clockOffsetMs), pollMs: 3_600_000 },
  });
  baseURL = await server.listen();
  const leader = await server.createUser({ name: 'Leader Lee' });
  const people = [
    await server.createUser({ name: 'Kim Minji', userId: 'minji.kim@lab.test' }),
    await server.createUser({ name: 'Sato Yui', userId: 'yui.sato@lab.test' }),
    await server.createUser({ name: 'Evans Ruth', userId: 'ruth.evans@lab.test' }),
  ];
  const lead = await server.as(leader);
  const { projectNo } = (
    await lead(api.projects.create, {
      title: 'Protein assays',
      signatureList: { department: '', user: people.map((p) => p.userId).join(',') },
    })
  ).body.data;
  const { labNoteNo } = (await lead(api.notes.create, { projectNo, title: 'Bradford curve' })).body.data;
  const { db } = server.database;
  // The third person takes the daily digest: their two notifications go into one mail.
  await db.insert(userSettings).values({ userNo: people[2]!.userNo, digestEnabled: true });
  const recorded = [];
  for (const meaning of ['reviewer', 'participant'])
    recorded.push(
      ...(await db.transaction((tx) =>
        notify(tx, {
          event: 'signatureRequested',
          recipients: people.map((p) => p.userNo),
          actorUserNo: leader.userNo,
          projectNo,
          noteNo: labNoteNo,
          payload: { meaning },
        }),
      )),
    );
  await db.insert(mailOutbox).values({
    userNo: people[2]!.userNo,
    kind: 'digest',
    notificationIds: recorded.filter((n) => n.userNo === people[2]!.userNo).map((n) => n.notificationId),
  });
  // Made by hand here: the scheduler, on the clock the retries move, makes no other.
  await db.update(userSettings).set({ digestEnabled: false }).where(eq(userSettings.userNo, people[2]!.userNo));
  for (let attempt = 0; attempt < MAIL_LIMITS.maxAttempts; attempt += 1) {
    await server.services.mailOutbox.flush();
    clockOffsetMs += MAIL_LIMITS.retryMaxSeconds * 1000 + 1000;
  }
  // One of them has left since.
  await db.update(users).set({ active: false }).where(eq(users.userNo, people[1]!.userNo));
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

test.describe.serial('mails not delivered', () => {
  test('are listed for an administrator with recipient, event, tries and the last answer, in both themes and three languages', async ({
    browser,
  }) => {
    const titles = { en: 'Mails not delivered', ko: '발송하지 못한 메일', ja: '配信できなかったメール' } as const;
    const page = await openAs(browser, server.admin, { baseURL });
    await page.goto('/admin');
    const card = page.getByTestId('mail-failures');
    await eachDisplay(page, {
      visit: async ({ language, name }) => {
        await expect(card.getByRole('heading', { name: titles[language] })).toBeVisible();
        await expect(card.getByTestId('mail-failure-row')).toHaveCount(5);
        await expect(card.getByTestId('mail-failures-count')).toBeVisible();
        if (language === 'en') {
          await expect(card.getByTestId('mail-failures-count')).toHaveText('5 failed');
          const kim = card.getByTestId('mail-failure-row').filter({ hasText: 'minji.kim@lab.test' }).first();
          await expect(kim).toContainText('Signature requested');
          await expect(kim).toContainText(String(MAIL_LIMITS.maxAttempts));
          await expect(kim.getByTestId('mail-failure-error')).toContainText('451');
          await expect(kim.getByTestId('mail-failure-error')).toContainText('Mailbox busy');
          await expect(card.getByTestId('mail-failure-row').filter({ hasText: 'ruth.evans@lab.test' }).first()).toBeVisible();
          await expect(card).toContainText('Daily digest (2 notifications)');
          await expect(
            card.getByTestId('mail-failure-row').filter({ hasText: 'yui.sato@lab.test' }).first().getByTestId('mail-failure-inactive'),
          ).toHaveText('Inactive');
        }
        await card.scrollIntoViewIfNeeded();
        await card.screenshot({ path: `tests/e2e/screenshots/admin-mail-failures-${name}.png`, animations: 'disabled' });
      },
      axe: { where: 'the card of failed mails', within: '[data-testid="mail-failures"]' },
    });
    await page.context().close();
  });

  test('a failed mail is sent again when the administrator asks, and leaves the list once sent', async ({ browser }) => {
    smtp.answerAll({ kind: 'accept' });
    const page = await openAs(browser, server.admin, { baseURL });
    await page.goto('/admin');
    const card = page.getByTestId('mail-failures');
    const kim = card.getByTestId('mail-failure-row').filter({ hasText: 'minji.kim@lab.test' }).first();
    await kim.getByTestId('mail-failure-retry').click();
    await expect(card.getByTestId('mail-failures-notice')).toHaveText('The mail to Kim Minji is sent again.');
    await expect(card.getByTestId('mail-failure-row')).toHaveCount(4);
    await server.services.mailOutbox.flush();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.subject).toMatch(/^Leader Lee asked you to sign note Bradford curve \(LN-\d{4}-\d+\) as Participant$/);
    await shot(page, 'admin-mail-failures-retried-s-en');
  });
});
