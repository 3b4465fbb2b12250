import { api } from '@eln/shared';
import { expect, test } from './test.js';
import type { Page } from '@playwright/test';
import { testLicenceKey } from '../../server/src/testing/licenceKeys.js';
import { E2E } from './fixtures.js';
import { callApi, apiSignIn, eachDisplay, openAs, shot, seriousViolations } from './support.js';

async function openLicenceDialog(page: Page) {
  await page.getByTestId('nav-admin').click();
  await page.getByTestId('nav-admin-info').click();
  await expect(page.getByTestId('licence-dialog')).toBeVisible();
}

async function registerKey(page: Page, licenceKey: string) {
  await page.getByTestId('licence-key').fill(licenceKey);
  await page.getByTestId('licence-register-submit').click();
}

test.describe('licence registration', () => {
  test('an administrator registers a signed key; forged and expired keys are refused with the reason', async ({ browser }) => {
    const page = await openAs(browser, E2E.admin);
    await openLicenceDialog(page);
    await expect(page.getByTestId('licence-none')).toBeVisible();

    const genuine = testLicenceKey({
      serial: 'ELN-E2E-0001',
      company: 'Hanbit Bio Labs',
      seats: 1000,
      expires: '2099-12-31T00:00:00.000Z',
    });
    const [payload, signature] = genuine.split('.');
    const forged = `${Buffer.from(Buffer.from(payload!, 'base64url').toString('utf8').replace('"seats":1000', '"seats":5000')).toString('base64url')}.${signature}`;
    await registerKey(page, forged);
    await expect(page.getByTestId('licence-register-error')).toHaveText(/not genuine/);
    expect(await seriousViolations(page, 'licence dialog with a refused key')).toEqual([]);
    await expect(page.getByTestId('licence-none')).toBeVisible();

    await registerKey(page, testLicenceKey({ issued: '2025-01-01T00:00:00.000Z', expires: '2026-01-31T00:00:00.000Z' }));
    await expect(page.getByTestId('licence-register-error')).toHaveText('This licence expired on 2026-01-31.');

    await page.getByTestId('licence-key').fill('');
    await page.getByTestId('licence-register-submit').click();
    await expect(page.getByText('This field is required.')).toBeVisible();

    await registerKey(page, genuine);
    await expect(page.getByTestId('licence-register-done')).toContainText('December 31, 2099');
    await expect(page.getByTestId('licence-status')).toHaveText('Valid');
    await expect(page.getByTestId('licence-company')).toHaveText('Hanbit Bio Labs');
    await expect(page.getByTestId('licence-serial')).toHaveText('ELN-E2E-0001');
    await expect(page.getByTestId('licence-seats')).toHaveText(/of 1000 users/);
    await shot(page, 'licence-dialog-s-en', false);
    await page.context().close();
  });

  test('the licence dialog reads well in theme b (en, ko) and s (ja)', async ({ browser, request }) => {
    const token = await apiSignIn(request, E2E.admin);
    await callApi(request, token, api.licence.register, {
      licenceKey: testLicenceKey({ serial: 'ELN-E2E-0002', company: '한빛 바이오 연구소', seats: 1000 }),
    });
    const status = { ko: '유효', ja: '有効', en: 'Valid' } as const;
    const page = await openAs(browser, E2E.admin);
    await eachDisplay(page, {
      displays: [
        ['en', 'b'],
        ['ko', 'b'],
        ['ja', 's'],
      ],
      open: () => openLicenceDialog(page),
      visit: async ({ language }) => {
        await expect(page.getByTestId('licence-status')).toHaveText(status[language]);
      },
      shot: 'licence-dialog',
      fullPage: false,
    });
    await page.context().close();
  });
});
