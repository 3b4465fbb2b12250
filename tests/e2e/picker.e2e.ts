import { api } from '@eln/shared';
import { expect, test } from './test.js';
import { DEPARTMENT_SEARCH_PAGE } from '../../shared/src/api/departments.js';
import { E2E, hangTimeout } from './fixtures.js';
import { callApi, apiSignIn, openAs, seriousViolations, shot, unique, type Person } from './support.js';

/**
 * The participant picker in a large department: the tree shows the head count at once, opening the
 * department shows its first page of people and the next as the list scrolls near its end (or by the
 * "show more" button), checking the department chooses everyone in it, and a search pages the same way.
 */
test('the participant picker pages a large department as it scrolls and chooses all of it at once', async ({ browser, request }) => {
  test.setTimeout(hangTimeout(240_000));
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const code = `BULK-${id}`;
  await callApi(request, adminToken, api.departments.create, { code, name: `Bulk lab ${id}` });
  const size = DEPARTMENT_SEARCH_PAGE + 12;
  const people: Person[] = [];
  for (let i = 0; i < size; i += 1) {
    const who = {
      userId: `bulk${String(i).padStart(2, '0')}.${id.toLowerCase()}@eln.local`,
      password: 'bulk-password-1234',
      name: `Bulk ${id} ${String(i).padStart(2, '0')}`,
    };
    await callApi(request, adminToken, api.users.create, {
      ...who,
      departmentCode: code,
      level: 1,
      auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' },
    });
    people.push(who);
  }
  const leader = people[0]!;

  const page = await openAs(browser, leader);
  await page.goto('/project/create');
  const row = page.getByTestId(`picker-dept-row-${code}`);
  await expect(row.locator('.tree-count').first()).toHaveText(String(size));
  // A top-level department opens by itself with the tree; its first page of people comes with it.
  await expect(page.getByTestId(`picker-dept-toggle-${code}`)).toHaveAttribute('aria-expanded', 'true');
  const shown = row.locator('[data-testid^="picker-user-bulk"]');
  await expect(shown).toHaveCount(DEPARTMENT_SEARCH_PAGE);
  await expect(page.getByTestId(`picker-more-${code}`)).toBeVisible();
  await shot(page, 'picker-large-department-s-en', false);
  expect(await seriousViolations(page, 'picker with a paged department')).toEqual([]);

  // Scrolling the list to its end brings the next page without a click.
  await page.locator('.picker-list').evaluate((list) => list.scrollTo(0, list.scrollHeight));
  await expect(shown).toHaveCount(size);
  await expect(page.getByTestId(`picker-more-${code}`)).toHaveCount(0);

  // The department's box takes everyone in it, loaded or not.
  await page.getByTestId(`picker-dept-${code}`).check();
  await expect(page.getByTestId('picker-count')).toHaveText(`${size} people`);
  await expect(page.getByTestId(`picker-chip-${people[size - 1]!.userId}`)).toBeVisible();
  await page.getByTestId(`picker-chip-remove-${people[3]!.userId}`).click();
  await expect(page.getByTestId(`picker-dept-${code}`)).not.toBeChecked();
  await expect(page.getByTestId('picker-count')).toHaveText(`${size - 1} people`);
  await page.getByTestId('picker-clear').click();

  // A search answers a page at a time too; the button brings the rest for a keyboard.
  await page.getByTestId('picker-search').fill(`Bulk ${id}`);
  const results = page.getByTestId('picker-results').locator('[data-testid^="picker-user-bulk"]');
  await expect(results).toHaveCount(DEPARTMENT_SEARCH_PAGE);
  await page.getByTestId('picker-more-results').focus();
  await page.keyboard.press('Enter');
  await expect(results).toHaveCount(size);

  // A narrower search keeps the last answer on screen, marked stale, until its own arrives: the person a
  // keyboard user reached meanwhile keeps the focus (a "Searching…" in between took it away).
  const target = people[5]!;
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route(`**/server${api.departments.searchUsers.path}`, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByTestId('picker-search').fill(`Bulk ${id} 05`);
  await expect(page.getByTestId('picker-results')).toHaveClass(/is-stale/);
  await expect(page.getByTestId('picker-results')).toHaveAttribute('aria-busy', 'true');
  await page.getByTestId(`picker-user-${target.userId}`).focus();
  answer();
  await expect(results).toHaveCount(1);
  await expect(page.getByTestId('picker-results')).not.toHaveClass(/is-stale/);
  await expect(page.getByTestId('picker-results')).not.toHaveAttribute('aria-busy');
  await expect(page.getByTestId(`picker-user-${target.userId}`)).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByTestId(`picker-chip-${target.userId}`)).toBeVisible();
  await page.unrouteAll();
  await page.context().close();
});
