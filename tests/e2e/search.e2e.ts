import { api, LIMITS } from '@eln/shared';
import { expect, test } from './test.js';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E, hangTimeout } from './fixtures.js';
import { apiSignIn, callApi, eachDisplay, openAs, prose, seriousViolations, shot, unique } from './support.js';

/**
 * Search from the header (Ctrl+K or `/`, hits grouped by kind as one types, arrows and Enter), a hit
 * opening its note scrolled to the block and highlighted, and the results page with its filters in the URL.
 */

/** Waits until the search call finds `q` (the index follows the live document within seconds). */
async function findable(request: APIRequestContext, token: string, q: string): Promise<void> {
  await expect
    .poll(async () => (await callApi(request, token, api.search.search, { q, page: 1, pageSize: 10 })).totalCount, {
      timeout: hangTimeout(20_000),
    })
    .toBeGreaterThan(0);
}

/** The header's field (not `getByRole('combobox')`: a page's selects are comboboxes too). */
const combobox = (page: Page) => page.getByTestId('header-search-input');

/**
 * Ctrl+K until the header's field has the focus: a press that lands while the page is still starting
 * (its shortcut not yet listening) goes nowhere, as it would for a person, who presses again.
 */
async function openHeaderSearch(page: Page): Promise<void> {
  await expect(async () => {
    if (!(await combobox(page).evaluate((field) => field === document.activeElement))) await page.keyboard.press('Control+k');
    await expect(combobox(page)).toBeFocused({ timeout: 1_000 });
  }).toPass({ timeout: hangTimeout(15_000) });
}

test.describe('search', () => {
  test.setTimeout(hangTimeout(240_000));

  test('Ctrl+K, type, Enter opens the note at the found block, highlighted; the results page takes its filters from the URL', async ({
    browser,
    request,
  }) => {
    const id = unique();
    // Letters only: the index splits letters from digits, and the test types a prefix of one word.
    const word = `Zeolite${id.replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)]!)}`;
    const token = await apiSignIn(request, E2E.member);
    const { projectNo } = await callApi(request, token, api.projects.create, {
      title: `Sieves ${id}`,
      description: '',
      signatureList: { department: '', user: E2E.member.userId },
    });
    const title = `Drying ${id}`;
    const { labNoteNo } = await callApi(request, token, api.notes.create, { projectNo, title });

    const kim = await openAs(browser, E2E.member);
    await kim.goto(`/editor/${labNoteNo}`);
    await expect(kim.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
    await prose(kim).click();
    // Enough lines above the found one that it starts below the window: the note must scroll to it.
    await kim.keyboard.type('Molecular sieves were activated overnight.');
    for (let line = 0; line < 30; line += 1) await kim.keyboard.press('Enter');
    await kim.keyboard.type(`The ${word} bed dried the 2-propanol to 10 ppm.`);
    await expect(kim.getByTestId('save-state')).toHaveAttribute('data-saved', 'yes');
    const found = prose(kim).locator('p', { hasText: word });
    const uid = await found.getAttribute('data-block-uid');
    expect(uid).toBeTruthy();
    await findable(request, token, word);

    // Ctrl+K from a page, type: the hit appears under its kind, the words marked.
    await kim.goto('/project');
    await expect(kim.getByTestId('page-project')).toBeVisible();
    await openHeaderSearch(kim);
    await expect(combobox(kim)).toHaveAttribute('aria-expanded', 'true');
    await expect(kim.getByTestId('header-search-idle')).toBeVisible();
    await kim.keyboard.type(word.toLowerCase().slice(0, -1));
    const hit = kim.getByTestId('header-search-hit').filter({ hasText: title });
    await expect(hit).toHaveCount(1);
    // A prefix finds the word; the whole word is marked.
    await expect(hit.locator('mark')).toHaveText(word);
    await expect(kim.getByRole('listbox').getByRole('group', { name: 'Notes' })).toContainText(title);
    await shot(kim, 'search-header-s-en', false);
    expect(await seriousViolations(kim, 'header search open')).toEqual([]);

    // The arrows move the active option (the focus stays in the field); Escape closes the list.
    await kim.keyboard.press('ArrowDown');
    await expect(hit).toHaveAttribute('aria-selected', 'true');
    await expect(combobox(kim)).toHaveAttribute('aria-activedescendant', (await hit.getAttribute('id'))!);
    await kim.keyboard.press('Escape');
    await expect(combobox(kim)).toHaveAttribute('aria-expanded', 'false');
    await expect(kim.getByTestId('header-search-popup')).toBeHidden();

    // Down again opens it; Enter opens the note at the block, scrolled into view and highlighted.
    await kim.keyboard.press('ArrowDown');
    await expect(hit).toHaveAttribute('aria-selected', 'true');
    await kim.keyboard.press('Enter');
    await expect(kim).toHaveURL(new RegExp(`/note/${labNoteNo}\\?block=${uid}$`));
    const highlighted = prose(kim).locator('[data-block-found="yes"]');
    await expect(highlighted).toHaveAttribute('data-block-uid', uid!);
    await expect(highlighted).toHaveClass(/block-found/);
    await expect(highlighted).toBeInViewport();
    await expect(kim.getByTestId('header-search-popup')).toBeHidden();
    await kim.screenshot({ path: 'tests/e2e/screenshots/search-found-block-s-en.png', animations: 'disabled' });

    // `/` opens the search from the page, but is a character in a field.
    await kim.goto('/project');
    await kim.getByTestId('project-search-word').click();
    await kim.keyboard.press('/');
    await expect(kim.getByTestId('project-search-word')).toHaveValue('/');
    await expect(combobox(kim)).not.toBeFocused();
    await kim.getByTestId('page-project').getByRole('heading').click();
    await kim.keyboard.press('/');
    await expect(combobox(kim)).toBeFocused();
    await kim.keyboard.press('Escape');

    // Nothing matching: said so, with the way to the results page still offered.
    await kim.keyboard.type('qqxqqnothing');
    await expect(kim.getByTestId('header-search-empty')).toBeVisible();
    // Enter with no option chosen opens the results page for the words.
    await combobox(kim).fill(word);
    await expect(hit).toHaveCount(1);
    await kim.keyboard.press('Enter');
    await expect(kim).toHaveURL(new RegExp(`/search\\?w=${word}$`));
    await expect(kim.getByTestId('search-result').first()).toContainText(title);

    // The results page reads its filters from the URL: kinds and project found, a status that excludes it not.
    await kim.goto(`/search?w=${word}&k=note&pj=${projectNo}`);
    await expect(kim.getByTestId('search-result')).toHaveCount(1);
    await expect(kim.getByTestId('search-result')).toHaveAttribute('href', `/note/${labNoteNo}?block=${uid}`);
    await expect(kim.getByTestId('search-page-words')).toHaveValue(word);
    await expect(kim.getByTestId('search-page-project')).toHaveValue(String(projectNo));
    await expect(kim.getByTestId('search-page-kinds').locator('[data-value="note"]')).toHaveAttribute('aria-pressed', 'true');
    expect(await seriousViolations(kim, 'results page')).toEqual([]);
    await kim.goto(`/search?w=${word}&st=F`);
    await expect(kim.getByTestId('search-page-empty')).toBeVisible();
    // Choosing a filter on the page writes it to the URL (and a new search starts at page 1).
    await kim.getByTestId('search-page-status').selectOption('W');
    await kim.getByTestId('search-page-submit').click();
    await expect(kim).toHaveURL(new RegExp(`/search\\?w=${word}&st=W$`));
    await expect(kim.getByTestId('search-result')).toHaveCount(1);
    await kim.getByTestId('search-result').click();
    await expect(prose(kim).locator('[data-block-found="yes"]')).toHaveAttribute('data-block-uid', uid!);

    // On a phone the field stays in the header (outside the folded menu), and its list spans the screen.
    await kim.setViewportSize({ width: 400, height: 800 });
    await kim.goto('/');
    await expect(kim.getByTestId('dashboard')).toBeVisible();
    await openHeaderSearch(kim);
    await kim.keyboard.type(word);
    await expect(hit).toBeInViewport();
    await shot(kim, 'search-header-narrow-s-en', false);

    // Both themes and three languages: the open header list and the results page.
    await kim.setViewportSize({ width: 1360, height: 900 });
    await kim.goto('/');
    await expect(kim.getByTestId('dashboard')).toBeVisible();
    await eachDisplay(kim, {
      displays: [
        ['en', 'b'],
        ['ko', 'b'],
        ['ko', 's'],
        ['ja', 's'],
        ['ja', 'b'],
      ],
      visit: async ({ language, theme, name }) => {
        await openHeaderSearch(kim);
        await combobox(kim).fill('');
        await kim.keyboard.type(word.slice(0, 8));
        await expect(kim.getByTestId('header-search-hit').filter({ hasText: title })).toHaveCount(1);
        await shot(kim, `search-header-${name}`, false);
        // axe once per theme (the standard theme's list is checked above, in English).
        if (name === 'b-ko') expect(await seriousViolations(kim, `header search ${name}`)).toEqual([]);
        if (theme === 'b' && language === 'en') {
          await kim.keyboard.press('ArrowDown');
          await kim.keyboard.press('Enter');
          await expect(prose(kim).locator('[data-block-found="yes"]')).toBeInViewport();
          await kim.screenshot({ path: 'tests/e2e/screenshots/search-found-block-b-en.png', animations: 'disabled' });
        }
        await kim.goto(`/search?w=${word}&pj=${projectNo}`);
        await expect(kim.getByTestId('search-result')).toHaveCount(1);
        await shot(kim, `search-page-${name}`);
      },
    });
    await kim.context().close();
  });
  test('an attachment is found by its text, the hit says whether a saved version holds it, and opens the note at its block', async ({
    browser,
    request,
  }) => {
    const id = unique();
    const word = `Bentonite${id.replace(/\d/g, (digit) => 'uvwxyzabcd'[Number(digit)]!)}`;
    const token = await apiSignIn(request, E2E.member);
    const { projectNo } = await callApi(request, token, api.projects.create, {
      title: `Clays ${id}`,
      description: '',
      signatureList: { department: '', user: E2E.member.userId },
    });
    const title = `Swelling ${id}`;
    const { labNoteNo } = await callApi(request, token, api.notes.create, { projectNo, title });
    const kim = await openAs(browser, E2E.member);
    await kim.goto(`/note/${labNoteNo}`);
    await expect(kim.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
    const text = `Swelling index of ${word} in 0.1 M NaCl: 24 mL/2 g.\n`;
    await kim.getByTestId('file-input').setInputFiles({ name: `clay-${id}.txt`, mimeType: 'text/plain', buffer: Buffer.from(text) });
    await expect(kim.getByTestId('save-state')).toHaveAttribute('data-saved', 'yes');
    await findable(request, token, word);
    const [found] = (await callApi(request, token, api.search.search, { q: word, page: 1, pageSize: 10 })).list;
    expect(found).toMatchObject({ kind: 'file', labNoteNo, title: `clay-${id}.txt`, version: null, fileText: 'extracted' });

    // Found under Attachments by a word of its text, in the unsaved draft; Enter opens the note at the file's block.
    await kim.goto('/project');
    await expect(kim.getByTestId('page-project')).toBeVisible();
    await openHeaderSearch(kim);
    await kim.keyboard.type(word);
    const hit = kim.getByRole('listbox').getByRole('group', { name: 'Attachments' }).getByTestId('header-search-hit');
    await expect(hit).toHaveCount(1);
    await expect(hit).toContainText(`clay-${id}.txt`);
    await expect(hit).toContainText('unsaved draft');
    await expect(hit.locator('mark')).toHaveText(word);
    await shot(kim, 'search-attachment-s-en', false);
    await kim.keyboard.press('ArrowDown');
    await kim.keyboard.press('Enter');
    await expect(kim).toHaveURL(new RegExp(`/note/${labNoteNo}\\?block=${found!.uid}$`));
    // The file's block (a node view, its uid kept in the document) is the one highlighted.
    const highlighted = kim.locator('[data-block-found="yes"]');
    await expect(highlighted).toHaveCount(1);
    await expect(highlighted).toHaveClass(/node-fileAttachment/);
    await expect(highlighted).toContainText(`clay-${id}.txt`);
    await expect(highlighted).toBeInViewport();
    await shot(kim, 'search-attachment-found-s-en', false);

    // Saved: the hit names the version that holds it.
    await callApi(request, token, api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
    await expect
      .poll(async () => (await callApi(request, token, api.search.search, { q: word, page: 1, pageSize: 10 })).list[0]?.version, {
        timeout: hangTimeout(20_000),
      })
      .toBe(1);
    await kim.goto(`/search?w=${word}`);
    await expect(kim.getByTestId('search-result')).toHaveCount(1);
    await expect(kim.getByTestId('search-result')).toContainText('version 1');
    const saved = { ko: '버전 1', ja: 'バージョン 1' } as const;
    await eachDisplay(kim, {
      displays: [
        ['ko', 'b'],
        ['ja', 's'],
      ],
      visit: async ({ language }) => {
        if (language === 'en') throw new Error('ko and ja only');
        await kim.goto(`/search?w=${word}`);
        await expect(kim.getByTestId('search-result')).toContainText(saved[language]);
      },
      shot: 'search-attachment-page',
    });
    await kim.context().close();
  });

  test('projects, templates, schemas and dropboxes are found under their kinds, and each hit opens its own screen', async ({
    browser,
    request,
  }) => {
    const id = unique();
    // One made-up word in every kind's record: letters only, so the index keeps it one word.
    const word = `Orthoclase${id.replace(/\d/g, (digit) => 'klmnopqrst'[Number(digit)]!)}`;
    const token = await apiSignIn(request, E2E.admin);
    const { projectNo } = await callApi(request, token, api.projects.create, {
      title: `Feldspar ${id}`,
      description: `Survey of ${word} samples`,
      signatureList: { department: '', user: E2E.member.userId },
    });
    // A template title has at most LIMITS.templateTitle (25) characters, and `id` grows as a worker's run goes on.
    const { templateNo } = await callApi(request, token, api.templates.create, { title: `${word} digest`, description: '' });
    const { schemasTypeNo } = await callApi(request, token, api.schemas.create, {
      code: `MIN-${id}`,
      title: `Mineral shelf ${id}`,
      description: '',
      schemas: [{ title: 'Potassium feldspar', description: '', entries: [{ field: 'Variety', value: word }] }],
    });
    const { dropboxNo } = await callApi(request, token, api.dropboxes.create, {
      title: `Minerals ${id}`,
      status: 'Y',
      rows: [{ code: `KSP-${id}`, name: word }],
    });
    await expect
      .poll(async () => (await callApi(request, token, api.search.search, { q: word, page: 1, pageSize: 10 })).totalCount, {
        timeout: hangTimeout(20_000),
      })
      .toBe(4);

    const park = await openAs(browser, E2E.admin);
    await expect(park.getByTestId('dashboard')).toBeVisible();
    await openHeaderSearch(park);
    await park.keyboard.type(word);
    const listbox = park.getByRole('listbox');
    for (const [group, title] of [
      ['Projects', `Feldspar ${id}`],
      ['Templates', `${word} digest`],
      ['Schemas', `Mineral shelf ${id}`],
      ['Dropboxes', `Minerals ${id}`],
    ]) {
      await expect(listbox.getByRole('group', { name: group }).getByTestId('header-search-hit')).toHaveCount(1);
      await expect(listbox.getByRole('group', { name: group })).toContainText(title!);
    }
    await expect(park.getByTestId('header-search-hit').locator('mark').first()).toHaveText(word);
    await shot(park, 'search-header-kinds-s-en', false);

    // Each hit opens its record's own screen: chosen with the arrows and Enter, as a keyboard user does.
    for (const [position, path, screen] of [
      [0, `/project/${projectNo}`, 'page-project-detail'],
      [1, `/template/note/${templateNo}`, null],
      [2, `/schema/${schemasTypeNo}`, null],
      [3, `/dropbox/${dropboxNo}`, null],
    ] as const) {
      await park.goto('/');
      await expect(park.getByTestId('dashboard')).toBeVisible();
      await openHeaderSearch(park);
      await park.keyboard.type(word);
      await expect(park.getByTestId('header-search-hit')).toHaveCount(4);
      for (let step = 0; step <= position; step += 1) await park.keyboard.press('ArrowDown');
      await park.keyboard.press('Enter');
      await expect(park).toHaveURL(new RegExp(`${path}$`));
      if (screen) await expect(park.getByTestId(screen)).toBeVisible();
      await expect(park.getByRole('heading', { level: 1 })).toBeVisible();
    }

    // The results page lists them by kind, and a kind filter keeps only that kind.
    await park.goto(`/search?w=${word}`);
    await expect(park.getByTestId('search-result')).toHaveCount(4);
    await park.goto(`/search?w=${word}&k=dropbox`);
    await expect(park.getByTestId('search-result')).toHaveCount(1);
    await expect(park.getByTestId('search-result')).toHaveAttribute('href', `/dropbox/${dropboxNo}`);
    await shot(park, 'search-page-kinds-s-en');
    await park.context().close();
  });

  test('more matches than are ranked: the count shows with a plus, in three languages', async ({ browser, request }) => {
    const id = unique();
    const word = `Perlite${id.replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)]!)}`;
    const token = await apiSignIn(request, E2E.member);
    // A project: indexed from its table at once (a new note's title waits for its first stored document).
    await callApi(request, token, api.projects.create, {
      title: `${word} expansion`,
      description: '',
      signatureList: { department: '', user: E2E.member.userId },
    });
    await findable(request, token, word);
    const shown = {
      en: { page: 'Total 1,000+', header: '1,000+ results' },
      ko: { page: '전체 1,000+건', header: '결과 1,000+건' },
      ja: { page: '全1,000+件', header: '1,000+ 件' },
    };
    const page = await openAs(browser, E2E.member);
    // The answer as the server gives it past LIMITS.searchRanked matches (ranked.api.test.ts makes such
    // a count; a browser test does not type a thousand blocks): its count capped, `more` set.
    await page.route(`**/server${api.search.search.path}`, async (route) => {
      const response = await route.fetch();
      const answer = (await response.json()) as { data: Record<string, unknown> };
      await route.fulfill({ response, json: { ...answer, data: { ...answer.data, totalCount: LIMITS.searchRanked, more: true } } });
    });
    await eachDisplay(page, {
      displays: [
        ['en', 's'],
        ['ko', 's'],
        ['ja', 's'],
      ],
      visit: async ({ language }) => {
        await page.goto(`/search?w=${word}`);
        await expect(page.getByTestId('search-result')).toHaveCount(1);
        await expect(page.getByTestId('search-page-total')).toHaveText(shown[language].page);
        await openHeaderSearch(page);
        await page.keyboard.type(word);
        await expect(page.getByTestId('header-search-all')).toContainText(shown[language].header);
      },
      shot: 'search-more',
      fullPage: false,
    });
    await page.context().close();
  });
});
