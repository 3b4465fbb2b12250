import { api } from '@eln/shared';
import { expect, test } from './test.js';
import { png } from '../../server/src/files/pngImage.js';
import { E2E, hangTimeout } from './fixtures.js';
import { callApi, apiSignIn, openAs, seriousViolations, shot, unique, type Person } from './support.js';

/**
 * Schema thumbnails (issue 12): a curator opens the thumbnail modal from the type and from a schema, sees
 * the server refuse a PNG named .gif, cancels a chosen image (nothing changes), then applies one; the list
 * shows the small copy, and a placeholder for a type without one.
 */

const PICTURE = png(320, 200, (x, y) => [40 + (x % 180), 90 + (y % 120), 200 - ((x + y) % 160)]);

test('a curator sets a type’s and a schema’s thumbnail through the modal; refusals and cancel change nothing; the list shows them', async ({
  browser,
  request,
}) => {
  test.setTimeout(hangTimeout(120_000));
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const curator: Person = {
    userId: `thumbs.${id.toLowerCase()}@eln.local`,
    password: 'curator-password-1234',
    name: `Thumb Curator ${id}`,
  };
  await callApi(request, adminToken, api.users.create, {
    ...curator,
    level: 1,
    auth: { project: 'Y', schema: 'Y', dropbox: 'N', template: 'N' },
  });
  const token = await apiSignIn(request, curator);
  const created = await callApi(request, token, api.schemas.create, {
    code: `EQUIP-${id}`,
    title: `Equipment ${id}`,
    schemas: [
      { title: 'Centrifuge', entries: [{ field: 'Model', value: '5430 R' }] },
      { title: 'Balance', entries: [{ field: 'Readability', value: '0.1 mg' }] },
    ],
  });
  const plain = await callApi(request, token, api.schemas.create, {
    code: `PLAIN-${id}`,
    title: `Plain ${id}`,
    schemas: [],
  });

  const page = await openAs(browser, curator, { theme: 'b', language: 'ko' });
  await page.goto(`/schema/${created.schemasTypeNo}`);
  await expect(page.getByTestId('page-schema-detail')).toBeVisible();
  await expect(page.getByTestId('schema-type-thumbnail-image')).toHaveAttribute('data-thumbnail', 'none');

  // A PNG named .gif passes the picker's own check by name and is refused by the server on its content.
  await page.getByTestId('schema-type-thumbnail-change').click();
  const dialog = page.getByTestId('thumbnail-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('thumbnail-apply')).toBeDisabled();
  await page.getByTestId('thumbnail-input').setInputFiles({ name: 'disguised.gif', mimeType: 'image/gif', buffer: PICTURE });
  await page.getByTestId('thumbnail-apply').click();
  await expect(page.getByTestId('thumbnail-error')).toContainText('썸네일은 파일 이름과 내용이 일치하는');
  await shot(page, 'schema-thumbnail-refused-b-ko');
  expect(await seriousViolations(page, 'thumbnail modal with a refusal')).toEqual([]);

  // A file that is not an image is refused before it is sent.
  await page
    .getByTestId('thumbnail-input')
    .setInputFiles({ name: 'manual.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7') });
  await expect(page.getByTestId('thumbnail-error')).toBeVisible();
  await expect(page.getByTestId('thumbnail-preview')).toHaveCount(0);

  // A good image is previewed; cancel keeps the type as it was.
  await page.getByTestId('thumbnail-input').setInputFiles({ name: 'equipment.png', mimeType: 'image/png', buffer: PICTURE });
  await expect(page.getByTestId('thumbnail-preview')).toBeVisible();
  await expect(page.getByTestId('thumbnail-error')).toHaveCount(0);
  await page.getByTestId('thumbnail-cancel').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('schema-type-thumbnail-change')).toBeFocused();
  await expect(page.getByTestId('schema-type-thumbnail-image')).toHaveAttribute('data-thumbnail', 'none');
  const afterCancel = await callApi(request, token, api.schemas.detail, { schemasTypeNo: created.schemasTypeNo });
  expect(afterCancel.thumbnail).toBeNull();

  // Applied: uploaded, set, shown at once.
  await page.getByTestId('schema-type-thumbnail-change').click();
  await page.getByTestId('thumbnail-input').setInputFiles({ name: 'equipment.png', mimeType: 'image/png', buffer: PICTURE });
  await page.getByTestId('thumbnail-apply').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('schema-type-thumbnail-image')).toHaveAttribute('data-thumbnail', 'set');
  await expect(page.getByTestId('schema-notice')).toHaveText('썸네일을 변경했습니다.');
  await expect
    .poll(() =>
      page
        .getByTestId('schema-type-thumbnail-image')
        .locator('img')
        .evaluate((img) => (img as HTMLImageElement).naturalWidth),
    )
    .toBe(256);

  // The second schema's own thumbnail, from its editor.
  await page.getByTestId('schema-child-1').click();
  await page.getByTestId('schema-child-thumbnail-change').click();
  await page
    .getByTestId('thumbnail-input')
    .setInputFiles({ name: 'balance.png', mimeType: 'image/png', buffer: png(120, 160, (x) => [x * 2, 150, 90]) });
  await expect(page.getByTestId('thumbnail-preview')).toBeVisible();
  await shot(page, 'schema-thumbnail-preview-b-ko');
  await page.getByTestId('thumbnail-apply').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('schema-child-thumbnail-image')).toHaveAttribute('data-thumbnail', 'set');
  await expect(page.getByTestId('schema-child-1').locator('img')).toBeVisible();
  await expect(page.getByTestId('schema-child-0').locator('img')).toHaveCount(0);
  // Nothing in the form changed: leaving asks nothing.
  await expect(page.getByTestId('schema-submit')).toBeDisabled();

  // The list: the small copy for the type, a placeholder for the plain one; in theme s, English.
  const listPage = await openAs(browser, curator, { theme: 's', language: 'en' });
  await listPage.goto('/schema');
  const rowOf = (title: string) => listPage.getByTestId('schema-row').filter({ hasText: title });
  await expect(rowOf(`Equipment ${id}`).getByTestId('schema-row-thumbnail')).toHaveAttribute('data-thumbnail', 'set');
  await expect(rowOf(`Equipment ${id}`).getByRole('img', { name: `Thumbnail of Equipment ${id}` })).toBeVisible();
  await expect(rowOf(`Plain ${id}`).getByTestId('schema-row-thumbnail')).toHaveAttribute('data-thumbnail', 'none');
  expect(plain.schemasTypeNo).toBeGreaterThan(0);
  await shot(listPage, 'schema-list-thumbnails-s-en');
  expect(await seriousViolations(listPage, 'schema list with thumbnails')).toEqual([]);

  // The modal in theme s, Japanese, with the current thumbnail and Remove.
  const jaPage = await openAs(browser, curator, { theme: 's', language: 'ja' });
  await jaPage.goto(`/schema/${created.schemasTypeNo}`);
  await jaPage.getByTestId('schema-type-thumbnail-change').click();
  await expect(jaPage.getByTestId('thumbnail-remove')).toBeVisible();
  await shot(jaPage, 'schema-thumbnail-dialog-s-ja');
  expect(await seriousViolations(jaPage, 'thumbnail modal, theme s')).toEqual([]);
  await jaPage.getByTestId('thumbnail-remove').click();
  await expect(jaPage.getByTestId('thumbnail-dialog')).toHaveCount(0);
  await expect(jaPage.getByTestId('schema-type-thumbnail-image')).toHaveAttribute('data-thumbnail', 'none');
});
