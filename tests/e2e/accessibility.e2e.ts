import { api } from '@eln/shared';
import { expect, test } from './test.js';
import type { Page } from '@playwright/test';
import { E2E, hangTimeout } from './fixtures.js';
import { callApi, apiSignIn, openAs, prose, seriousViolations as violations, showIn, shot, unique } from './support.js';

/**
 * WCAG 2.2 AA as axe-core checks it, in chromium: the screens below in both themes and in Korean, and
 * the licence dialog, with no critical or serious violation allowed. axe is injected by Playwright, so
 * the app's Content-Security-Policy stays as strict as production serves it. Keyboard paths and
 * announcements axe cannot see are not covered here (issue 16).
 */

/** Opens a path and waits for its page to be shown (and its data loaded). */
async function visit(page: Page, path: string, ready: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByTestId(ready)).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

for (const [theme, language] of [
  ['s', 'en'],
  ['b', 'en'],
  ['s', 'ko'],
] as const) {
  test(`screens in theme ${theme}, ${language}, have no serious accessibility violation`, async ({ browser, request }) => {
    test.setTimeout(hangTimeout(360_000));
    const token = await apiSignIn(request, E2E.member);
    const { projectNo } = await callApi(request, token, api.projects.create, {
      title: `A11y ${unique()}`,
      signatureList: { department: '', user: E2E.member.userId },
    });
    const { labNoteNo } = await callApi(request, token, api.notes.create, { projectNo, title: 'Scanned note' });
    const found: string[] = [];

    const guest = await (await browser.newContext({ locale: language })).newPage();
    await guest.addInitScript(
      ([t, l]) => {
        window.localStorage.setItem('eln.theme', t);
        window.localStorage.setItem('eln.language', l);
      },
      [theme, language] as const,
    );
    await visit(guest, '/signin', 'signin-submit');
    found.push(...(await violations(guest, 'sign-in')));

    const admin = await openAs(browser, E2E.admin, { theme, language });
    found.push(...(await violations(admin, 'dashboard')));
    const screens: Array<[string, string]> = [
      ['/project', 'page-project'],
      ['/project/create', 'page-project-create'],
      [`/project/${projectNo}`, 'page-project-detail'],
      ['/template', 'page-template'],
      ['/dropbox', 'page-dropbox'],
      ['/dropbox/create', 'page-dropbox-create'],
      ['/admin', 'page-admin'],
      ['/admin/audit', 'page-admin-audit'],
      ['/admin/department', 'page-admin-department'],
      ['/admin/download', 'page-admin-download'],
    ];
    for (const [path, ready] of screens) {
      await visit(admin, path, ready);
      found.push(...(await violations(admin, path)));
    }
    await admin.getByTestId('nav-admin').click();
    await admin.getByTestId('nav-admin-info').click();
    await expect(admin.getByTestId('licence-dialog')).toBeVisible();
    found.push(...(await violations(admin, 'licence dialog')));
    await admin.keyboard.press('Escape');
    await visit(admin, '/notFound', 'page-not-found');
    found.push(...(await violations(admin, '/notFound')));

    const member = await openAs(browser, E2E.member, { theme, language });
    await member.goto(`/note/${labNoteNo}`);
    await expect(prose(member)).toHaveAttribute('contenteditable', 'true');
    found.push(...(await violations(member, 'note editor')));

    expect(found).toEqual([]);
  });
}

/** What shows that the focused element has focus, read in the page: an outline, or the drawn box of a hidden input. */
interface FocusIndicator {
  what: string;
  visible: boolean;
  contrast: number;
}

/** Reads the indicator of document.activeElement (transitions run to their end) and its contrast against what is behind it. */
function readFocusIndicator(): FocusIndicator | null {
  for (const animation of document.getAnimations()) if (animation instanceof CSSTransition) animation.finish();
  const element = document.activeElement as HTMLElement | null;
  if (!element || element === document.body) return null;
  const rgb = (value: string) => (value.match(/[\d.]+/g) ?? []).map(Number);
  const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
    const channel = (c: number) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const pairContrast = (a: number[], b: number[]) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
    return (hi + 0.05) / (lo + 0.05);
  };
  /** The colours behind a node: the first opaque background, or every stop of a gradient (theme b's header). */
  const backdrop = (node: Element | null): number[][] => {
    for (let n = node; n; n = n.parentElement) {
      const style = getComputedStyle(n);
      const stops = style.backgroundImage.match(/rgba?\([^)]+\)/g);
      if (stops?.length) return stops.map(rgb);
      const colour = rgb(style.backgroundColor);
      if (colour.length === 3 || (colour[3] ?? 0) > 0.9) return [colour];
    }
    return [[255, 255, 255]];
  };
  /** Against a gradient, the weakest of its stops counts. */
  const contrastOf = (colour: number[], behind: number[][]) => Math.min(...behind.map((b) => pairContrast(colour, b)));
  const what = `${element.tagName.toLowerCase()}${element.dataset.testid ? `[${element.dataset.testid}]` : ''} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 30)}"`;
  // A visually hidden checkbox or switch input shows focus on the box drawn beside it.
  const drawn = element.matches('.checkbox input, .switch input') ? (element.nextElementSibling as HTMLElement | null) : null;
  if (drawn) {
    const shadow = getComputedStyle(drawn).boxShadow;
    const colours = shadow.match(/rgba?\([^)]+\)/g) ?? [];
    const best = Math.max(0, ...colours.map((c) => contrastOf(rgb(c), backdrop(drawn.parentElement))));
    return { what, visible: shadow !== 'none', contrast: best };
  }
  const style = getComputedStyle(element);
  if (element.matches('.input'))
    return { what, visible: style.boxShadow !== 'none', contrast: contrastOf(rgb(style.borderTopColor), backdrop(element.parentElement)) };
  const width = Number.parseFloat(style.outlineWidth);
  return {
    what,
    visible: style.outlineStyle !== 'none' && width >= 2,
    contrast: contrastOf(rgb(style.outlineColor), backdrop(element.parentElement)),
  };
}

for (const theme of ['s', 'b'] as const) {
  test(`focus is visible at 3:1 or more on everything the keyboard reaches, theme ${theme}`, async ({ browser }) => {
    test.setTimeout(hangTimeout(120_000));
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript((t) => window.localStorage.setItem('eln.theme', t), theme);
    const weak: string[] = [];
    let reached = 0;
    // The component page holds every kind of control under the app's header; the dashboard its cards.
    for (const [path, ready] of [
      ['/publishing/stylePage', 'style-page'],
      ['/publishing/dashboard', 'dashboard'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByTestId(ready)).toBeVisible();
      await expect(page.locator('[aria-busy="true"]:not(.style-section *)')).toHaveCount(0);
      const seen = new Set<string>();
      for (let i = 0; i < 80; i += 1) {
        await page.keyboard.press('Tab');
        const indicator = await page.evaluate(readFocusIndicator);
        if (!indicator || seen.has(indicator.what)) continue;
        seen.add(indicator.what);
        reached += 1;
        if (!indicator.visible || indicator.contrast < 3)
          weak.push(`${path} ${indicator.what}: ${indicator.visible ? `contrast ${indicator.contrast.toFixed(2)}` : 'no indicator'}`);
      }
      if (path === '/publishing/stylePage') {
        // A secondary button, the kind whose own shadow used to hide the ring.
        await page.getByTestId('style-buttons').getByRole('button').nth(1).focus();
        await shot(page, `focus-secondary-button-${theme}`, false);
      }
    }
    expect(reached).toBeGreaterThan(30);
    expect(weak).toEqual([]);
    await context.close();
  });
}

test('dialogs give focus back to what opened them: the New user button, and the Admin menu for Info', async ({ browser }) => {
  const admin = await openAs(browser, E2E.admin);
  await admin.goto('/admin');
  await expect(admin.getByTestId('user-create-button')).toBeVisible();
  const focusedTestId = () =>
    admin.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? document.activeElement?.tagName ?? null);

  await admin.getByTestId('user-create-button').focus();
  await admin.keyboard.press('Enter');
  await expect(admin.getByTestId('user-create-cancel')).toBeVisible();
  expect(await violations(admin, 'new user dialog')).toEqual([]);
  await admin.keyboard.press('Escape');
  await expect(admin.getByTestId('user-create-cancel')).toHaveCount(0);
  await expect.poll(focusedTestId).toBe('user-create-button');
  // Closed with its Cancel button, the same.
  await admin.keyboard.press('Enter');
  await admin.getByTestId('user-create-cancel').click();
  await expect.poll(focusedTestId).toBe('user-create-button');

  // Info is an item of the Admin menu, which closes as the dialog opens: focus returns to the menu's button.
  await admin.getByTestId('nav-admin').focus();
  await admin.keyboard.press('Enter');
  await admin.getByTestId('nav-admin-info').focus();
  await admin.keyboard.press('Enter');
  await expect(admin.getByTestId('licence-dialog')).toBeVisible();
  await admin.keyboard.press('Escape');
  await expect(admin.getByTestId('licence-dialog')).toHaveCount(0);
  await expect.poll(focusedTestId).toBe('nav-admin');
});

test('the save state is announced once it settles, not per keystroke, and a failed draft at once', async ({ browser, request }) => {
  const token = await apiSignIn(request, E2E.member);
  const { projectNo } = await callApi(request, token, api.projects.create, {
    title: `Calm ${unique()}`,
    signatureList: { department: '', user: E2E.member.userId },
  });
  const { labNoteNo } = await callApi(request, token, api.notes.create, { projectNo, title: 'Announced note' });
  const member = await openAs(browser, E2E.member);
  await member.goto(`/note/${labNoteNo}`);
  await expect(prose(member)).toHaveAttribute('contenteditable', 'true');
  await expect(member.getByTestId('save-announcement')).toHaveText('Saved');
  // Every change of the region's text is what a screen reader would announce.
  await member.evaluate(() => {
    const region = document.querySelector('[data-testid="save-announcement"]')!;
    const heard: string[] = [];
    (window as unknown as { heard: string[] }).heard = heard;
    new MutationObserver(() => heard.push(region.textContent ?? '')).observe(region, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  const heard = () => member.evaluate(() => (window as unknown as { heard: string[] }).heard);
  await prose(member).click();
  await member.keyboard.type('pH 7.40.', { delay: 60 });
  await expect(member.getByTestId('save-state')).toHaveText('Saved');
  await member.waitForTimeout(2_000);
  expect(await heard()).toEqual([]);

  // A draft the server refuses: said at once, in the region.
  await member.route(`**/server${api.notes.saveDraft.path}`, (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ status: '2011', message: 'failed', data: null }),
    }),
  );
  await member.keyboard.type(' Stable.');
  await expect(member.getByTestId('draft-failed')).toBeVisible();
  await expect(member.getByTestId('save-announcement')).toHaveText('Draft not saved');
});

test('the editor by keyboard: Alt+F10 reaches the toolbar with a cell range kept, merging works, Escape comes back, Tab never adds rows, the colour popover closes on Escape', async ({
  browser,
  request,
}) => {
  test.setTimeout(hangTimeout(120_000));
  const token = await apiSignIn(request, E2E.member);
  const { projectNo } = await callApi(request, token, api.projects.create, {
    title: `Keys ${unique()}`,
    signatureList: { department: '', user: E2E.member.userId },
  });
  const { labNoteNo } = await callApi(request, token, api.notes.create, { projectNo, title: 'Keyboard note' });
  const page = await openAs(browser, E2E.member);
  await page.goto(`/note/${labNoteNo}`);
  await expect(prose(page)).toHaveAttribute('contenteditable', 'true');
  const focused = () =>
    page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? document.activeElement?.className ?? '');

  // Text, then a table through the toolbar: Alt+F10, Tab to the table button, Enter, Enter on the dialog.
  await prose(page).focus();
  await page.keyboard.type('Readings');
  await page.keyboard.press('Alt+F10');
  await expect.poll(focused).toBe('toolbar-block');
  const toolbar = page.getByTestId('editor-toolbar');
  await expect(toolbar).toHaveAttribute('aria-keyshortcuts', 'Alt+F10');
  await page.getByTestId('toolbar-table').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('table-submit')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(prose(page).locator('table')).toHaveCount(1);
  // The text has focus again (a frame after the dialog closed) before the keys go on.
  await expect.poll(focused).toContain('note-prose');
  const rowsBefore = await prose(page).locator('tr').count();

  // Tab through every cell and once more in the last: the caret goes past the table, and no row is added.
  const cells = await prose(page).locator('td, th').count();
  for (let i = 0; i < cells; i += 1) await page.keyboard.press('Tab');
  await expect(prose(page).locator('tr')).toHaveCount(rowsBefore);
  await expect.poll(focused).toContain('note-prose');
  expect(await page.evaluate(() => document.getSelection()?.anchorNode?.parentElement?.closest('table') ?? null)).toBeNull();

  // A range of two cells with Shift+Arrow, then Alt+F10: the table's row of the toolbar, the range kept.
  await prose(page).locator('td').first().click();
  // The editor takes the clicked caret from the browser's selection event, which can come after the next
  // key under load: the table's toolbar row shows once the editor's own selection is in the cell.
  await expect(page.getByTestId('table-add-row')).toBeVisible();
  // (The cell is empty: one Shift+ArrowRight reaches into the next.)
  await page.keyboard.press('Shift+ArrowRight');
  await expect(prose(page).locator('.selectedCell')).toHaveCount(2);
  await page.keyboard.press('Alt+F10');
  await expect.poll(focused).toBe('table-add-row');
  await expect(prose(page).locator('.selectedCell')).toHaveCount(2);
  await expect(page.getByTestId('table-merge')).toBeEnabled();
  await page.getByTestId('table-merge').focus();
  await page.keyboard.press('Enter');
  await expect(prose(page).locator('td[colspan="2"]')).toHaveCount(1);

  // Escape from the toolbar: back in the text.
  await page.keyboard.press('Alt+F10');
  await page.keyboard.press('Escape');
  await expect.poll(focused).toContain('note-prose');

  // The colour popover: named swatches; Escape closes it and leaves focus on its button; leaving by Tab closes it.
  await prose(page).getByText('Readings').click();
  await page.keyboard.press('Alt+F10');
  await page.getByTestId('toolbar-color').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('color-popover')).toBeVisible();
  await expect(page.getByTestId('color-d92d20')).toHaveAttribute('aria-label', 'Colour Red');
  // The colour button opens a popup: it says expanded (not pressed, which is for toggles like Bold).
  const colourButton = page.getByTestId('toolbar-color');
  await expect(colourButton).toHaveAttribute('aria-expanded', 'true');
  await expect(colourButton).toHaveAttribute('aria-haspopup', 'true');
  await expect(colourButton).not.toHaveAttribute('aria-pressed', /.*/);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('color-popover')).toHaveCount(0);
  await expect(colourButton).toHaveAttribute('aria-expanded', 'false');
  await expect.poll(focused).toBe('toolbar-color');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('color-popover')).toBeVisible();
  for (let i = 0; i < 10; i += 1) await page.keyboard.press('Tab');
  await expect(page.getByTestId('color-popover')).toHaveCount(0);
});

test('the editor’s text shows focus at 3:1 or more in both themes', async ({ browser, request }) => {
  const token = await apiSignIn(request, E2E.member);
  const { projectNo } = await callApi(request, token, api.projects.create, {
    title: `Ring ${unique()}`,
    signatureList: { department: '', user: E2E.member.userId },
  });
  const { labNoteNo } = await callApi(request, token, api.notes.create, { projectNo, title: 'Ring note' });
  for (const theme of ['s', 'b'] as const) {
    const page = await openAs(browser, E2E.member, { theme });
    await page.goto(`/note/${labNoteNo}`);
    await expect(prose(page)).toHaveAttribute('contenteditable', 'true');
    await prose(page).focus();
    const indicator = await page.evaluate(readFocusIndicator);
    expect(indicator?.what).toContain('div');
    expect(indicator?.visible, `theme ${theme}`).toBe(true);
    expect(indicator?.contrast, `theme ${theme}`).toBeGreaterThanOrEqual(3);
    await expect(page.getByTestId('editor-keys')).toBeVisible();
    await shot(page, `editor-focus-ring-${theme}`, false);
    await page.context().close();
  }
});

test('the schema editor’s thumbnail buttons are named with their visible label (WCAG 2.5.3), in en, ko and ja', async ({
  browser,
  request,
}) => {
  test.setTimeout(hangTimeout(90_000));
  const id = unique();
  const curator = { userId: `label.${id.toLowerCase()}@eln.local`, password: 'curator-password-1234', name: `Label Curator ${id}` };
  await callApi(request, await apiSignIn(request, E2E.admin), api.users.create, {
    ...curator,
    level: 1,
    auth: { project: 'N', schema: 'Y', dropbox: 'N', template: 'N' },
  });
  const created = await callApi(request, await apiSignIn(request, curator), api.schemas.create, {
    code: `LABEL-${id}`,
    title: `Balances ${id}`,
    schemas: [{ title: 'Analytical balance', entries: [{ field: 'Readability', value: '0.1 mg' }] }],
  });
  const found: string[] = [];
  const page = await openAs(browser, curator);
  for (const language of ['en', 'ko', 'ja'] as const) {
    await showIn(page, language, 's');
    await page.goto(`/schema/${created.schemasTypeNo}`);
    await expect(page.getByTestId('page-schema-detail')).toBeVisible();
    await page.getByTestId('schema-child-0').click();
    for (const testId of ['schema-type-thumbnail-change', 'schema-child-thumbnail-change']) {
      const button = page.getByTestId(testId);
      await expect(button).toBeVisible();
      const visible = (await button.innerText()).trim();
      // The name starts with what the button shows, then says whose thumbnail it changes.
      expect(await button.getAttribute('aria-label'), `${language} ${testId}`).toContain(visible);
    }
    found.push(...(await violations(page, `schema editor ${language}`)));
  }
  await page.context().close();
  expect(found).toEqual([]);
});
