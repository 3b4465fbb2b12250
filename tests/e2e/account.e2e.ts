import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { api } from '@eln/shared';
import { expect, test } from './test.js';
import { E2E } from './fixtures.js';
import { apiSignIn, callApi, eachDisplay, openAs, shot, unique, type Person } from './support.js';

/**
 * My account (issue 48): a person's language, theme, time zone, notification choices and daily digest are
 * kept on the server. Chosen on /account on one device, they are what another device shows after signing
 * in, and the screens' times are in the zone chosen.
 */

/** A new person with a department of their own, who may lead projects. */
async function newPerson(request: APIRequestContext, name: string): Promise<Person> {
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  await callApi(request, adminToken, api.departments.create, { code: `ACC${id}`, name: `Assay Lab ${id}` });
  const person = { userId: `account.${id.toLowerCase()}@eln.local`, password: `account-password-${id}`, name };
  await callApi(request, adminToken, api.users.create, {
    ...person,
    departmentCode: `ACC${id}`,
    level: 1,
    auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' },
  });
  return person;
}

/** Opens My account from the header's name, as a person would. */
async function openAccount(page: Page): Promise<void> {
  await page.getByTestId('header-account').click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId('account-display-form')).toBeVisible();
}

/** A moment as the browser shows it in a zone with the app's date-and-time style (formatDateTime). */
const shownIn = (page: Page, iso: string, language: string, timeZone: string) =>
  page.evaluate(
    ([at, lang, zone]) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(new Date(at)),
    [iso, language, timeZone] as const,
  );

/** A fresh browser (another device): nothing stored, its own zone and languages. */
async function freshDevice(browser: Browser, timezoneId: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, timezoneId, locale: 'en-US' });
  return context.newPage();
}

test('settings chosen on My account follow the person to another device', async ({ browser, request }) => {
  const person = await newPerson(request, 'Seo Minji');
  const token = await apiSignIn(request, person);
  const { projectNo } = await callApi(request, token, api.projects.create, {
    title: `Zones ${unique()}`,
    signatureList: { department: '', user: E2E.member.userId },
  });
  const { createdAt } = await callApi(request, token, api.projects.detail, { projectNo });

  // --- The laptop: English, standard theme, Seoul.
  const laptop = await openAs(browser, person, { language: 'en', theme: 's', timezoneId: 'Asia/Seoul' });
  await openAccount(laptop);
  await expect(laptop.getByTestId('account-profile-name')).toHaveText('Seo Minji');
  await expect(laptop.getByTestId('account-profile-email')).toHaveText(person.userId);
  await expect(laptop.getByTestId('account-profile-department')).toHaveText(/^Assay Lab /);
  // Nothing changed yet: nothing to save.
  await expect(laptop.getByTestId('account-display-save')).toBeDisabled();

  // Theme and zone, the zone found by typing part of its name and picked with the keyboard.
  await laptop.getByTestId('account-theme').selectOption('b');
  const zone = laptop.getByTestId('account-zone-input');
  await zone.fill('new york');
  await expect(laptop.getByTestId('zone-option-America/New_York')).toBeVisible();
  await expect(laptop.getByTestId('zone-option-Asia/Seoul')).toHaveCount(0);
  await zone.press('ArrowDown');
  await zone.press('Enter');
  await expect(zone).toHaveValue(/^America\/New York \(UTC-0[45]:00\)$/);
  await laptop.getByTestId('account-display-save').click();
  await expect(laptop.getByTestId('account-display-saved')).toBeVisible();
  await expect(laptop.locator('html')).toHaveAttribute('data-theme', 'b');

  // A notification choice, each checkbox named by its event and channel.
  const noteSignedInApp = laptop.getByRole('checkbox', { name: 'My note is signed: in the app' });
  await expect(noteSignedInApp).toBeChecked();
  await noteSignedInApp.uncheck();
  await laptop.getByTestId('account-event-templateChecked-email').check();
  await laptop.getByTestId('account-notifications-save').click();
  await expect(laptop.getByTestId('account-notifications-saved')).toBeVisible();

  // The daily digest at 21:30, typed into its hour and minute.
  await laptop.getByTestId('account-digest-enabled').check();
  const time = laptop.getByTestId('account-digest-time');
  await time.locator('[data-type="hour"]').focus();
  await time.locator('[data-type="hour"]').pressSequentially('21');
  await time.locator('[data-type="minute"]').focus();
  await time.locator('[data-type="minute"]').pressSequentially('30');
  await expect(time).toHaveAttribute('data-value', '21:30');
  await laptop.getByTestId('account-digest-save').click();
  await expect(laptop.getByTestId('account-digest-saved')).toBeVisible();
  await expect(laptop.getByTestId('account-digest')).toContainText('America/New_York');

  // Last the language: the page loads again in it, saying the display was saved.
  await laptop.getByTestId('account-language').selectOption('ko');
  await laptop.getByTestId('account-display-save').click();
  await expect(laptop.locator('html')).toHaveAttribute('lang', 'ko');
  await expect(laptop.getByTestId('account-display-saved')).toContainText('화면 표시를 저장했습니다');
  await expect(laptop).toHaveURL(/\/account$/);

  // The laptop's screens show times in the zone chosen, not the browser's.
  await laptop.goto(`/project/${projectNo}`);
  await expect(laptop.getByTestId('project-created')).toHaveText(await shownIn(laptop, createdAt, 'ko', 'America/New_York'));

  // --- The phone: a fresh browser in Paris, in English, standard theme: signing in brings every choice.
  const phone = await freshDevice(browser, 'Europe/Paris');
  await phone.goto('/signin');
  await expect(phone.locator('html')).toHaveAttribute('lang', 'en');
  await expect(phone.locator('html')).toHaveAttribute('data-theme', 's');
  await phone.getByTestId('signin-userId').fill(person.userId);
  await phone.getByTestId('signin-password').fill(person.password);
  await phone.getByTestId('signin-submit').click();
  await expect(phone.getByTestId('dashboard')).toBeVisible();
  await expect(phone.locator('html')).toHaveAttribute('lang', 'ko');
  await expect(phone.locator('html')).toHaveAttribute('data-theme', 'b');
  await phone.goto(`/project/${projectNo}`);
  const inNewYork = await shownIn(phone, createdAt, 'ko', 'America/New_York');
  expect(inNewYork).not.toBe(await shownIn(phone, createdAt, 'ko', 'Europe/Paris'));
  await expect(phone.getByTestId('project-created')).toHaveText(inNewYork);

  await openAccount(phone);
  await expect(phone.getByTestId('account-language')).toHaveValue('ko');
  await expect(phone.getByTestId('account-theme')).toHaveValue('b');
  await expect(phone.getByTestId('account-zone-input')).toHaveValue(/^America\/New York/);
  await expect(phone.getByTestId('account-event-noteSigned-app')).not.toBeChecked();
  await expect(phone.getByTestId('account-event-noteSigned-email')).not.toBeChecked();
  await expect(phone.getByTestId('account-event-templateChecked-email')).toBeChecked();
  await expect(phone.getByTestId('account-event-signatureRequested-app')).toBeChecked();
  await expect(phone.getByTestId('account-digest-enabled')).toBeChecked();
  await expect(phone.getByTestId('account-digest-time')).toHaveAttribute('data-value', '21:30');
  // Directory synchronisation tells administrators only: a member is not offered it.
  await expect(phone.getByTestId('account-event-usersDeactivated')).toHaveCount(0);
  // Leading a project, the person may own its webhooks: they are offered the news of one turned off.
  await expect(phone.getByTestId('account-event-webhookDisabled')).toHaveCount(1);

  // Back to the browser's own zone on the phone: its screens then show Paris time.
  const phoneZone = phone.getByTestId('account-zone-input');
  await phoneZone.fill('');
  await phoneZone.press('ArrowDown');
  await expect(phone.getByTestId('zone-option-browser')).toContainText('Europe/Paris');
  await phone.getByTestId('zone-option-browser').click();
  await phone.getByTestId('account-display-save').click();
  await expect(phone.getByTestId('account-display-saved')).toBeVisible();
  await phone.goto(`/project/${projectNo}`);
  await expect(phone.getByTestId('project-created')).toHaveText(await shownIn(phone, createdAt, 'ko', 'Europe/Paris'));

  // The theme switched in the header is kept on the server too: the laptop finds it at its next start.
  await phone.getByTestId('theme-toggle').click();
  await expect(phone.locator('html')).toHaveAttribute('data-theme', 's');
  await expect
    .poll(async () => (await callApi(request, token, api.account.settings, {})).theme, { message: 'theme saved from the header' })
    .toBe('s');
  // The expected text is worked out on the phone: the laptop may load its page again as it takes in the
  // settings the server keeps, which would cut an evaluation short there.
  const inSeoul = await shownIn(phone, createdAt, 'ko', 'Asia/Seoul');
  await laptop.reload();
  await expect(laptop.locator('html')).toHaveAttribute('data-theme', 's');
  await expect(laptop.getByTestId('project-created')).toHaveText(inSeoul);
});

test('a save that does not reach the server says so and keeps what was chosen', async ({ browser, request }) => {
  const person = await newPerson(request, 'Ryu Haneul');
  const page = await openAs(browser, person, { language: 'en' });
  await openAccount(page);
  await page.getByTestId('account-zone-input').fill('tokyo');
  await page.getByTestId('zone-option-Asia/Tokyo').click();
  await page.context().setOffline(true);
  await page.getByTestId('account-display-save').click();
  await expect(page.getByTestId('account-display-failed')).toContainText('Not saved: The service is not available right now.');
  await expect(page.getByTestId('account-zone-input')).toHaveValue(/^Asia\/Tokyo/);
  await shot(page, 'account-save-failed-s-en');
  // Back online, the same Save keeps it.
  await page.context().setOffline(false);
  await page.getByTestId('account-display-save').click();
  await expect(page.getByTestId('account-display-saved')).toBeVisible();
  await expect(page.getByTestId('account-display-failed')).toHaveCount(0);
  expect((await callApi(request, await apiSignIn(request, person), api.account.settings, {})).timeZone).toBe('Asia/Tokyo');
});

test('My account in every language and theme: readable, reachable from the header, no serious accessibility violation', async ({
  browser,
  request,
}) => {
  // Someone who never chose: each browser's language and theme hold.
  const person = await newPerson(request, 'Moon Dahye');
  const titles = { en: 'My account', ko: '내 계정', ja: 'マイアカウント' } as const;
  const page = await openAs(browser, person);
  // The zone list open, filtered (in English, standard theme).
  await openAccount(page);
  await page.getByTestId('account-zone-input').fill('europe/');
  await expect(page.getByTestId('zone-option-Europe/Paris')).toBeVisible();
  // Not checked by axe while open: React Aria hides the rest of the page from screen readers
  // (aria-hidden) while the list is open, and Tab closes it first.
  await shot(page, 'account-zone-list-s-en', false);
  await page.keyboard.press('Escape');
  await eachDisplay(page, {
    open: () => openAccount(page),
    visit: async ({ language }) => {
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(titles[language]);
      await expect(page.getByTestId('account-event-signatureRequested')).toBeVisible();
    },
    shot: 'account',
    axe: { where: 'My account' },
  });
  await page.context().close();
});
