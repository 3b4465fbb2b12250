import { api } from '@eln/shared';
import { expect, test } from './test.js';
import type { APIRequestContext, Page } from '@playwright/test';
import type { SchemaUpdateRequest } from '../../shared/src/api/schemas.js';
import { png } from '../../server/src/files/pngImage.js';
import { E2E, hangTimeout } from './fixtures.js';
import { callApi, apiSignIn, eachDisplay, openAs, prose, seriousViolations, shot, unique, type Person } from './support.js';

/**
 * Catalogues in notes (issue 12's closing test): a curator builds a schema type with two schemas and a
 * thumbnail, and imports a dropbox from a CP949 CSV in the browser; a writer puts a schema block and a
 * dropbox cell into a note, picks a value, saves, and a reviewer signs. Then the curator renames the
 * dropbox row and changes the schema: the signed note still says what was signed, and its schema block
 * says a newer revision exists.
 */

const CP949_UNITS = 'server/src/dropboxes/fixtures/units-cp949.csv';

async function people(request: APIRequestContext, id: string) {
  const adminToken = await apiSignIn(request, E2E.admin);
  const person = async (
    role: string,
    name: string,
    flags: { project: 'Y' | 'N'; schema: 'Y' | 'N'; dropbox: 'Y' | 'N' },
  ): Promise<Person> => {
    const who = { userId: `${role}.${id.toLowerCase()}@eln.local`, password: `${role}-password-1234`, name: `${name} ${id}` };
    await callApi(request, adminToken, api.users.create, { ...who, level: 1, auth: { ...flags, template: 'N' } });
    return who;
  };
  const curator = await person('curator', 'Han Curator', { project: 'N', schema: 'Y', dropbox: 'Y' });
  const leader = await person('leader', 'Lee Leader', { project: 'Y', schema: 'N', dropbox: 'N' });
  const writer = await person('writer', 'Woo Writer', { project: 'N', schema: 'N', dropbox: 'N' });
  const reviewer = await person('reviewer', 'Ryu Reviewer', { project: 'N', schema: 'N', dropbox: 'N' });
  const { projectNo } = await callApi(request, await apiSignIn(request, leader), api.projects.create, {
    title: `Buffers ${id}`,
    description: 'Buffer preparation',
    signatureList: { department: '', user: `${writer.userId},${reviewer.userId}` },
  });
  return { curator, writer, reviewer, projectNo };
}

/** The curator's schema type: two schemas with entries, typed in the schema editor. */
async function createSchemaType(page: Page, id: string): Promise<number> {
  await page.getByTestId('nav-schema').click();
  await page.getByTestId('schema-create-button').click();
  await page.getByTestId('schema-code').fill(`REAGENT-${id}`);
  await page.getByTestId('schema-title').fill(`Reagents ${id}`);
  const typeEntries = async (entries: Array<[string, string]>) => {
    for (const [index, [field, value]] of entries.entries()) {
      await page.getByTestId('schema-entry-field').nth(index).fill(field);
      await page.getByTestId('schema-entry-value').nth(index).fill(value);
      if (index < entries.length - 1) await page.getByTestId('schema-entry-value').nth(index).press('Enter');
    }
  };
  await page.getByTestId('schema-child-title').fill('Sodium chloride');
  await typeEntries([
    ['CAS', '7647-14-5'],
    ['MW', '58.44 g/mol'],
  ]);
  await page.getByTestId('schema-child-add').click();
  await page.getByTestId('schema-child-title').fill('Ethanol');
  await typeEntries([['CAS', '64-17-5']]);
  await page.getByTestId('schema-submit').click();
  await expect(page.getByTestId('page-schema-detail')).toBeVisible();
  // Its picture: chosen, previewed, applied; the server keeps a small copy for lists.
  await page.getByTestId('schema-type-thumbnail-change').click();
  await page
    .getByTestId('thumbnail-input')
    .setInputFiles({ name: 'reagents.png', mimeType: 'image/png', buffer: png(400, 300, (x, y) => [40, 90 + (x % 120), 160 + (y % 90)]) });
  await expect(page.getByTestId('thumbnail-preview')).toBeVisible();
  await page.getByTestId('thumbnail-apply').click();
  await expect(page.getByTestId('schema-type-thumbnail-image')).toHaveAttribute('data-thumbnail', 'set');
  return Number(/\/schema\/(\d+)$/.exec(page.url())?.[1]);
}

/** The curator's dropbox, imported from a CSV that Korean Excel saved (CP949). */
async function createDropbox(page: Page, title: string): Promise<number> {
  await page.getByTestId('nav-dropbox').click();
  await page.getByTestId('dropbox-create-button').click();
  await page.getByTestId('dropbox-title').fill(title);
  await page.getByTestId('dropbox-import-file').setInputFiles(CP949_UNITS);
  await expect(page.getByTestId('dropbox-import-summary')).toContainText('read as CP949');
  await page.getByTestId('dropbox-submit').click();
  await expect(page.getByTestId('page-dropbox-detail')).toBeVisible();
  return Number(/\/dropbox\/(\d+)$/.exec(page.url())?.[1]);
}

test('a schema block and a dropbox cell keep what was signed when the catalogue changes', async ({ browser, request }) => {
  test.setTimeout(hangTimeout(360_000));
  const id = unique();
  const { curator, writer, reviewer, projectNo } = await people(request, id);
  const dropboxTitle = `Units ${id}`;

  const han = await openAs(browser, curator);
  const schemasTypeNo = await createSchemaType(han, id);
  const dropboxNo = await createDropbox(han, dropboxTitle);

  // --- The writer's note: a table whose body cell offers the dropbox, and a schema block.
  const woo = await openAs(browser, writer);
  await woo.goto(`/project/${projectNo}`);
  await woo.getByTestId('new-note-title').fill(`Buffer ${id}`);
  await woo.getByTestId('new-note-submit').click();
  await expect(woo).toHaveURL(/\/note\/\d+$/);
  const labNoteNo = Number(/\/note\/(\d+)$/.exec(woo.url())?.[1]);
  await expect(woo.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
  await prose(woo).click();
  await woo.getByTestId('toolbar-table').click();
  await woo.getByTestId('table-rows').fill('2');
  await woo.getByTestId('table-columns').fill('2');
  await woo.getByTestId('table-submit').click();
  // A header cell never holds a dropbox: the toolbar says so instead of opening the dialog.
  await woo.getByTestId('table-dropbox').click();
  await expect(woo.getByTestId('dropbox-dialog')).toHaveCount(0);
  await expect(woo.getByText('Header cells cannot have a dropbox.')).toBeVisible();

  await prose(woo).locator('td').first().click();
  await woo.getByTestId('table-dropbox').click();
  const dialog = woo.getByTestId('dropbox-dialog');
  await dialog.getByTestId('dropbox-list').selectOption({ label: dropboxTitle });
  await expect(dialog.getByTestId('dropbox-value')).toBeEnabled();
  await expect(dialog.getByTestId('dropbox-value').locator('option')).toHaveText([
    'Nothing chosen yet',
    '밀리그램 (mg)',
    '밀리리터 (mL)',
    '섭씨 온도 ℃ (C)',
    '실온 (상온) (RT)',
  ]);
  await dialog.getByTestId('dropbox-value').selectOption({ label: '밀리그램 (mg)' });
  await shot(woo, 'dropbox-cell-dialog-s-en', false);
  expect(await seriousViolations(woo, 'dropbox cell dialog')).toEqual([]);
  await dialog.getByTestId('dropbox-save').click();
  await expect(dialog).toBeHidden();
  const chip = prose(woo).getByTestId('cell-dropbox-value');
  await expect(chip).toHaveText('밀리그램');
  await expect(chip).toHaveAttribute('title', `From ${dropboxTitle}, code mg`);
  await woo.keyboard.type('5');
  await expect(prose(woo).locator('td').first()).toContainText('5');

  await woo.getByTestId('toolbar-schema').click();
  const schemaDialog = woo.getByTestId('schema-dialog');
  await expect(schemaDialog.getByTestId('schema-insert')).toBeDisabled();
  await schemaDialog.getByTestId('schema-type').selectOption({ label: `Reagents ${id} (REAGENT-${id})` });
  await schemaDialog.getByTestId('schema-schema').selectOption({ label: 'Sodium chloride' });
  await expect(schemaDialog.getByTestId('schema-preview')).toContainText('7647-14-5');
  await shot(woo, 'schema-insert-dialog-s-en', false);
  expect(await seriousViolations(woo, 'schema insert dialog')).toEqual([]);
  await schemaDialog.getByTestId('schema-insert').click();
  await expect(schemaDialog).toBeHidden();
  const block = prose(woo).getByTestId('schema-block');
  await expect(block.getByTestId('schema-block-title')).toHaveText(`Reagents ${id} › Sodium chloride`);
  await expect(block.getByTestId('schema-block-revision')).toHaveText('Revision 1');
  await expect(block.locator('tbody tr')).toHaveText(['CAS7647-14-5', 'MW58.44 g/mol']);
  // The caret went after the block: typing adds a paragraph, the block stays.
  await woo.keyboard.type('Weighed on the lab balance.');
  await expect(block).toBeVisible();
  await expect(woo.getByTestId('save-state')).toHaveAttribute('data-saved', 'yes');
  await woo.getByTestId('save-version').click();
  await expect(woo.getByTestId('note-version')).toHaveAttribute('data-version', '1');
  await shot(woo, 'catalogues-note-s-en');

  // --- Requested and signed (through the API: the signing screens have their own test).
  await callApi(request, await apiSignIn(request, writer), api.signatures.request, {
    labNoteNo,
    signers: [{ userId: reviewer.userId, type: 'reviewer' }],
  });
  await callApi(request, await apiSignIn(request, reviewer), api.signatures.respond, {
    labNoteNo,
    status: 'T',
    password: reviewer.password,
    name: reviewer.name,
    version: 1,
  });
  await expect(woo.getByTestId('readonly-banner')).toHaveAttribute('data-reason', 'signed', { timeout: 15_000 });

  // --- The curator renames the chosen row and changes the schema.
  const curatorToken = await apiSignIn(request, curator);
  const csv = Buffer.from('code,name\nmg,milligram (renamed)\nmL,millilitre\n', 'utf8').toString('base64');
  await callApi(request, curatorToken, api.dropboxes.importCsv, { dropboxNo, file: csv, encoding: 'utf-8' });
  const type = await callApi(request, curatorToken, api.schemas.detail, { schemasTypeNo });
  const update: SchemaUpdateRequest = {
    schemasTypeNo,
    revision: type.revision,
    code: type.code,
    title: type.title,
    description: type.description,
    status: type.status,
    schemas: type.schemas.map((schema, index) => ({
      schemaNo: schema.schemaNo,
      title: schema.title,
      description: schema.description,
      status: schema.status,
      entries: schema.entries.map((entry) => ({
        field: entry.field,
        value: index === 0 && entry.field === 'MW' ? '58.443 g/mol' : entry.value,
        status: entry.status,
      })),
    })),
  };
  await callApi(request, curatorToken, api.schemas.update, update);

  // --- The signed note is unchanged, and says that the schema has moved on.
  await woo.reload();
  await expect(woo.getByTestId('readonly-banner')).toHaveAttribute('data-reason', 'signed');
  await expect(prose(woo).getByTestId('cell-dropbox-value')).toHaveText('밀리그램');
  await expect(prose(woo).getByTestId('schema-block').locator('tbody tr')).toHaveText(['CAS7647-14-5', 'MW58.44 g/mol']);
  await expect(prose(woo).getByTestId('schema-block-newer')).toHaveText('The schema now has revision 2; this block keeps revision 1.');
  await expect(prose(woo).getByTestId('schema-block-update')).toHaveCount(0);
  await shot(woo, 'catalogues-signed-s-en');
  expect(await seriousViolations(woo, 'signed note with catalogue blocks')).toEqual([]);
  await han.context().close();

  // --- The same signed note in the other themes and languages.
  const newer = {
    ko: '스키마가 리비전 2(으)로 바뀌었습니다. 이 블록은 리비전 1을(를) 유지합니다.',
    ja: 'スキーマは現在リビジョン 2 です。このブロックはリビジョン 1 を保持しています。',
    en: 'The schema now has revision 2; this block keeps revision 1.',
  } as const;
  await eachDisplay(woo, {
    displays: [
      ['en', 'b'],
      ['ko', 'b'],
      ['ja', 's'],
    ],
    visit: async ({ language }) => {
      await expect(prose(woo).getByTestId('schema-block-newer')).toHaveText(newer[language]);
      await expect(prose(woo).getByTestId('cell-dropbox-value')).toHaveText('밀리그램');
    },
    shot: 'catalogues-signed',
  });
  await woo.context().close();
});
