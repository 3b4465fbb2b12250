import { api } from '@eln/shared';
import { expect, test } from './test.js';
import { startTestServer, type TestServer } from '../../server/src/testing/harness.js';
import { TestWebhookReceiver } from '../../server/src/testing/webhookReceiver.js';
import { openAs, seriousViolations, shot } from './support.js';

/**
 * Webhooks in the browser, against a server of its own that may reach loopback (WEBHOOKS_ALLOW_LOCAL) and a
 * real receiver on 127.0.0.1: a project's leader adds an endpoint on the project page and sees its secret
 * once, an event is delivered and shows in the delivery log, and "Send again" queues it anew. Admin →
 * Webhooks is then looked at in both themes and the three languages (one page, switched in place).
 */
let receiver: TestWebhookReceiver;
let server: TestServer;
let baseURL: string;
let projectNo: number;
type Person = Awaited<ReturnType<TestServer['createUser']>>;
let leader: Person;

test.beforeAll(async () => {
  receiver = await TestWebhookReceiver.start();
  server = await startTestServer({ serveClient: true, config: { webhooksAllowLocal: true }, webhooks: { pollMs: 3_600_000 } });
  baseURL = await server.listen();
  leader = await server.createUser({ name: 'Leader Lee' });
  const lead = await server.as(leader);
  const member = await server.createUser({ name: 'Member Moon' });
  const created = await lead(api.projects.create, { title: 'Plate reader runs', signatureList: { department: '', user: member.userId } });
  expect(created.body.status).toBe('0000');
  projectNo = created.body.data.projectNo;
  const admin = await server.as(server.admin);
  await admin(api.webhooks.create, { url: receiver.url('/lims'), description: 'LIMS', events: ['note.created', 'user.deactivated'] });
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

test('a leader adds a project webhook, sees its delivery and sends it again; Admin → Webhooks in both themes and three languages', async ({
  browser,
}) => {
  const page = await openAs(browser, leader, { baseURL });
  await page.goto(`/project/${projectNo}`);
  const section = page.getByTestId('project-webhooks');
  await section.getByTestId('webhooks-add').click();
  await section.getByTestId('webhooks-url').fill(receiver.url('/project'));
  await expect(section.getByTestId('webhooks-event-note.created')).toBeChecked();
  await section.getByTestId('webhooks-submit').click();
  await expect(section.getByTestId('webhooks-secret-value')).toHaveText(/^whsec_/);
  await expect(section.getByTestId('webhooks-endpoint')).toHaveCount(1);

  const lead = await server.as(leader);
  expect((await lead(api.notes.create, { projectNo, title: 'Run 1' })).body.status).toBe('0000');
  await server.services.webhooks.flush();
  expect(receiver.at('/project')).toHaveLength(1);
  await page.reload();
  await section.getByTestId('webhooks-log-toggle').click();
  await expect(section.getByTestId('webhooks-delivery')).toHaveCount(1);
  await expect(section.getByTestId('webhooks-delivery')).toContainText('Delivered');
  await section.getByTestId('webhooks-redeliver').click();
  await expect(section.getByTestId('webhooks-notice')).toHaveText('Sent again.');
  await server.services.webhooks.flush();
  expect(receiver.at('/project')).toHaveLength(2);
  expect(receiver.at('/project')[1]!.headers['webhook-id']).toBe(receiver.at('/project')[0]!.headers['webhook-id']);
  // A new signing secret, asked for twice (a second click confirms): shown once, the previous one signing beside it for a while.
  await section.getByTestId('webhooks-rotate').click();
  await section.getByTestId('webhooks-rotate-confirm').click();
  await expect(section.getByTestId('webhooks-notice')).toHaveText('New signing secret made: the previous one also signs for 24 hours.');
  await expect(section.getByTestId('webhooks-secret-value')).toHaveText(/^whsec_/);
  await expect(section.getByTestId('webhooks-previous-secret')).toContainText('The previous secret also signs until');
  await shot(page, 'project-webhooks-new-secret');
  await page.context().close();

  const admin = await openAs(browser, server.admin, { baseURL });
  await admin.goto('/admin/webhooks');
  for (const [theme, language, title] of [
    ['s', 'en', 'Webhooks'],
    ['b', 'en', 'Webhooks'],
    ['s', 'ko', '웹훅'],
    ['b', 'ko', '웹훅'],
    ['s', 'ja', 'Webhook'],
    ['b', 'ja', 'Webhook'],
  ] as const) {
    await admin.evaluate(
      ([t, l]) => {
        window.localStorage.setItem('eln.theme', t);
        window.localStorage.setItem('eln.language', l);
      },
      [theme, language] as const,
    );
    await admin.reload();
    await expect(admin.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(admin.getByTestId('webhooks-endpoint')).toHaveCount(2);
    await admin.getByTestId('webhooks-log-toggle').first().click();
    await expect(admin.getByTestId('webhooks-delivery').first()).toBeVisible();
    if (language === 'en')
      expect(await seriousViolations(admin, `Admin → Webhooks (${theme})`, '[data-testid="webhooks-page"]')).toEqual([]);
    await shot(admin, `admin-webhooks-${theme}-${language}`);
  }
});
