import { api } from '@eln/shared';
import { expect, test } from './test.js';
import type { Page } from '@playwright/test';
import { E2E } from './fixtures.js';
import { forgetDisplayChoices, sentAccessTokens, shot, signIn, seriousViolations } from './support.js';

const storedProfile = (page: Page) => page.evaluate(() => localStorage.getItem('eln.profile'));

test.describe('app shell', () => {
  // The header's switches keep a signed-in person's choice on the server, where the next sign-in finds it.
  test.afterEach(async ({ request }) => {
    await forgetDisplayChoices(request, E2E.admin);
  });

  test('without a session every page leads to sign-in', async ({ page }) => {
    await page.goto('/project');
    await expect(page).toHaveURL(/\/signin$/);
    await expect(page.getByTestId('signin-submit')).toBeVisible();
    await shot(page, 'signin-s-en');
  });

  test('checks the ID pattern before sending, and shows a wrong password plainly', async ({ page }) => {
    await page.goto('/signin');
    await page.getByTestId('signin-userId').fill('not-an-email');
    await page.getByTestId('signin-password').fill('whatever');
    await page.getByTestId('signin-submit').click();
    await expect(page.getByText('Enter an email address such as name@company.com.')).toBeVisible();

    await page.getByTestId('signin-userId').fill(E2E.member.userId);
    await page.getByTestId('signin-password').fill('definitely-wrong');
    await page.getByTestId('signin-submit').click();
    await expect(page.getByTestId('signin-error')).toHaveText(/The ID or password is incorrect\./);
    await expect(page).toHaveURL(/\/signin/);
    await shot(page, 'signin-wrong-password');

    // The catalogue's other languages load with their interface strings, not with the sign-in page.
    for (const [language, text] of [
      ['ko', '아이디 또는 비밀번호가 올바르지 않습니다.'],
      ['ja', 'IDまたはパスワードが正しくありません。'],
    ] as const) {
      await page.getByTestId(`lang-${language}`).click();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      // Someone unknown, so that the member's own attempts stay below the slow-down.
      await page.getByTestId('signin-userId').fill(`nobody.${language}@eln.local`);
      await page.getByTestId('signin-password').fill('definitely-wrong');
      await page.getByTestId('signin-submit').click();
      await expect(page.getByTestId('signin-error')).toHaveText(text);
    }
    await page.getByTestId('lang-en').click();
  });

  test('an administrator signs in, sees the Admin menu, and a signed-in user is kept off the sign-in page', async ({ page }) => {
    // The built client must run under the server's strict content security policy.
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await signIn(page, E2E.admin);
    await expect(page.getByTestId('header-user-name')).toHaveText(E2E.admin.name);
    await expect(page.getByTestId('nav-admin')).toBeVisible();
    await shot(page, 'dashboard-s-en');
    await page.goto('/signin');
    await expect(page).toHaveURL(/\/$/);
    expect(violations).toEqual([]);
  });

  test('switches language: stored, reloaded, every visible string translated', async ({ page }) => {
    await signIn(page, E2E.admin);
    await page.getByTestId('lang-ko').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
    await expect(page.getByRole('link', { name: '프로젝트' }).first()).toBeVisible();
    await shot(page, 'dashboard-s-ko');
    await page.getByTestId('lang-ja').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.getByRole('link', { name: 'プロジェクト' }).first()).toBeVisible();
    await shot(page, 'dashboard-s-ja');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await page.getByTestId('lang-en').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  test('switches theme to beauty and keeps it across reloads', async ({ page }) => {
    await signIn(page, E2E.admin);
    await page.getByTestId('theme-toggle').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'b');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'b');
    await shot(page, 'dashboard-b-en');
    for (const language of ['ko', 'ja'] as const) {
      await page.getByTestId(`lang-${language}`).click();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await shot(page, `dashboard-b-${language}`);
    }
    await page.getByTestId('signout').click();
    await expect(page).toHaveURL(/\/signin$/);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'b');
    await shot(page, 'signin-b-ja');
  });

  test('a session ended on the server shows the session-ended modal, whose close leads to sign-in', async ({ page, request }) => {
    const tokens = sentAccessTokens(page);
    await signIn(page, E2E.member);
    // The dashboard's counts answered first: a count call still on its way when the session ends opens the
    // modal before the click below, which then waits on a link the modal made inert (seen on CI). Those
    // calls carry the access token, which the page may not have sent yet when sign-in lands (seen on CI).
    await expect(page.getByTestId('dashboard')).toHaveAttribute('aria-busy', 'false');
    expect(tokens.last()).toBeTruthy();
    // End the session from elsewhere: its access and refresh tokens die at once.
    const out = await request.post(`/server${api.auth.signOut.path}`, { data: {}, headers: { authorization: `Bearer ${tokens.last()}` } });
    expect((await out.json()).status).toBe('0000');

    await page.getByRole('link', { name: 'Project' }).first().click();
    await expect(page.getByTestId('session-ended-modal')).toBeVisible();
    await shot(page, 'session-ended');
    expect(await seriousViolations(page, 'session ended dialog')).toEqual([]);
    await page.getByTestId('session-ended-close').click();
    await expect(page).toHaveURL(/\/signin$/);
    expect(await storedProfile(page)).toBeNull();
  });

  test('unknown paths land on the 404 page', async ({ page }) => {
    await signIn(page, E2E.member);
    await page.goto('/this/does/not/exist');
    await expect(page).toHaveURL(/\/notFound$/);
    await shot(page, 'not-found');
  });

  test('administration is for level 10 only: a member is sent home and sees no Admin menu', async ({ page }) => {
    await signIn(page, E2E.member);
    await expect(page.getByTestId('header-user-name')).toHaveText(E2E.member.name);
    await expect(page.getByTestId('nav-admin')).toHaveCount(0);
    await page.goto('/admin/audit');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('dashboard')).toBeVisible();
  });

  test('a profile stored before abilities existed stays signed in: the admin pages wait for the server to say what the user may do', async ({
    page,
  }) => {
    await signIn(page, E2E.admin);
    await expect(page.getByTestId('nav-admin')).toBeVisible();
    // As an earlier version stored it (the user and the flags, no abilities), found by the next page load.
    await page.addInitScript(() => {
      const stored = JSON.parse(localStorage.getItem('eln.profile') ?? '{}') as { user?: unknown };
      localStorage.setItem(
        'eln.profile',
        JSON.stringify({ user: stored.user, auth: { project: 'Y', schema: 'Y', dropbox: 'Y', template: 'Y' } }),
      );
    });
    await page.goto('/admin/audit');
    await expect(page.getByTestId('page-admin-audit')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await expect(page.getByTestId('nav-admin')).toBeVisible();
    expect(JSON.parse((await storedProfile(page)) ?? '{}')).toMatchObject({ abilities: { administer: true } });
  });

  test('signing out revokes the session on the server', async ({ page, request }) => {
    const tokens = sentAccessTokens(page);
    await signIn(page, E2E.member);
    const accessToken = tokens.last();
    await page.getByTestId('signout').click();
    await expect(page).toHaveURL(/\/signin$/);
    const after = await request.post(`/server${api.auth.flags.path}`, { data: {}, headers: { authorization: `Bearer ${accessToken}` } });
    expect(after.status()).toBe(401);
    expect((await page.context().cookies()).filter((cookie) => cookie.name === 'eln_refresh')).toEqual([]);
  });

  test('no script can read a credential: the refresh token is an httpOnly cookie, the access token only in memory', async ({ page }) => {
    const tokens = sentAccessTokens(page);
    await signIn(page, E2E.member);
    const [cookie, ...others] = (await page.context().cookies()).filter((c) => c.name === 'eln_refresh');
    expect(others).toEqual([]);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: `/server${api.auth.refresh.path}` });
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const stored = await page.evaluate(() => Object.values(localStorage).join('\n') + Object.values(sessionStorage).join('\n'));
    expect(stored).not.toContain(tokens.last());
    expect(stored).not.toContain(cookie!.value);
    expect(stored).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    expect(await storedProfile(page)).toContain(E2E.member.userId);
  });

  test('every tab of the browser stays signed in: reloads and new tabs get their own token from the cookie, one refresh at a time', async ({
    page,
  }) => {
    await signIn(page, E2E.member);
    const context = page.context();
    const refreshes: string[] = [];
    context.on('response', async (response) => {
      if (response.url().endsWith(`/server${api.auth.refresh.path}`))
        refreshes.push(((await response.json()) as { status: string }).status);
    });
    // Three more tabs open at once, and the first reloads with them: four refreshes race for one cookie.
    const tabs = await Promise.all([1, 2, 3].map(() => context.newPage()));
    await Promise.all([...tabs.map((tab) => tab.goto('/project')), page.reload()]);
    for (const tab of [page, ...tabs]) {
      await expect(tab.getByTestId('header-user-name')).toHaveText(E2E.member.name);
      await expect(tab.getByTestId('session-ended-modal')).toHaveCount(0);
    }
    await expect.poll(() => refreshes.length).toBeGreaterThanOrEqual(4);
    // Each rotated the cookie the last one left: none was refused as a reuse, which would have ended the session.
    expect(refreshes.every((status) => status === '0000')).toBe(true);
    // The project list came through the API with each new tab's own token.
    for (const tab of tabs) await expect(tab.getByTestId('project-row').or(tab.getByTestId('project-empty')).first()).toBeVisible();

    // Signing out in one tab signs every tab out.
    await tabs[0]!.getByTestId('signout').click();
    await expect(tabs[0]!).toHaveURL(/\/signin$/);
    for (const tab of [page, tabs[1]!, tabs[2]!]) await expect(tab).toHaveURL(/\/signin$/);
    await shot(tabs[1]!, 'signed-out-in-another-tab');
  });
});
