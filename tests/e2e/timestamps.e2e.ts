import { api, noteDocumentName } from '@eln/shared';
import { appendParagraph, connectWriter, eventually } from '../../server/src/testing/live.js';
import { startTestTimestampAuthority } from '../../server/src/testing/timestampAuthority.js';
import { E2E, hangTimeout } from './fixtures.js';
import { apiSignIn, callApi, openAs, seriousViolations, shot, unique } from './support.js';
import { expect, test } from './test.js';

/**
 * A signature's trusted time-stamp in the browser: with a real OpenSSL authority set up by an administrator,
 * a note signed through the API shows when and by whom it was time-stamped, and its check (Verify) says the
 * stored token is valid, with the files and the command to repeat the check offline; in each language and theme.
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

    for (const [theme, language, stamped, valid] of [
      ['s', 'en', 'Time-stamped', 'Valid:'],
      ['b', 'en', 'Time-stamped', 'Valid:'],
      ['s', 'ko', '타임스탬프', '유효함'],
      ['b', 'ko', '타임스탬프', '유효함'],
      ['s', 'ja', 'タイムスタンプ', '有効'],
      ['b', 'ja', 'タイムスタンプ', '有効'],
    ] as const) {
      const page = await openAs(browser, E2E.member, { theme, language });
      await page.goto(`/note/${labNoteNo}`);
      const mark = page.getByTestId('signatures').getByTestId('signature-timestamp');
      await expect(mark).toHaveAttribute('data-status', 'stamped');
      await expect(mark).toContainText(stamped);
      await expect(mark).toContainText(`Lab TSA ${id}`);
      await expect(mark).toContainText(/GMT\+9/);
      await mark.getByTestId('signature-timestamp-verify').click();
      await expect(mark.getByTestId('signature-timestamp-valid')).toContainText(valid);
      await expect(mark.getByTestId('signature-timestamp-valid')).toContainText('ELN Test Time Stamping Authority');
      await expect(mark.locator('code')).toContainText(`openssl ts -verify -token_in -in signature-`);
      await mark.scrollIntoViewIfNeeded();
      await shot(page, `timestamp-signature-${theme}-${language}`, false);
      if (language === 'en' && theme === 's') expect(await seriousViolations(page, 'signature time-stamp')).toEqual([]);
      await page.context().close();
    }
  } finally {
    await callApi(request, adminToken, api.timestamps.delete, { authorityNo });
    await tsa.stop();
  }
});
