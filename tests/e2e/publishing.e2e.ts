import { expect, test } from './test.js';
import type { Page } from '@playwright/test';
import { seriousViolations, shot } from './support.js';
import { hangTimeout } from './fixtures.js';

/**
 * The living style guide (/publishing): open without signing in, every page drawn from fixed sample data
 * with no call reaching the server, in both themes (Korean and Japanese for the guide's own pages), and
 * nothing stored as a session.
 */

const PAGES: Array<[string, string]> = [
  ['dashboard', 'dashboard'],
  ['project', 'page-project-detail'],
  ['projectList', 'page-project'],
  ['projectCreate', 'page-project-create'],
  ['schemaCreate', 'page-schema-create'],
  ['userList', 'page-admin'],
  ['userEdit', 'page-admin-user'],
  ['error', 'page-error'],
  ['stylePage', 'style-page'],
  ['chart', 'chart-page'],
];

/** A fresh browser in a theme and language, recording every API request it makes. */
async function guest(browser: import('@playwright/test').Browser, theme: 's' | 'b', language: 'en' | 'ko' | 'ja') {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, locale: language });
  const page = await context.newPage();
  await page.addInitScript(
    ([t, l]) => {
      window.localStorage.setItem('eln.theme', t);
      window.localStorage.setItem('eln.language', l);
    },
    [theme, language] as const,
  );
  const apiCalls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/server/')) apiCalls.push(request.url());
  });
  return { page, apiCalls };
}

/** The page is shown with its data (the component page's own samples of busy parts aside). */
async function showsReady(page: Page, ready: string): Promise<void> {
  await expect(page.getByTestId(ready)).toBeVisible();
  await expect(page.locator('[aria-busy="true"]:not(.style-section *)')).toHaveCount(0);
}

for (const theme of ['s', 'b'] as const) {
  test(`every style guide page in theme ${theme}: the real screens on sample data, no server call, no session stored`, async ({
    browser,
  }) => {
    test.setTimeout(hangTimeout(120_000));
    const { page, apiCalls } = await guest(browser, theme, 'en');
    await page.goto('/publishing');
    await showsReady(page, 'publishing-index');
    await expect(page.getByTestId('publishing-pages').getByRole('link')).toHaveCount(PAGES.length);
    await shot(page, `publishing-index-${theme}-en`);

    for (const [name, ready] of PAGES) {
      await page.getByTestId(`publishing-link-${name}`).click();
      await expect(page).toHaveURL(new RegExp(`/publishing/${name}$`));
      await showsReady(page, ready);
      // Sample data, not an error or an empty screen (the error page, and the component page's sample messages, aside).
      if (name !== 'error' && name !== 'stylePage') await expect(page.getByText(/could not be loaded|try again/i)).toHaveCount(0);
      await shot(page, `publishing-${name}-${theme}-en`);
      if (name === 'error') await page.goto('/publishing');
      else await page.getByTestId('publishing-ribbon').getByRole('link').click();
    }

    // What the sample data shows is really there.
    await page.goto('/publishing/projectList');
    await expect(page.getByTestId('project-row')).toHaveCount(8);
    await page.goto('/publishing/project');
    await expect(page.getByText('Preparation of buffers')).toBeVisible();
    await page.goto('/publishing/chart');
    await expect(page.getByTestId('chart-canvas')).toHaveCount(7);
    await expect(page.getByTestId('header-user-name')).toHaveText('Park Seoyeon');

    expect(apiCalls).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('eln.profile'))).toBeNull();
    // Out of the guide the app is itself again: signed out, so its pages lead to sign-in.
    await page.goto('/project');
    await expect(page).toHaveURL(/\/signin$/);
  });
}

for (const language of ['ko', 'ja'] as const) {
  test(`the style guide speaks ${language}`, async ({ browser }) => {
    test.setTimeout(hangTimeout(120_000));
    const { page, apiCalls } = await guest(browser, language === 'ko' ? 'b' : 's', language);
    await page.goto('/publishing');
    await showsReady(page, 'publishing-index');
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.getByTestId('publishing-link-stylePage')).toContainText(language === 'ko' ? '구성 요소' : 'コンポーネント');
    for (const name of ['stylePage', 'chart', 'dashboard']) {
      await page.goto(`/publishing/${name}`);
      await showsReady(page, PAGES.find(([page]) => page === name)![1]);
      await shot(page, `publishing-${name}-${language === 'ko' ? 'b' : 's'}-${language}`);
    }
    expect(apiCalls).toEqual([]);
  });
}

test('the component page has no serious accessibility violation in either theme', async ({ browser }) => {
  test.setTimeout(hangTimeout(120_000));
  for (const theme of ['s', 'b'] as const) {
    const { page } = await guest(browser, theme, 'en');
    await page.goto('/publishing/stylePage');
    await showsReady(page, 'style-page');
    expect(await seriousViolations(page, `component page, theme ${theme}`)).toEqual([]);
  }
});
