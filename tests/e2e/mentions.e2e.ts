import { api } from '@eln/shared';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './test.js';
import { E2E, hangTimeout } from './fixtures.js';
import {
  apiSignIn,
  callApi,
  caretTakenIn,
  createPerson,
  eachDisplay,
  openAs,
  prose,
  seriousViolations,
  shot,
  unique,
  type Person,
} from './support.js';

/**
 * Mentions in a note's body: a writer types `@`, filters, picks a member with the keyboard, and that member's
 * bell shows it and opens the note; a writer who is not the leader is refused someone who cannot read the
 * note (nothing is inserted, the notice names the leader); the leader mentioning that person is asked to
 * add them to the project first, and then they are told. The suggestions in both themes and three
 * languages, from one signed-in page. Screenshots go to test-results/mentions/.
 */

const SCREENSHOTS = 'mentions';

/**
 * A project led by Lee (listed too, so that Lee writes), with Woo and Kim listed and the department of
 * Dora, who is therefore offered but may not read its notes; and a note of it, written by Woo.
 */
async function setUp(request: APIRequestContext) {
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const department = `M${id}`;
  await callApi(request, adminToken, api.departments.create, { code: department, name: `Assay ${id}` });
  const leader = await createPerson(request, adminToken, id, 'leader', 'Lee Leader', { project: 'Y' });
  const writer = await createPerson(request, adminToken, id, 'writer', 'Woo Writer');
  const kim = await createPerson(request, adminToken, id, 'kim', 'Kim Member');
  const dora: Person = { userId: `dora.${id.toLowerCase()}@eln.local`, password: 'dora-password-1234', name: `Dora Outside ${id}` };
  await callApi(request, adminToken, api.users.create, {
    ...dora,
    level: 1,
    departmentCode: department,
    auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' },
  });
  // Dora's colleagues, named to come after everyone else: enough people for the list to scroll.
  const colleagues = ['Xu', 'Yoon', 'Zed'].map((first) => ({
    userId: `${first.toLowerCase()}.${id.toLowerCase()}@eln.local`,
    password: `${first.toLowerCase()}-password-1234`,
    name: `${first} Outside ${id}`,
  }));
  for (const colleague of colleagues) {
    await callApi(request, adminToken, api.users.create, {
      ...colleague,
      level: 1,
      departmentCode: department,
      auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' },
    });
  }
  const { projectNo } = await callApi(request, await apiSignIn(request, leader), api.projects.create, {
    title: `Assays ${id}`,
    signatureList: { department, user: [leader, writer, kim].map((p) => p.userId).join(',') },
  });
  const { labNoteNo } = await callApi(request, await apiSignIn(request, writer), api.notes.create, { projectNo, title: `Plate ${id}` });
  return { id, leader, writer, kim, dora, zed: colleagues[2]!, department, projectNo, labNoteNo };
}

/** Opens the note and puts the caret at the end of its text, ready to type. */
async function openNote(page: Page, labNoteNo: number): Promise<void> {
  await page.goto(`/note/${labNoteNo}`);
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
  await prose(page).click();
  await page.keyboard.press('Control+End');
  await caretTakenIn(page);
}

const popup = (page: Page) => page.getByTestId('mention-popup');
const option = (page: Page, who: Person) => popup(page).locator(`[data-testid="mention-option"][data-user-id="${who.userId}"]`);
const chip = (page: Page, who: Person) => prose(page).locator(`[data-testid="mention-chip"][data-user-id="${who.userId}"]`);

async function mentionsHeard(request: APIRequestContext, who: Person): Promise<number> {
  const { list } = await callApi(request, await apiSignIn(request, who), api.notifications.list, { page: 1, pageSize: 50 });
  return list.filter((item) => item.event === 'mentioned').length;
}

test.describe('mentions', () => {
  test('a writer mentions a member by keyboard and their bell shows it; someone who cannot read the note is refused; the list in every language and theme', async ({
    browser,
    request,
  }) => {
    test.setTimeout(hangTimeout(240_000));
    const { leader, writer, kim, dora, zed, department, projectNo, labNoteNo } = await setUp(request);
    const woo = await openAs(browser, writer);
    await openNote(woo, labNoteNo);
    await woo.keyboard.type('Please check the plate, @');
    await expect(popup(woo).getByTestId('mention-option')).toHaveCount(7);
    await expect(option(woo, leader)).toContainText('Leader');
    await expect(option(woo, dora).getByTestId('mention-option-outside')).toHaveText('Cannot read this note');
    await expect(option(woo, kim).getByTestId('mention-option-outside')).toHaveCount(0);
    // Seven people scroll: the scrolling list passes axe, and the keys that move the choice scroll it.
    const list = popup(woo).getByTestId('mention-list');
    expect(await list.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
    expect(await seriousViolations(woo, 'mention suggestions', '[data-testid="mention-popup"]')).toEqual([]);
    await expect(option(woo, zed)).not.toBeInViewport();
    await woo.keyboard.press('ArrowUp');
    await expect(option(woo, zed)).toHaveAttribute('aria-selected', 'true');
    await expect(option(woo, zed)).toBeInViewport();
    await woo.keyboard.press('ArrowDown');

    // By name (Dora first); arrows move, Enter picks.
    await expect(option(woo, dora)).toHaveAttribute('aria-selected', 'true');
    await woo.keyboard.press('ArrowDown');
    await woo.keyboard.press('ArrowDown');
    await woo.keyboard.press('ArrowUp');
    await expect(option(woo, kim)).toHaveAttribute('aria-selected', 'true');
    // The caret stays in the text, which points screen readers at the chosen person.
    await expect(prose(woo)).toHaveAttribute('aria-activedescendant', (await option(woo, kim).getAttribute('id')) ?? 'an id');
    await woo.keyboard.press('Enter');
    await expect(popup(woo)).toBeHidden();
    await expect(chip(woo, kim)).toHaveText(`@${kim.name}`);
    await expect(chip(woo, kim)).not.toHaveClass(/is-unresolved/);
    await woo.keyboard.type('thanks.');
    await expect(prose(woo)).toContainText(`Please check the plate, @${kim.name} thanks.`);
    await expect(woo.getByTestId('save-state')).toHaveAttribute('data-saved', 'yes');

    // Kim's bell counts it and opens the note at its block.
    const kimPage = await openAs(browser, kim);
    await expect(kimPage.getByTestId('notification-count')).toHaveText('1');
    await kimPage.getByTestId('notification-bell').click();
    const entry = kimPage.getByTestId('notification-panel').getByTestId('notification-entry');
    await expect(entry).toContainText(`${writer.name} mentioned you in note Plate`);
    await entry.getByRole('link').click();
    await expect(kimPage).toHaveURL(new RegExp(`/note/${labNoteNo}\\?block=`));
    await expect(chip(kimPage, kim)).toBeVisible();
    await kimPage.context().close();

    // Filtered as typed. Dora cannot read the note and Woo is not the leader: refused, naming the leader, nothing inserted.
    await woo.keyboard.type(' Also @Dora');
    await expect(popup(woo).getByTestId('mention-option')).toHaveCount(1);
    await expect(option(woo, dora)).toHaveAttribute('aria-selected', 'true');
    await woo.keyboard.press('Enter');
    await expect(woo.getByTestId('editor-notice-text')).toHaveText(
      `${dora.name} cannot read this note, so they cannot be mentioned. Only the project leader, ${leader.name}, can add them to the project.`,
    );
    await expect(popup(woo)).toBeHidden();
    await expect(chip(woo, dora)).toHaveCount(0);
    await shot(woo, `${SCREENSHOTS}/refused-s-en`, false);
    await woo.keyboard.press('Escape');

    // Kim leaves the project: the chip now says Kim cannot read the note (struck through).
    await callApi(request, await apiSignIn(request, leader), api.projects.update, {
      projectNo,
      signatureList: { department, user: [leader, writer].map((p) => p.userId).join(',') },
    });

    // The list as each language and theme shows it, in this one page.
    await eachDisplay(woo, {
      visit: async ({ name }) => {
        await openNote(woo, labNoteNo);
        await expect(chip(woo, kim)).toHaveClass(/is-unresolved/);
        await woo.keyboard.type(' @');
        await expect(popup(woo).getByTestId('mention-option')).toHaveCount(6);
        await shot(woo, `${SCREENSHOTS}/suggestions-${name}`, false);
        await woo.keyboard.press('Escape');
        await woo.keyboard.press('Backspace');
        await woo.keyboard.press('Backspace');
      },
    });
    await expect(woo.getByTestId('save-state')).toHaveAttribute('data-saved', 'yes');
    expect(await mentionsHeard(request, dora)).toBe(0);
    await woo.context().close();
  });

  test('the leader mentioning someone who cannot read the note adds them to the project first, and they are told', async ({
    browser,
    request,
  }) => {
    test.setTimeout(hangTimeout(180_000));
    const { leader, dora, labNoteNo } = await setUp(request);
    const lee = await openAs(browser, leader);
    await openNote(lee, labNoteNo);
    await lee.keyboard.type('Ask @Dora');
    await expect(option(lee, dora).getByTestId('mention-option-outside')).toBeVisible();
    await lee.keyboard.press('Enter');
    const dialog = lee.getByTestId('alert-modal');
    await expect(dialog).toContainText(`Add ${dora.name} to the project?`);
    await expect(dialog.getByTestId('alert-message')).toContainText(`${dora.name} cannot read this note.`);
    await shot(lee, `${SCREENSHOTS}/add-participant-s-en`, false);
    await dialog.getByTestId('alert-ok').click();
    await expect(chip(lee, dora)).toHaveText(`@${dora.name}`);
    await expect(chip(lee, dora)).not.toHaveClass(/is-unresolved/);
    await expect(lee.getByTestId('save-state')).toHaveAttribute('data-saved', 'yes');
    await expect.poll(() => mentionsHeard(request, dora), { timeout: 15_000 }).toBe(1);
    await lee.context().close();
  });
});
