import { expect, test } from './test.js';
import { E2E } from './fixtures.js';
import { openAs, seriousViolations, shot, showIn } from './support.js';

/**
 * The API reference (/api-docs): reached from My account, its introduction in the interface language, the
 * served OpenAPI document drawn by Scalar (lazy) in the app's theme, in both themes; the document itself
 * is linked. Screenshots: tests/e2e/screenshots/api-docs-<theme>.png.
 */
test('the API reference shows the served document in both themes, reached from My account', async ({ browser }) => {
  const page = await openAs(browser, E2E.member, { theme: 's', language: 'en' });
  await page.goto('/account');
  await page.getByTestId('account-api-docs').click();
  await expect(page).toHaveURL(/\/api-docs$/);
  await expect(page.getByTestId('api-docs-intro')).toContainText('eln_pat_');
  const reference = page.getByTestId('api-docs-reference');
  // Scalar has read /server/v1/openapi.json: the document's title and a call of the route table show.
  await expect(reference.getByText('ELN API').first()).toBeVisible({ timeout: 30_000 });
  await expect(reference.getByRole('heading', { name: 'Error codes' })).toBeVisible();
  await expect(reference.getByText('The CSV text could not be read as a table').first()).toBeAttached();
  await expect(page.getByTestId('api-docs-json')).toHaveAttribute('href', '/server/v1/openapi.json');

  for (const theme of ['s', 'b'] as const) {
    // Switched in place without saving the choice on the server (the member's later tests start in theme s).
    if (theme === 'b') await showIn(page, 'en', 'b');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    // Scalar takes the theme's colours: its page background is the app's surface.
    const surface = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--surface').trim());
    expect(surface).not.toBe('');
    await shot(page, `api-docs-${theme}`, false);
    expect(await seriousViolations(page, `api-docs ${theme}`, '[data-testid="api-docs-intro"]')).toEqual([]);
  }
  // The introduction in Korean and Japanese.
  await showIn(page, 'ko', 'b');
  await expect(page.getByTestId('api-docs-intro')).toContainText('개인 액세스 토큰');
  await showIn(page, 'ja', 'b');
  await expect(page.getByTestId('api-docs-intro')).toContainText('個人アクセストークン');
  await page.context().close();
});
