import { api } from '@eln/shared';
import { expect, test } from './test.js';
import type { Browser, Page } from '@playwright/test';
import { E2E, hangTimeout } from './fixtures.js';
import { callApi, apiSignIn, prose, seriousViolations, shot, unique, type Credentials, type Person } from './support.js';

/**
 * The whole core workflow with the keyboard alone (WCAG 2.1.1): no click, no hover, no `fill`. Focus
 * moves only by Tab, Shift+Tab, the toolbar's arrows and its Alt+F10 shortcut; pages change only as the
 * app navigates, or by an address typed in (goto), as a keyboard user types one into the address bar.
 */

/** What has focus: its test ID, else its tag and classes (the editor's content has no test ID). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return element?.dataset.testid ?? `${element?.tagName.toLowerCase()}.${element?.className ?? ''}`;
  });

/** Presses Tab (Shift+Tab with `back`) until `target` has focus; fails naming where focus stopped. */
async function tabTo(page: Page, target: string, { back = false, limit = 60 } = {}): Promise<void> {
  for (let presses = 0; presses <= limit; presses += 1) {
    const now = await focused(page);
    if (now === target || (target === 'editor' && now.includes('ProseMirror'))) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target} was not reached with ${limit} presses of ${back ? 'Shift+Tab' : 'Tab'} (focus is on ${await focused(page)})`);
}

/** Moves along the editor's toolbar with the arrow keys until `target` has focus. */
async function arrowTo(page: Page, target: string, key: 'ArrowRight' | 'ArrowLeft' = 'ArrowRight'): Promise<void> {
  for (let presses = 0; presses <= 40; presses += 1) {
    if ((await focused(page)) === target) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${target} was not reached with ${key} (focus is on ${await focused(page)})`);
}

/** The pointer events the page has seen (none, in a keyboard-only test). */
const mouseUsed = (page: Page) => page.evaluate(() => (window as unknown as { __mouseUsed: string[] }).__mouseUsed);

/** Types into the field `target` after tabbing to it. */
async function typeInto(page: Page, target: string, text: string): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.type(text);
}

async function signInByKeyboard(page: Page, who: Credentials): Promise<void> {
  await page.goto('/signin');
  await expect(page.getByTestId('signin-submit')).toBeVisible();
  await typeInto(page, 'signin-userId', who.userId);
  await typeInto(page, 'signin-password', who.password);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('dashboard')).toBeVisible();
}

async function keyboardUser(browser: Browser, who: Credentials): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, timezoneId: 'Asia/Seoul' });
  const page = await context.newPage();
  // Any pointer use would be a defect of the test: each is recorded, and mouseUsed() must stay empty.
  await page.addInitScript(() => {
    const used: string[] = [];
    Object.assign(window, { __mouseUsed: used });
    for (const type of ['pointerdown', 'mousedown', 'click', 'dblclick']) {
      // A click the keyboard makes (Enter, Space) has detail 0.
      window.addEventListener(
        type,
        (event) => {
          if (type !== 'click' || (event as MouseEvent).detail > 0)
            used.push(`${type} on ${(event.target as HTMLElement | null)?.dataset?.testid ?? (event.target as Element | null)?.tagName}`);
        },
        true,
      );
    }
  });
  await signInByKeyboard(page, who);
  return page;
}

test('keyboard only: sign in, a project with a participant, a note with text, a table with merged cells, a chart, a version, a signature requested and given', async ({
  browser,
  request,
}) => {
  test.setTimeout(hangTimeout(180_000));
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const reviewer: Person = { userId: `keys.${id.toLowerCase()}@eln.local`, password: 'reviewer-password-1234', name: `Yoon Keys ${id}` };
  await callApi(request, adminToken, api.users.create, {
    userId: reviewer.userId,
    name: reviewer.name,
    password: reviewer.password,
    level: 1,
    auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' },
  });

  // --- Sign in, then by the main menu to the project list and a new project.
  const kim = await keyboardUser(browser, E2E.member);
  await tabTo(kim, 'nav-project');
  await kim.keyboard.press('Enter');
  await expect(kim.getByTestId('page-project')).toBeVisible();
  await tabTo(kim, 'project-create-button');
  await kim.keyboard.press('Enter');
  await expect(kim.getByTestId('page-project-create')).toBeVisible();
  await typeInto(kim, 'project-title-input', `Keys ${id}`);
  await typeInto(kim, 'project-description-input', 'Growth of strain K12, by keyboard');
  // The participant: found by name in the picker, ticked with Space.
  await typeInto(kim, 'picker-search', reviewer.name);
  await expect(kim.getByTestId('picker-results').getByTestId(`picker-user-${reviewer.userId}`)).toBeVisible();
  // The answer to the whole name, not an earlier one still shown while it is asked.
  await expect(kim.getByTestId('picker-results')).not.toHaveClass(/is-stale/);
  await tabTo(kim, `picker-user-${reviewer.userId}`);
  await kim.keyboard.press('Space');
  await expect(kim.getByTestId(`picker-chip-${reviewer.userId}`)).toBeVisible();
  await tabTo(kim, 'project-save');
  await kim.keyboard.press('Enter');
  await expect(kim.getByTestId('page-project-detail')).toBeVisible();
  await expect(kim.getByTestId('project-detail-title')).toHaveText(`Keys ${id}`);

  // --- A note, opened in the editor.
  await typeInto(kim, 'new-note-title', 'Growth curve');
  await kim.keyboard.press('Enter');
  await expect(prose(kim)).toHaveAttribute('contenteditable', 'true');
  await expect(kim.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
  await tabTo(kim, 'editor');
  await kim.keyboard.type('Optical density of K12 at 37 °C.');

  // --- A 5 x 2 table through the toolbar: Alt+F10, arrows to Table, Enter; the dialog's fields by Tab.
  await kim.keyboard.press('Alt+F10');
  await expect.poll(() => focused(kim)).toBe('toolbar-block');
  await arrowTo(kim, 'toolbar-table');
  await kim.keyboard.press('Enter');
  await expect(kim.getByTestId('table-dialog')).toBeVisible();
  expect(await seriousViolations(kim, 'table dialog')).toEqual([]);
  await tabTo(kim, 'table-rows');
  await kim.keyboard.press('Control+A');
  await kim.keyboard.type('5');
  await tabTo(kim, 'table-columns');
  await kim.keyboard.press('Control+A');
  await kim.keyboard.type('2');
  await kim.keyboard.press('Enter');
  await expect(prose(kim).locator('table tr')).toHaveCount(5);
  // The text has focus again (a frame after the dialog closed) before the keys go on.
  await expect.poll(() => focused(kim)).toContain('ProseMirror');
  // The header is labelled, its first label selected: typing replaces it; Tab selects the next cell's text.
  await expect(prose(kim).locator('th')).toHaveText(['Column 1', 'Column 2']);
  for (const value of ['Sample', 'OD600', 'A', '0.42', 'B', '0.58', 'C', '0.71']) {
    await kim.keyboard.type(value);
    await kim.keyboard.press('Tab');
  }
  await expect(prose(kim).locator('th')).toHaveText(['Sample', 'OD600']);
  await expect(prose(kim).locator('tr').nth(3).locator('td')).toHaveText(['C', '0.71']);

  // --- Merge the last row's two cells: Shift+Arrow makes the range, Alt+F10 keeps it, arrows to Merge.
  await kim.keyboard.press('Shift+ArrowRight');
  await expect(prose(kim).locator('.selectedCell')).toHaveCount(2);
  await kim.keyboard.press('Alt+F10');
  await expect.poll(() => focused(kim)).toBe('table-add-row');
  await arrowTo(kim, 'table-merge');
  await kim.keyboard.press('Enter');
  await expect(prose(kim).locator('td[colspan="2"]')).toHaveCount(1);
  await expect.poll(() => focused(kim)).toContain('ProseMirror');
  await kim.keyboard.type('Read at 600 nm');
  await expect(prose(kim).locator('td[colspan="2"]')).toHaveText('Read at 600 nm');

  // --- A chart from A..C and their readings: Shift+Tab back to "A", then Shift+Arrows widen the range.
  for (let i = 0; i < 6; i += 1) await kim.keyboard.press('Shift+Tab');
  await kim.keyboard.press('Shift+ArrowRight');
  await kim.keyboard.press('Shift+ArrowDown');
  await kim.keyboard.press('Shift+ArrowDown');
  await expect(prose(kim).locator('.selectedCell')).toHaveCount(6);
  await kim.keyboard.press('Alt+F10');
  // The chart is on the toolbar's first row: back along it (the arrows wrap between rows).
  await arrowTo(kim, 'toolbar-chart', 'ArrowLeft');
  await kim.keyboard.press('Enter');
  await expect(kim.getByTestId('chart-dialog')).toBeVisible();
  await expect(kim.getByTestId('chart-range')).toContainText('A2');
  expect(await seriousViolations(kim, 'chart dialog')).toEqual([]);
  await typeInto(kim, 'chart-name', 'Growth');
  await typeInto(kim, 'chart-label', 'Sample');
  await typeInto(kim, 'chart-data-name', 'OD600');
  await kim.keyboard.press('Enter');
  await expect(kim.getByTestId('chart-dialog')).toHaveCount(0);
  await expect.poll(() => focused(kim)).toContain('ProseMirror');
  await expect(prose(kim).getByTestId('chart-block')).toHaveCount(1);
  // The caret is after the chart: what is typed lands in a new paragraph and the chart stays.
  await kim.keyboard.type('Doubling time about 30 min.');
  await expect(prose(kim)).toContainText('Doubling time about 30 min.');
  await expect(prose(kim).getByTestId('chart-block')).toHaveCount(1);

  // --- A version, then a signature requested from the participant as reviewer.
  await expect(kim.getByTestId('save-state')).toHaveAttribute('data-saved', 'yes');
  await tabTo(kim, 'save-version', { back: true });
  await kim.keyboard.press('Enter');
  await expect(kim.getByTestId('note-version')).toHaveAttribute('data-version', '1');
  await tabTo(kim, 'signature-request');
  await kim.keyboard.press('Enter');
  const requestDialog = kim.getByTestId('signature-request-dialog');
  await expect(requestDialog.getByTestId(`signature-request-signer-${reviewer.userId}`)).toBeVisible();
  await tabTo(kim, `signature-request-signer-${reviewer.userId}`);
  await kim.keyboard.press('Space');
  await tabTo(kim, `signature-request-type-${reviewer.userId}`);
  await kim.keyboard.press('Home');
  await expect(requestDialog.getByTestId(`signature-request-type-${reviewer.userId}`)).toHaveValue('reviewer');
  await tabTo(kim, 'signature-request-submit');
  await kim.keyboard.press('Enter');
  await expect(requestDialog).toHaveCount(0);
  const kimEntry = kim.getByTestId('signatures').getByTestId('signature-entry');
  await expect(kimEntry).toHaveAttribute('data-status', 'R');

  // --- The reviewer signs, by keyboard too: the dialog opens on the password; Enter signs.
  const yoon = await keyboardUser(browser, reviewer);
  const noteUrl = new URL(kim.url()).pathname;
  await yoon.goto(noteUrl);
  await expect(prose(yoon)).toContainText('Doubling time about 30 min.');
  await tabTo(yoon, 'signature-sign');
  await yoon.keyboard.press('Enter');
  await expect(yoon.getByTestId('signature-dialog')).toBeVisible();
  await expect.poll(() => focused(yoon)).toBe('signature-password');
  await yoon.keyboard.type(reviewer.password);
  await yoon.keyboard.press('Enter');
  await expect(yoon.getByTestId('signature-dialog')).toHaveCount(0);
  const yoonEntry = yoon.getByTestId('signatures').getByTestId('signature-entry');
  await expect(yoonEntry).toHaveAttribute('data-status', 'T');
  await expect(kimEntry).toHaveAttribute('data-status', 'T');
  // Signed, the note is read-only for both, and its chart offers no edit any more (it did, once).
  for (const page of [kim, yoon]) {
    await expect(prose(page)).toHaveAttribute('contenteditable', 'false');
    await expect(page.getByTestId('chart-block')).toBeVisible();
    await expect(page.getByTestId('chart-edit')).toHaveCount(0);
  }
  await shot(yoon, 'keyboard-only-signed-note', false);
  expect(await mouseUsed(kim)).toEqual([]);
  expect(await mouseUsed(yoon)).toEqual([]);
  expect(await seriousViolations(yoon, 'signed note')).toEqual([]);
  await kim.context().close();
  await yoon.context().close();
});

test('the editor toolbar is one Tab stop: arrows, Home and End move along it, Tab leaves it, and it remembers the last item', async ({
  browser,
  request,
}) => {
  const token = await apiSignIn(request, E2E.member);
  const { projectNo } = await callApi(request, token, api.projects.create, {
    title: `Roving ${unique()}`,
    signatureList: { department: '', user: E2E.member.userId },
  });
  const { labNoteNo } = await callApi(request, token, api.notes.create, { projectNo, title: 'Toolbar note' });
  const page = await keyboardUser(browser, E2E.member);
  await page.goto(`/note/${labNoteNo}`);
  await expect(prose(page)).toHaveAttribute('contenteditable', 'true');
  await tabTo(page, 'editor');
  await page.keyboard.type('Some text');
  await page.keyboard.press('Alt+F10');
  await expect.poll(() => focused(page)).toBe('toolbar-block');
  // Exactly one item of the toolbar is in the Tab order.
  const tabStops = () =>
    page
      .getByTestId('editor-toolbar')
      .locator('button:not([disabled]), select')
      .evaluateAll((items) => items.filter((item) => (item as HTMLElement).tabIndex === 0).length);
  expect(await tabStops()).toBe(1);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => focused(page)).toBe('toolbar-bold');
  await page.keyboard.press('End');
  await expect.poll(() => focused(page)).toBe('toolbar-schema');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => focused(page)).toBe('toolbar-block');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => focused(page)).toBe('toolbar-schema');
  await page.keyboard.press('Home');
  await arrowTo(page, 'toolbar-italic');
  // Tab leaves the toolbar for the text; Shift+Tab comes back to the item last used.
  await page.keyboard.press('Tab');
  await expect.poll(() => focused(page)).toContain('ProseMirror');
  await page.keyboard.press('Shift+Tab');
  await expect.poll(() => focused(page)).toBe('toolbar-italic');
  expect(await tabStops()).toBe(1);
  expect(await mouseUsed(page)).toEqual([]);
  await page.context().close();
});

test('focus follows the route: the new page’s heading, a new note’s text; Escape, then Tab leaves the editor from a table, as its keyboard help says', async ({
  browser,
  request,
}) => {
  test.setTimeout(hangTimeout(120_000));
  const token = await apiSignIn(request, E2E.member);
  const { projectNo } = await callApi(request, token, api.projects.create, {
    title: `Focus ${unique()}`,
    signatureList: { department: '', user: E2E.member.userId },
  });
  const page = await keyboardUser(browser, E2E.member);
  const activeId = () => page.evaluate(() => document.activeElement?.id ?? '');

  // The main menu's link: focus moves to the new page's heading (not left on the menu or the body).
  await tabTo(page, 'nav-project');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('page-project')).toBeVisible();
  await expect.poll(activeId).toBe('page-project-title');
  // A link inside the page that goes away with it: focus on the next page's heading, not on the body.
  for (let presses = 0; presses < 60; presses += 1) {
    const href = await page.evaluate(() => document.activeElement?.getAttribute('href'));
    if (href === `/project/${projectNo}`) break;
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('page-project-detail')).toBeVisible();
  await expect.poll(activeId).toBe('page-project-detail-title');

  // A new note: its text has focus, with no Tab, and shows a ring.
  await typeInto(page, 'new-note-title', 'Focus note');
  await page.keyboard.press('Enter');
  await expect(prose(page)).toHaveAttribute('contenteditable', 'true');
  await expect.poll(() => focused(page)).toContain('ProseMirror');
  await page.keyboard.type('Typed at once.');
  await expect(prose(page)).toContainText('Typed at once.');
  await expect(prose(page)).toHaveCSS('outline-style', 'solid');
  await expect(page.getByTestId('editor-keys')).toContainText('Escape, then Tab or Shift+Tab: leave the editor');

  // A table: Tab moves between its cells and stays in the text.
  await page.keyboard.press('Alt+F10');
  await arrowTo(page, 'toolbar-table');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('table-dialog')).toBeVisible();
  await tabTo(page, 'table-rows');
  await page.keyboard.press('Enter');
  await expect(prose(page).locator('table')).toHaveCount(1);
  await expect.poll(() => focused(page)).toContain('ProseMirror');
  for (let i = 0; i < 3; i += 1) {
    await page.keyboard.press('Tab');
    expect(await focused(page)).toContain('ProseMirror');
  }
  // Escape, then Tab: out of the text, to what follows it (a control put there for the test, as a page
  // may have); Shift+Tab back into the text.
  await page.evaluate(() => {
    const next = document.createElement('button');
    next.dataset.testid = 'after-editor';
    next.textContent = 'After';
    document.querySelector('[data-testid="note-view"]')?.append(next);
  });
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect.poll(() => focused(page)).toBe('after-editor');
  await page.keyboard.press('Shift+Tab');
  await expect.poll(() => focused(page)).toContain('ProseMirror');
  // Escape, then Shift+Tab: to the toolbar, its one Tab stop.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Shift+Tab');
  await expect
    .poll(() =>
      page.evaluate(() => document.activeElement?.closest('[data-testid="editor-toolbar"], [data-testid="table-toolbar"]') !== null),
    )
    .toBe(true);
  // Any other key between Escape and Tab keeps Tab in the table.
  await page.keyboard.press('Escape');
  await expect.poll(() => focused(page)).toContain('ProseMirror');
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toContain('ProseMirror');
  expect(await mouseUsed(page)).toEqual([]);
  await page.context().close();
});
