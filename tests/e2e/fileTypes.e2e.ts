import { api } from '@eln/shared';
import type { Page } from '@playwright/test';
import { expect, test } from './test.js';
import { E2E } from './fixtures.js';
import { apiSignIn, callApi, eachDisplay, openAs, prose, seriousViolations, shot, unique } from './support.js';

/**
 * File types an administrator adds: CSV is refused until added in the Info dialog, then a member attaches
 * an instrument's CSV to a note; binary content named .csv is still refused by the server.
 */

async function openInfo(page: Page) {
  await page.getByTestId('nav-admin').click();
  await page.getByTestId('nav-admin-info').click();
  await expect(page.getByTestId('licence-dialog')).toBeVisible();
  await expect(page.getByTestId('file-types')).toBeVisible();
}

const CSV = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('시료,흡광도\r\nA1,0.512\r\nA2,0.498\r\n')]);

test.describe('added file types', () => {
  test.afterEach(async ({ request }) => {
    // The workers' server is shared: no added type outlives its test.
    await callApi(request, await apiSignIn(request, E2E.admin), api.files.updateTypes, { types: [] });
  });

  test('an administrator adds CSV and a member attaches an instrument’s CSV; binary posing as CSV is refused', async ({
    browser,
    request,
  }) => {
    const id = unique();
    const memberToken = await apiSignIn(request, E2E.member);
    const project = await callApi(request, memberToken, api.projects.create, {
      title: `Plate reader ${id}`,
      signatureList: { department: '', user: E2E.member.userId },
    });
    const { labNoteNo } = await callApi(request, memberToken, api.notes.create, { projectNo: project.projectNo, title: `Readings ${id}` });

    // Before: the member's picker refuses CSV by its name.
    const kim = await openAs(browser, E2E.member);
    await kim.goto(`/note/${labNoteNo}`);
    await expect(kim.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
    await expect(kim.getByTestId('file-input')).not.toHaveAttribute('accept', /\.csv/);
    await kim.getByTestId('file-input').setInputFiles({ name: 'plate.csv', mimeType: 'text/csv', buffer: CSV });
    await expect(kim.getByTestId('alert-message')).toContainText('This kind of file is not accepted');
    await kim.getByTestId('alert-ok').click();

    // The administrator adds CSV (a type of the spec is refused with the reason).
    const admin = await openAs(browser, E2E.admin);
    await openInfo(admin);
    await expect(admin.getByTestId('file-types-none')).toBeVisible();
    await admin.getByTestId('file-type-extension').fill('pdf');
    await admin.getByTestId('file-type-mime').fill('application/pdf');
    await admin.getByTestId('file-type-add').click();
    await expect(admin.getByText('This type is already allowed.')).toBeVisible();
    await admin.getByTestId('file-type-extension').fill('csv');
    await admin.getByTestId('file-type-mime').fill('text/csv');
    await admin.getByTestId('file-type-add').click();
    await expect(admin.getByTestId('file-types-done')).toContainText('.csv added');
    await expect(admin.getByTestId('file-type-csv')).toContainText('text/csv');
    await admin.getByTestId('file-type-check').selectOption('signature');
    await admin.getByTestId('file-type-extension').fill('tif');
    await admin.getByTestId('file-type-mime').fill('image/tiff');
    await admin.getByTestId('file-type-signatures').fill('49 49 2A 00, 4D 4D 00 2A');
    await admin.getByTestId('file-type-add').click();
    await expect(admin.getByTestId('file-type-tif')).toContainText('Starts with 49492A00, 4D4D002A');
    expect(await seriousViolations(admin, 'file types in the Info dialog')).toEqual([]);
    await shot(admin, 'file-types-s-en', false);

    // After: the member's picker offers CSV once the list is read again, and the upload goes through.
    await kim.reload();
    await expect(kim.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
    await expect(kim.getByTestId('file-input')).toHaveAttribute('accept', /\.csv/);
    await prose(kim).click();
    await kim.getByTestId('file-input').setInputFiles({ name: 'plate.csv', mimeType: 'text/csv', buffer: CSV });
    await expect(kim.getByTestId('file-block')).toContainText('plate.csv');
    const download = kim.waitForEvent('download');
    await kim.getByTestId('file-download').click();
    expect((await download).suggestedFilename()).toBe('plate.csv');

    // Binary named .csv passes the name check and is refused by the server on its content.
    await kim
      .getByTestId('file-input')
      .setInputFiles({ name: 'posing.csv', mimeType: 'text/csv', buffer: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03]) });
    await expect(kim.getByTestId('alert-message')).toContainText('This kind of file is not accepted');
    await kim.getByTestId('alert-ok').click();
    await expect(kim.getByTestId('file-block')).toHaveCount(1);

    // Removed again: the list says so.
    await admin.getByTestId('file-type-remove-csv').click();
    await expect(admin.getByTestId('file-types-done')).toContainText('.csv removed');
    await expect(admin.getByTestId('file-type-csv')).toHaveCount(0);
    await kim.context().close();
    await admin.context().close();
  });

  test('the file types read well in theme b (en, ko) and s (ja)', async ({ browser, request }) => {
    await callApi(request, await apiSignIn(request, E2E.admin), api.files.updateTypes, {
      types: [
        { extension: 'csv', mimeType: 'text/csv', check: 'text' },
        { extension: 'tif', mimeType: 'image/tiff', check: 'signature', signatures: ['49492A00', '4D4D002A'] },
      ],
    });
    const headings = { ko: '파일 형식', ja: 'ファイル形式', en: 'File types' } as const;
    const page = await openAs(browser, E2E.admin);
    await eachDisplay(page, {
      displays: [
        ['en', 'b'],
        ['ko', 'b'],
        ['ja', 's'],
      ],
      open: () => openInfo(page),
      visit: async ({ language, name }) => {
        await expect(page.locator('#file-types-title')).toHaveText(headings[language]);
        await page.getByTestId('file-types').scrollIntoViewIfNeeded();
        await page.getByTestId('file-type-check').selectOption('signature');
        await page.getByTestId('file-type-add').click();
        await page.screenshot({ path: `tests/e2e/screenshots/file-types-${name}.png`, animations: 'disabled' });
      },
      axe: { where: 'file types' },
    });
    await page.context().close();
  });
});
