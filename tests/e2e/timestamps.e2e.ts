import { api, noteDocumentName } from '@eln/shared';
import { appendParagraph, connectWriter, eventually } from '../../server/src/testing/live.js';
import { startTestTimestampAuthority } from '../../server/src/testing/timestampAuthority.js';
import { E2E, hangTimeout } from './fixtures.js';
import { apiSignIn, callApi, eachDisplay, openAs, showIn, shot, unique } from './support.js';
import { expect, test } from './test.js';

/**
 * A signature's trusted time-stamp in the browser: with a real OpenSSL authority set up by an administrator,
 * a note signed through the API shows when and by whom it was time-stamped, and its check (Verify) says the
 * stored token is valid, with the files and the command to repeat the check offline; in each language and theme.
 * The version it covers shows its stamp in the note's history.
 */
test('a signed note shows its RFC 3161 time-stamp and verifies it, in three languages and both themes', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(hangTimeout(180_000));
  const id = unique();
  const tsa = await startTestTimestampAuthority();
  const adminToken = await apiSignIn(request, E2E.admin);
  const { authorityNo } = await callApi(request, adminToken, api.timestamps.create, {
    name: `Lab TSA ${id}`,
    url: tsa.url,
    username: '',
    policy: '',
    hash: 'SHA-256',
    chainPem: tsa.caPem,
    enabled: true,
  });
  try {
    const token = await apiSignIn(request, E2E.member);
    const { projectNo } = await callApi(request, token, api.projects.create, {
      title: `Stamped ${id}`,
      description: '',
      signatureList: { department: '', user: `${E2E.member.userId},${E2E.admin.userId}` },
    });
    const { labNoteNo } = await callApi(request, token, api.notes.create, { projectNo, title: `Assay ${id}` });
    const editor = await connectWriter(baseURL!, noteDocumentName(labNoteNo), token);
    try {
      appendParagraph(editor.doc, `Batch ${id} assayed at 98.7 %.`);
      await eventually(() => editor.allDurable(), 'the line to be stored');
    } finally {
      editor.destroy();
    }
    await callApi(request, token, api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
    await callApi(request, token, api.signatures.request, { labNoteNo, signers: [{ userId: E2E.admin.userId, type: 'reviewer' }] });
    await callApi(request, adminToken, api.signatures.respond, {
      labNoteNo,
      status: 'T',
      password: E2E.admin.password,
      name: E2E.admin.name,
      timeZone: 'Asia/Seoul',
    });
    await eventually(
      async () =>
        (await callApi(request, token, api.notes.blockList, { labNoteNo })).note.signatureList[0]?.timestamp?.status === 'stamped',
      'the time-stamp',
      30_000,
    );
    await eventually(
      async () => (await callApi(request, token, api.noteHistory.list, { labNoteNo })).list[0]?.timestamp?.status === 'stamped',
      'the version’s time-stamp',
      30_000,
    );

    const words = {
      en: { stamped: 'Time-stamped', valid: 'Valid:' },
      ko: { stamped: '타임스탬프', valid: '유효함' },
      ja: { stamped: 'タイムスタンプ', valid: '有効' },
    } as const;
    const page = await openAs(browser, E2E.member);
    await page.goto(`/note/${labNoteNo}`);
    const mark = page.getByTestId('signatures').getByTestId('signature-timestamp');
    await eachDisplay(page, {
      open: async () => {
        await expect(mark).toHaveAttribute('data-status', 'stamped');
        await mark.getByTestId('signature-timestamp-verify').click();
      },
      visit: async ({ language }) => {
        await expect(mark).toContainText(words[language].stamped);
        await expect(mark).toContainText(`Lab TSA ${id}`);
        await expect(mark).toContainText(/GMT\+9/);
        await expect(mark.getByTestId('signature-timestamp-valid')).toContainText(words[language].valid);
        await expect(mark.getByTestId('signature-timestamp-valid')).toContainText('ELN Test Time Stamping Authority');
        await expect(mark.locator('code')).toContainText(`openssl ts -verify -token_in -in signature-`);
        await mark.scrollIntoViewIfNeeded();
      },
      shot: 'timestamp-signature',
      fullPage: false,
      axe: { where: 'signature time-stamp' },
    });

    // The version the signature covers is stamped too, and the history says so.
    await showIn(page, 'en', 's');
    await page.goto(`/note/${labNoteNo}/history`);
    const versionMark = page.getByTestId('history-version').first().getByTestId('version-timestamp');
    await expect(versionMark).toHaveAttribute('data-status', 'stamped');
    await expect(versionMark).toContainText(`Lab TSA ${id}`);
    await shot(page, 'timestamp-version-history-s-en', false);
    await page.context().close();
  } finally {
    await callApi(request, adminToken, api.timestamps.delete, { authorityNo });
    await tsa.stop();
  }
});

test('an administrator sets up authorities: fetches their certificates, pastes the root, orders them, and is warned of an expiring chain', async ({
  browser,
  request,
}) => {
  test.setTimeout(hangTimeout(180_000));
  const id = unique();
  const [tsa, old] = await Promise.all([startTestTimestampAuthority(), startTestTimestampAuthority({ certificate: 'expired' })]);
  const adminToken = await apiSignIn(request, E2E.admin);
  const removeAll = async () => {
    for (const entry of (await callApi(request, adminToken, api.timestamps.authorities, {})).list) {
      await callApi(request, adminToken, api.timestamps.delete, { authorityNo: entry.authorityNo });
    }
  };
  await removeAll();
  try {
    const page = await openAs(browser, E2E.admin);
    await page.goto('/admin');
    await page.getByTestId('nav-admin').click();
    await page.getByTestId('nav-admin-timestamps').click();
    await expect(page).toHaveURL(/\/admin\/timestamps$/);
    await expect(page.getByTestId('tsa-page')).toContainText('No authority yet');

    await page.getByTestId('tsa-add').click();
    const form = page.getByTestId('tsa-form');
    await form.getByTestId('tsa-name').fill(`Lab TSA ${id}`);
    await form.getByTestId('tsa-url').fill(tsa.url);
    // Saving without a chain is refused beside the field.
    await form.getByTestId('tsa-submit').click();
    await expect(form.getByTestId('tsa-chain-error')).toBeVisible();
    await form.getByTestId('tsa-probe').click();
    await expect(form.getByTestId('tsa-probed')).toContainText('ELN Test Time Stamping Authority');
    await shot(page, 'timestamp-admin-probe-s-en', false);
    await form.getByTestId('tsa-chain').fill(tsa.caPem);
    await form.getByTestId('tsa-submit').click();
    await expect(page.getByTestId('tsa-notice')).toContainText(`Lab TSA ${id} has been added.`);
    const entry = page.getByTestId('tsa-entry');
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText('ELN Test Root CA');
    await expect(page.getByTestId('tsa-expiry-banner')).toHaveCount(0);

    // An authority whose chain has expired: warned on every admin screen.
    await callApi(request, adminToken, api.timestamps.create, {
      name: `Old TSA ${id}`,
      url: old.url,
      username: '',
      policy: '',
      hash: 'SHA-512',
      chainPem: old.tsaPem,
      enabled: true,
    });
    await page.reload();
    await expect(page.getByTestId('tsa-entry')).toHaveCount(2);
    await expect(page.getByTestId('tsa-entry').nth(1).getByTestId('tsa-entry-expiry')).toContainText('2021-01-01');
    await expect(page.getByTestId('tsa-expiry-banner')).toContainText(`Old TSA ${id}`);
    await page.goto('/admin/audit');
    await expect(page.getByTestId('tsa-expiry-banner')).toContainText('2021-01-01');
    await page.context().close();

    const titles = { en: 'Trusted time-stamps', ko: '신뢰할 수 있는 타임스탬프', ja: '信頼できるタイムスタンプ' } as const;
    const admin = await openAs(browser, E2E.admin);
    await admin.goto('/admin/timestamps');
    await eachDisplay(admin, {
      visit: async ({ language }) => {
        await expect(admin.getByRole('heading', { name: titles[language], level: 1 })).toBeVisible();
        await expect(admin.getByTestId('tsa-entry')).toHaveCount(2);
      },
      shot: 'timestamp-admin',
      axe: { where: 'time-stamping authorities' },
    });
    await admin.context().close();
  } finally {
    await removeAll();
    await Promise.all([tsa.stop(), old.stop()]);
  }
});
