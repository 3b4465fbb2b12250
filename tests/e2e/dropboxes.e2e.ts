import { readFileSync } from 'node:fs';
import { expect, test } from './test.js';
import type { Page } from '@playwright/test';
import { E2E } from './fixtures.js';
import { eachDisplay, openAs, shot, unique } from './support.js';

const CP949_UNITS = 'server/src/dropboxes/fixtures/units-cp949.csv';
const csvFile = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });

async function chooseCsv(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByTestId('dropbox-import-file').setInputFiles(file);
}

test.describe('dropboxes', () => {
  test('a manager imports a CP949 CSV with a preview, fixes a refused file, creates, exports and retires a dropbox', async ({
    browser,
  }) => {
    const title = `Units ${unique()}`;
    const page = await openAs(browser, E2E.admin);
    await page.getByRole('link', { name: 'Dropbox', exact: true }).first().click();
    await expect(page.getByTestId('page-dropbox')).toBeVisible();
    await page.getByTestId('dropbox-create-button').click();
    await expect(page.getByTestId('page-dropbox-create')).toBeVisible();

    // Nothing is created without rows that all pass.
    await page.getByTestId('dropbox-title').fill(title);
    await page.getByTestId('dropbox-submit').click();
    await expect(page.getByTestId('dropbox-refusal')).toHaveText('Choose a CSV file whose rows can all be stored.');

    await chooseCsv(page, csvFile('broken.csv', 'code,name\n,no code first\nmg,milligram\nmg,again\n'));
    await expect(page.getByTestId('dropbox-import-summary')).toHaveText(
      'broken.csv: 2 rows have problems. Fix them in the file and choose it again.',
    );
    await expect(page.getByTestId('dropbox-preview-problems').nth(0)).toHaveText('The first row needs a code.');
    await expect(page.getByTestId('dropbox-preview-problems').nth(2)).toHaveText('This code is already used in an earlier row.');
    await shot(page, 'dropbox-preview-problems-s-en');

    await chooseCsv(page, csvFile('image.csv', '\u0000\u0001PNG'));
    await expect(page.getByTestId('dropbox-import-error')).toContainText('This file is not a CSV text file.');

    await chooseCsv(page, CP949_UNITS);
    await expect(page.getByTestId('dropbox-import-summary')).toHaveText(
      'units-cp949.csv: 4 rows read as CP949 (Korean Excel), all can be stored.',
    );
    await expect(page.getByTestId('dropbox-preview-row').nth(0)).toContainText('밀리그램');
    await shot(page, 'dropbox-create-preview-s-en');
    await page.getByTestId('dropbox-submit').click();

    await expect(page.getByTestId('page-dropbox-detail')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByTestId('dropbox-rows-row')).toHaveCount(4);
    await expect(page.getByTestId('dropbox-rows-row').nth(3)).toContainText('실온 (상온)');

    const download = page.waitForEvent('download');
    await page.getByTestId('dropbox-export').click();
    const saved = await (await download).path();
    expect(readFileSync(saved, 'utf8')).toBe('\uFEFFcode,name\r\nmg,밀리그램\r\nmL,밀리리터\r\nC,섭씨 온도 ℃\r\nRT,실온 (상온)\r\n');

    await chooseCsv(page, csvFile('units-v2.csv', 'code,name\nmg,milligram\nkg,kilogram\n'));
    await page.getByTestId('dropbox-replace-rows').click();
    await expect(page.getByTestId('dropbox-notice')).toHaveText('2 rows stored.');
    await expect(page.getByTestId('dropbox-rows-row')).toHaveCount(2);
    await expect(page.getByTestId('dropbox-rows-row').nth(1)).toContainText('kilogram');

    await page.getByTestId('dropbox-status-select').selectOption('N');
    await page.getByTestId('dropbox-submit').click();
    await expect(page.getByTestId('dropbox-notice')).toHaveText('Saved.');
    await expect(page.getByTestId('dropbox-meta').getByTestId('dropbox-status')).toHaveText('Unused');
    await shot(page, 'dropbox-detail-s-en');
    await page.context().close();

    // A member without the dropbox right neither sees the unused dropbox nor may create one.
    const member = await openAs(browser, E2E.member);
    await member.goto(`/dropbox?w=${encodeURIComponent(title)}`);
    await expect(member.getByTestId('page-dropbox')).toBeVisible();
    await expect(member.getByTestId('dropbox-row')).toHaveCount(0);
    await expect(member.getByTestId('dropbox-create-button')).toHaveCount(0);
    await member.goto('/dropbox/create');
    await expect(member.getByTestId('dropbox-create-forbidden')).toBeVisible();
    await member.context().close();
  });

  test('the dropbox list and import preview read well in theme b (en, ko) and s (ja)', async ({ browser }) => {
    const page = await openAs(browser, E2E.admin);
    await eachDisplay(page, {
      displays: [
        ['en', 'b'],
        ['ko', 'b'],
        ['ja', 's'],
      ],
      visit: async ({ name }) => {
        await page.goto('/dropbox');
        await expect(page.getByTestId('page-dropbox')).toBeVisible();
        await expect(page.getByTestId('dropbox-total')).toBeVisible();
        await shot(page, `dropbox-list-${name}`);
        await page.goto('/dropbox/create');
        await page.getByTestId('dropbox-title').fill('Solvents');
        await chooseCsv(page, csvFile('solvents.csv', 'code,name\nEtOH,Ethanol\nEtOH,duplicate\nMeOH,メタノール\n'));
        await expect(page.getByTestId('dropbox-preview-row')).toHaveCount(3);
      },
      shot: 'dropbox-create-preview',
      axe: { where: 'dropbox import preview' },
    });
    await page.context().close();
  });
});
