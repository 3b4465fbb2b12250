import { api } from '@eln/shared';
import { expect, test } from './test.js';
import type { Page } from '@playwright/test';
import { E2E, hangTimeout } from './fixtures.js';
import {
  callApi,
  apiSignIn,
  caretTakenIn,
  eachDisplay,
  openAs,
  prose,
  seriousViolations,
  showIn,
  shot,
  unique,
  type Person,
} from './support.js';

/**
 * Templates in the browser, as the issue walks them: an author creates a template and writes it while a
 * colleague follows live (read-only: only the author and administrators write a draft), checks it in,
 * an administrator approves it with their password, a researcher makes a note from it; the author starts
 * a new draft, it is approved as 1.2, and the earlier note still says 1.1. Screens in both themes: the
 * list, the editor, the approve dialog and the comparison.
 */

const TEMPLATE_FLAGS = { project: 'N', schema: 'N', dropbox: 'N', template: 'Y' } as const;
/** A real 1x1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cf00000301010018dd8db40000000049454e44ae426082',
  'hex',
);

async function typeLine(page: Page, text: string) {
  await expect(prose(page)).toHaveAttribute('contenteditable', 'true');
  await expect(page.getByTestId('editor-toolbar')).toBeVisible();
  await prose(page).locator('p').last().click();
  // The document's end, wherever the click left the caret, and taken in by the editor before Enter.
  await page.keyboard.press('Control+End');
  await caretTakenIn(page);
  await page.keyboard.press('Enter');
  await page.keyboard.type(text);
  await expect(page.getByTestId('template-save-state')).toHaveAttribute('data-saved', 'yes');
}

async function checkIn(page: Page) {
  await page.getByTestId('template-check-in').click();
  await page.getByTestId('alert-ok').click();
  await expect(page.getByTestId('template-waiting')).toContainText(/^Revision \d+ is checked in and waits for approval/);
  await expect(page.getByTestId('template-state')).toHaveText('Waiting for approval');
  // One banner says it all: what happened, who approves, and that nothing changes meanwhile.
  await expect(page.getByTestId('page-template-note').locator('.inline-alert')).toHaveCount(1);
}

/** Approves under the suggested `version`, after trying `notGreater` (a version the dialog refuses as not greater than the last) if given. */
async function approve(page: Page, version: string, password: string, screenshot: string, notGreater?: { typed: string; last: string }) {
  await page.getByTestId('template-approve').click();
  const dialog = page.getByTestId('template-approve-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('template-approve-version')).toHaveValue(version);
  if (notGreater) {
    await page.getByTestId('template-approve-version').fill(notGreater.typed);
    await page.getByTestId('template-approve-password').fill(password);
    await page.getByTestId('template-approve-submit').click();
    await expect(page.getByTestId('template-approve-version-error')).toHaveText(`Use a version greater than ${notGreater.last}.`);
    await page.getByTestId('template-approve-version').fill(version);
  }
  await page.getByTestId('template-approve-password').fill(password);
  await shot(page, screenshot, false);
  expect(await seriousViolations(page, `approve dialog (${screenshot})`)).toEqual([]);
  await page.getByTestId('template-approve-submit').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('template-notice')).toHaveText(`Version ${version} is approved and offered for new notes.`);
}

test('a template is written by its author as a colleague follows live, approved by someone else, and notes keep the version they came from', async ({
  browser,
  request,
}) => {
  test.setTimeout(hangTimeout(300_000));
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const author: Person = { userId: `author.${id.toLowerCase()}@eln.local`, password: 'author-password-1234', name: `Author ${id}` };
  const coAuthor: Person = { userId: `coauthor.${id.toLowerCase()}@eln.local`, password: 'coauthor-password-1234', name: `Coauthor ${id}` };
  for (const person of [author, coAuthor])
    await callApi(request, adminToken, api.users.create, { ...person, level: 1, auth: TEMPLATE_FLAGS });
  const memberToken = await apiSignIn(request, E2E.member);
  const { projectNo } = await callApi(request, memberToken, api.projects.create, {
    title: `Synthesis ${id}`,
    signatureList: { department: '', user: E2E.member.userId },
  });
  const title = `Yield log ${id}`;

  // The author creates the template from the list and writes its first line.
  const writer = await openAs(browser, author);
  await writer.getByRole('link', { name: 'Template', exact: true }).first().click();
  await expect(writer.getByTestId('page-template')).toBeVisible();
  await writer.getByTestId('template-create-button').click();
  await writer.getByTestId('template-create-title').fill(title);
  await writer.getByTestId('template-create-description').fill('One record per synthesis batch');
  await writer.getByTestId('template-create-submit').click();
  await expect(writer.getByTestId('template-title')).toHaveText(title);
  const templateNo = Number(/\/template\/note\/(\d+)$/.exec(writer.url())?.[1]);
  expect(templateNo).toBeGreaterThan(0);
  await expect(writer.getByTestId('template-state')).toHaveText('Draft');
  await expect(writer.getByTestId(`template-tab-${templateNo}`)).toHaveAttribute('aria-current', 'page');
  await expect(writer.getByTestId(`template-tab-${templateNo}`)).toHaveText(title);
  await prose(writer).click();
  await writer.keyboard.type('Objective: measure the yield');
  await expect(writer.getByTestId('template-save-state')).toHaveAttribute('data-saved', 'yes');

  // A colleague with template permission follows in the beauty theme, live and read-only: the draft is its author's.
  const second = await openAs(browser, coAuthor, { theme: 'b' });
  await second.goto(`/template/note/${templateNo}`);
  await expect(prose(second)).toContainText('Objective: measure the yield');
  await expect(second.getByTestId(`template-presence-${author.userId}`)).toBeVisible();
  await expect(prose(second)).toHaveAttribute('contenteditable', 'false');
  await expect(second.getByTestId('template-author-writes')).toHaveText(
    `Only ${author.name}, its author, and administrators write this template. You see the draft as it is written.`,
  );
  await expect(second.getByTestId('template-check-in')).toHaveCount(0);
  await expect(second.getByTestId('template-rename')).toHaveCount(0);
  await typeLine(writer, 'Procedure: weigh, dissolve, stir 2 h');
  await expect(prose(second)).toContainText('Procedure: weigh, dissolve, stir 2 h');
  // An image belongs in a template like any block: uploaded to the draft, seen by both authors.
  await prose(writer).locator('p').last().click();
  await writer.keyboard.press('End');
  await writer.getByTestId('image-input').setInputFiles({ name: 'gel.png', mimeType: 'image/png', buffer: PNG });
  await expect.poll(() => writer.getByTestId('image-element').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await expect.poll(() => second.getByTestId('image-element').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await expect(writer.getByTestId('template-save-state')).toHaveAttribute('data-saved', 'yes');
  await shot(second, 'template-editor-b-en');
  await expect(writer.getByTestId('template-temp-saved')).toBeVisible();

  // Checked in: read-only for both, and the author is not offered the approval.
  await checkIn(writer);
  await expect(writer.getByTestId('template-waiting')).toContainText('Nobody can change it until it is approved or sent back.');
  await expect(prose(writer)).toHaveAttribute('contenteditable', 'false');
  await expect(writer.getByTestId('template-approve')).toHaveCount(0);
  await expect(writer.getByTestId('template-waiting')).toContainText(author.name);
  await expect(prose(second)).toHaveAttribute('contenteditable', 'false');

  // An administrator approves: a whole number is refused with its reason, then a wrong password, then 1.1.
  const approver = await openAs(browser, E2E.admin, { theme: 'b' });
  await approver.goto(`/template/note/${templateNo}`);
  await approver.getByTestId('template-approve').click();
  await expect(approver.getByTestId('template-approve-version')).toHaveValue('0.1');
  await approver.getByTestId('template-approve-version').fill('1');
  await approver.getByTestId('template-approve-password').fill(E2E.admin.password);
  await approver.getByTestId('template-approve-submit').click();
  await expect(approver.getByTestId('template-approve-version-error')).toHaveText(
    'A template version is neither 0 nor a whole number: use one with a decimal part, such as 1.1.',
  );
  await approver.getByTestId('template-approve-version').fill('1.1');
  await approver.getByTestId('template-approve-password').fill('not the password');
  await approver.getByTestId('template-approve-submit').click();
  await expect(approver.getByTestId('template-approve-password-error')).toHaveText('The password is incorrect.');
  await approver.getByTestId('template-approve-password').fill(E2E.admin.password);
  await shot(approver, 'template-approve-dialog-b-en', false);
  await approver.getByTestId('template-approve-submit').click();
  await expect(approver.getByTestId('template-notice')).toHaveText('Version 1.1 is approved and offered for new notes.');
  await expect(approver.getByTestId('template-header-version')).toHaveText('v1.1');

  // A researcher starts a note from it: its content is the approved version's, and its header says so.
  const researcher = await openAs(browser, E2E.member);
  await researcher.goto(`/project/${projectNo}`);
  await researcher.getByTestId('new-note-template').selectOption({ label: `${title} (v1.1)` });
  await researcher.getByTestId('new-note-template-preview').click();
  await expect(researcher.getByTestId('template-preview-document')).toContainText('Procedure: weigh, dissolve, stir 2 h');
  expect(await seriousViolations(researcher, 'template preview dialog')).toEqual([]);
  await researcher.getByTestId('template-preview').getByRole('button', { name: 'Close', exact: true }).last().click();
  await researcher.getByTestId('new-note-title').fill('Batch 1');
  await researcher.getByTestId('new-note-submit').click();
  await expect(researcher.getByTestId('note-title')).toHaveText('Batch 1');
  const firstNote = researcher.url();
  await expect(prose(researcher)).toContainText('Objective: measure the yield');
  await expect(researcher.getByTestId('note-template-origin')).toHaveText(`From template ${title} v1.1`);
  // The note's image is its own copy of the template's file, and loads.
  await expect.poll(() => researcher.getByTestId('image-element').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

  // The author starts the next draft, adds a step and checks it in; it is approved as 1.2.
  await writer.reload();
  await writer.getByTestId('template-start-draft').click();
  await expect(writer.getByTestId('template-state')).toHaveText('Draft');
  await typeLine(writer, 'Waste: neutralise before disposal');
  await checkIn(writer);
  // The approver continues in the standard theme; the dialog suggests the next minor version.
  await approver.evaluate(() => window.localStorage.setItem('eln.theme', 's'));
  await approver.reload();
  // 1.10 is 1.1 as a decimal: the dialog refuses it as not greater, with the server's own comparison.
  await approve(approver, '1.2', E2E.admin.password, 'template-approve-dialog-s-en', { typed: '1.10', last: '1.1' });

  // The comparison shows the added step; the earlier version is marked superseded.
  await expect(approver.getByTestId('template-revision').first()).toHaveAttribute('data-version', '1.2');
  await expect(approver.getByTestId('template-revision').nth(1)).toContainText('Superseded');
  await approver.getByTestId('template-compare').click();
  const change = approver.getByTestId('template-compare-dialog').getByTestId('diff-change');
  // Kind and text of every change, so a failure names the unexpected one.
  const listed = () => change.evaluateAll((rows) => rows.map((row) => `${row.getAttribute('data-kind')}: ${row.textContent ?? ''}`));
  await expect.poll(listed).toEqual([expect.stringMatching(/^added: .*Waste: neutralise before disposal/)]);
  await expect(change).toHaveAttribute('data-kind', 'added');
  await expect(change).toContainText('Waste: neutralise before disposal');
  await expect(change.getByTestId('diff-change-writers')).toHaveText(`Written by ${author.name}`);
  await shot(approver, 'template-compare-s-en', false);
  expect(await seriousViolations(approver, 'template comparison dialog')).toEqual([]);
  await approver.keyboard.press('Escape');
  await shot(approver, 'template-editor-approved-s-en');
  await approver.evaluate(() => window.localStorage.setItem('eln.theme', 'b'));
  await approver.reload();
  await approver.getByTestId('template-compare').click();
  await expect(approver.getByTestId('template-compare-dialog').getByTestId('diff-change')).toHaveCount(1);
  await shot(approver, 'template-compare-b-en', false);
  expect(await seriousViolations(approver, 'template comparison dialog, theme b')).toEqual([]);
  await approver.keyboard.press('Escape');

  // The earlier note still says 1.1 and has no trace of the new step.
  await researcher.goto(firstNote);
  await expect(researcher.getByTestId('note-template-origin')).toHaveText(`From template ${title} v1.1`);
  await expect(prose(researcher)).not.toContainText('Waste: neutralise');
  // Without template permission the template reads as its approved version, with no actions.
  await researcher.goto(`/template/note/${templateNo}`);
  await expect(researcher.getByTestId('template-readonly-reason')).toHaveText(
    'You can read this template. Writing templates needs template permission.',
  );
  await expect(researcher.getByTestId('template-static')).toContainText('Waste: neutralise before disposal');
  await expect(researcher.getByTestId('template-header-version')).toHaveText('v1.2');

  // The list, in both themes: approved, with its version and the note made from it.
  for (const [page, theme] of [
    [writer, 's'],
    [second, 'b'],
  ] as const) {
    await page.goto(`/template?t=title&w=${encodeURIComponent(title)}`);
    const row = page.getByTestId('template-row').filter({ hasText: title });
    await expect(row).toHaveAttribute('data-state', 'A');
    await expect(row.getByTestId('template-version')).toHaveText('v1.2');
    await shot(page, `template-list-${theme}-en`);
  }

  // Closing the only open template's tab returns to the list.
  await writer.goto(`/template/note/${templateNo}`);
  await writer.getByTestId(`template-tab-close-${templateNo}`).click();
  await expect(writer).toHaveURL(/\/template$/);
  const openTabs = await writer.evaluate(() =>
    Object.keys(sessionStorage)
      .filter((key) => key.startsWith('eln.templateTabs.'))
      .map((key) => (JSON.parse(sessionStorage.getItem(key) ?? '[]') as unknown[]).length),
  );
  expect(openTabs).toEqual([0]);

  // In Korean and Japanese: the editor and the list speak the reader's language.
  // (The author's and the administrator's pages, switched in place.)
  await showIn(writer, 'ko', 's');
  await writer.goto(`/template/note/${templateNo}`);
  await expect(writer.getByTestId('template-state')).toHaveText('승인됨');
  await expect(writer.getByTestId('template-start-draft')).toHaveText('편집(새 초안)');
  await shot(writer, 'template-editor-s-ko');
  await showIn(approver, 'ja', 'b');
  await approver.goto(`/template?t=title&w=${encodeURIComponent(title)}`);
  await expect(approver.getByTestId('template-row').filter({ hasText: title }).getByTestId('template-state')).toHaveText('承認済み');
  await shot(approver, 'template-list-b-ja');
});

test('a checked-in template shows one banner saying who approves it; "never approved" is set in the text\'s font', async ({
  browser,
  request,
}) => {
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const author: Person = { userId: `banner.${id.toLowerCase()}@eln.local`, password: 'banner-password-1234', name: `Banner ${id}` };
  await callApi(request, adminToken, api.users.create, { ...author, level: 1, auth: TEMPLATE_FLAGS });
  const { templateNo } = await callApi(request, await apiSignIn(request, author), api.templates.create, { title: `Banner ${id}` });
  const page = await openAs(browser, author);
  await page.goto(`/template/note/${templateNo}`);
  await prose(page).click();
  await page.keyboard.type('Objective: one banner');
  await expect(page.getByTestId('template-save-state')).toHaveAttribute('data-saved', 'yes');

  // Never approved: said in words, in the font of the text around it, not the version's figures.
  const header = page.getByTestId('template-header-version');
  await expect(header).toHaveText('never approved');
  const fonts = await header.evaluate((element) => ({
    own: getComputedStyle(element).fontFamily,
    text: getComputedStyle(document.body).fontFamily,
  }));
  expect(fonts.own).toBe(fonts.text);

  await page.getByTestId('template-check-in').click();
  await page.getByTestId('alert-ok').click();
  await expect(page.getByTestId('template-state')).toHaveText('Waiting for approval');
  const banners = page.getByTestId('page-template-note').locator('.inline-alert');
  await expect(banners).toHaveCount(1);
  await expect(banners).toHaveText(
    `Revision 1 is checked in and waits for approval by someone other than ${author.name}. Nobody can change it until it is approved or sent back.`,
  );
  await expect(banners).toHaveAttribute('data-testid', 'template-waiting');
  await expect(prose(page)).toContainText('Objective: one banner');
  await shot(page, 'template-checked-in-s-en');
  await page.evaluate(() => window.localStorage.setItem('eln.theme', 'b'));
  await page.reload();
  await expect(banners).toHaveCount(1);
  await expect(prose(page)).toContainText('Objective: one banner');
  await shot(page, 'template-checked-in-b-en');
  expect(await seriousViolations(page, 'checked-in template, theme b')).toEqual([]);
  // The same one banner in Korean and Japanese.
  const words = { ko: '승인 요청된 리비전 1:', ja: 'リビジョン1は承認依頼中で' } as const;
  await eachDisplay(page, {
    displays: [
      ['ko', 's'],
      ['ja', 'b'],
    ],
    visit: async ({ language }) => {
      if (language === 'en') throw new Error('ko and ja only');
      await expect(banners).toHaveCount(1);
      await expect(banners).toContainText(words[language]);
      await expect(prose(page)).toContainText('Objective: one banner');
    },
    shot: 'template-checked-in',
  });
});

test('a template whose first load fails with a server error shows the error page; trying again opens it', async ({ browser, request }) => {
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const author: Person = { userId: `retry.${id.toLowerCase()}@eln.local`, password: 'retry-password-1234', name: `Retry ${id}` };
  await callApi(request, adminToken, api.users.create, { ...author, level: 1, auth: TEMPLATE_FLAGS });
  const authorToken = await apiSignIn(request, author);
  const title = `Retry ${id}`;
  const { templateNo } = await callApi(request, authorToken, api.templates.create, { title });
  const page = await openAs(browser, author);
  let failing = true;
  await page.route(`**/server${api.templates.editor.path}`, (route) =>
    failing
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ status: '3007', message: 'Templates could not be loaded.', data: null }),
        })
      : route.continue(),
  );
  await page.goto(`/template/note/${templateNo}`);
  await expect(page.getByTestId('page-error')).toBeVisible();
  await expect(page).toHaveURL(/\/error$/);
  failing = false;
  await page.getByTestId('error-retry').click();
  await expect(page).toHaveURL(new RegExp(`/template/note/${templateNo}$`));
  await expect(page.getByTestId('template-title')).toHaveText(title);
});
