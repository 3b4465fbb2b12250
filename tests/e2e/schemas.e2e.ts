import { api } from '@eln/shared';
import { expect, test } from './test.js';
import type { Page } from '@playwright/test';
import { E2E, hangTimeout } from './fixtures.js';
import { callApi, apiSignIn, eachDisplay, openAs, seriousViolations, shot, unique, type Person } from './support.js';

/**
 * Schemas (issue 12): a curator builds a catalogue type with two schemas and their entries (typed, and
 * pasted from a spreadsheet), the rules refuse a duplicate field before anything is sent, the type is
 * saved and changed; a researcher reads it without editing, and an unused type sends them back to the list.
 */

/** Pastes text into the focused element as a spreadsheet's copy would arrive (text/plain, tab-separated). */
async function pasteText(page: Page, text: string): Promise<void> {
  await page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

const entryFields = (page: Page) => page.getByTestId('schema-entry-field');
const entryValues = (page: Page) => page.getByTestId('schema-entry-value');
const valuesShown = (page: Page) => entryValues(page).evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));

test('a curator builds a schema type with two schemas, typed and pasted; the rules refuse a duplicate field; a researcher only reads it', async ({
  browser,
  request,
}) => {
  test.setTimeout(hangTimeout(300_000));
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const curator: Person = { userId: `curator.${id.toLowerCase()}@eln.local`, password: 'curator-password-1234', name: `Han Curator ${id}` };
  await callApi(request, adminToken, api.users.create, {
    ...curator,
    level: 1,
    auth: { project: 'Y', schema: 'Y', dropbox: 'N', template: 'N' },
  });

  const page = await openAs(browser, curator);
  await page.getByTestId('nav-schema').click();
  await expect(page.getByTestId('page-schema')).toBeVisible();
  await page.getByTestId('schema-create-button').click();
  await expect(page.getByTestId('page-schema-create')).toBeVisible();

  await page.getByTestId('schema-code').fill(`REAGENT-${id}`);
  await page.getByTestId('schema-title').fill(`Reagents ${id}`);
  await page.getByTestId('schema-description').fill('Chemicals in stock, one schema per substance');
  // The first schema: a name, one entry typed (Enter adds the next row), two pasted from a spreadsheet.
  await page.getByTestId('schema-child-title').fill('Sodium chloride');
  await entryFields(page).first().fill('CAS');
  await entryValues(page).first().fill('7647-14-5');
  await entryValues(page).first().press('Enter');
  await expect(entryFields(page)).toHaveCount(2);
  await expect(entryFields(page).nth(1)).toBeFocused();
  await pasteText(page, 'MW\t58.44 g/mol\r\nSupplier\tDaejung Chemicals\r\n');
  await expect(entryFields(page)).toHaveCount(3);
  await expect.poll(() => valuesShown(page)).toEqual(['7647-14-5', '58.44 g/mol', 'Daejung Chemicals']);
  await expect(page.getByTestId('schema-notice')).toHaveText('2 rows pasted.');

  // The second schema repeats a field: refused beside the entry before anything is sent, its schema marked.
  await page.getByTestId('schema-child-add').click();
  await expect(page.getByTestId('schema-child-1')).toHaveAttribute('aria-current', 'true');
  await page.getByTestId('schema-child-title').fill('Ethanol');
  await entryFields(page).first().click();
  await pasteText(page, 'CAS\t64-17-5\ncas\t64-17-5\nPurity\t99.5 %');
  await page.getByTestId('schema-submit').click();
  await expect(page.getByTestId('schema-entry-error')).toHaveText('This name is already used here.');
  await expect(page.getByTestId('schema-notice')).toContainText('fix the marked fields');
  await expect(page.getByTestId('page-schema-create')).toBeVisible();
  await shot(page, 'schema-create-refused-s-en');
  expect(await seriousViolations(page, 'schema editor with a refusal')).toEqual([]);
  await page.getByTestId('schema-entry-remove').nth(1).click();
  await page.getByTestId('schema-submit').click();

  // Saved: the type's own page, with both schemas in order.
  await expect(page.getByTestId('page-schema-detail')).toBeVisible();
  await expect(page.getByTestId('schema-saved')).toHaveText('Created.');
  const schemasTypeNo = Number(/\/schema\/(\d+)$/.exec(page.url())?.[1]);
  expect(schemasTypeNo).toBeGreaterThan(0);
  await expect(page.getByTestId('schema-child-0')).toContainText('Sodium chloride');
  await expect(page.getByTestId('schema-child-0')).toContainText('3 entries');
  await expect(page.getByTestId('schema-child-1')).toContainText('2 entries');

  // Changed: a value of the first schema; the change is stored and the page says so.
  await entryValues(page).nth(2).fill('Sigma-Aldrich');
  // Leaving with the change unsaved asks first; staying keeps it.
  await page.getByTestId('nav-schema').click();
  await expect(page.getByTestId('alert-message')).toHaveText('This schema type has unsaved changes. Leave without saving them?');
  await page.getByTestId('alert-cancel').click();
  await expect(page.getByTestId('page-schema-detail')).toBeVisible();
  await expect(entryValues(page).nth(2)).toHaveValue('Sigma-Aldrich');
  await page.getByTestId('schema-submit').click();
  await expect(page.getByTestId('schema-saved')).toHaveText('Saved.');
  await expect(entryValues(page).nth(2)).toHaveValue('Sigma-Aldrich');
  await shot(page, 'schema-editor-s-en');
  // Saved, leaving asks nothing; a change discarded is gone.
  await entryValues(page).nth(0).fill('changed by mistake');
  await page.getByTestId('schema-discard').click();
  await page.getByTestId('alert-ok').click();
  await expect(entryValues(page).nth(0)).toHaveValue('7647-14-5');

  // The list finds it by a part of its name.
  await page.getByTestId('nav-schema').click();
  await page.getByTestId('schema-search-word').fill(`${id}`);
  await page.getByTestId('schema-search-submit').click();
  await expect(page.getByTestId('schema-row')).toHaveCount(1);
  await expect(page.getByTestId('schema-row')).toContainText(`Reagents ${id}`);

  // A researcher without the schema right reads the type but cannot change it.
  const unused = await callApi(request, adminToken, api.schemas.create, {
    code: `OLD-${id}`,
    title: `Old stock ${id}`,
    status: 'N',
    schemas: [],
  });
  const member = await openAs(browser, E2E.member, { theme: 'b', language: 'ko' });
  await member.goto(`/schema/${schemasTypeNo}`);
  await expect(member.getByTestId('schema-readonly')).toBeVisible();
  await expect(member.getByTestId('schema-submit')).toHaveCount(0);
  await expect(member.getByTestId('schema-code')).toHaveAttribute('readonly', '');
  await shot(member, 'schema-editor-readonly-b-ko');
  expect(await seriousViolations(member, 'schema type read-only, theme b, Korean')).toEqual([]);
  // An unused type cannot be opened by them: the server's message (4003), then back to the list.
  await member.goto(`/schema/${unused.schemasTypeNo}`);
  await expect(member.getByTestId('alert-message')).toHaveText('스키마를 열 수 없습니다.');
  await member.getByTestId('alert-ok').click();
  await expect(member.getByTestId('page-schema')).toBeVisible();
  await page.context().close();
  await member.context().close();
});

test('the schema list and editor read well in theme b, ja and theme s, ko', async ({ browser, request }) => {
  const adminToken = await apiSignIn(request, E2E.admin);
  const id = unique();
  const { schemasTypeNo } = await callApi(request, adminToken, api.schemas.create, {
    code: `EQ-${id}`,
    title: `Equipment ${id}`,
    description: 'Instruments of lab 2',
    schemas: [
      {
        title: 'Centrifuge 5430R',
        entries: [
          { field: 'Serial', value: '5428-1234' },
          { field: 'Location', value: 'Room 204' },
        ],
      },
      { title: 'pH meter', entries: [{ field: 'Calibrated', value: '2026-11-02' }] },
    ],
  });
  const page = await openAs(browser, E2E.admin, { theme: 'b', language: 'ja' });
  await eachDisplay(page, {
    displays: [
      ['ja', 'b'],
      ['ko', 's'],
    ],
    visit: async ({ name }) => {
      await page.goto('/schema');
      await expect(page.getByTestId('schema-row').first()).toBeVisible();
      await shot(page, `schema-list-${name}`);
      expect(await seriousViolations(page, `schema list, ${name}`)).toEqual([]);
      await page.goto(`/schema/${schemasTypeNo}`);
      await expect(page.getByTestId('schema-child-0')).toBeVisible();
    },
    shot: 'schema-editor',
  });
  await page.context().close();
});
