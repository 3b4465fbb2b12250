import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { api } from '@eln/shared';
import { expect, test } from './test.js';
import type { Download, Locator, Page, Route } from '@playwright/test';
import { E2E, hangTimeout } from './fixtures';
import { generateSigningKey, minisignPublicKeyFile, minisignSignature } from '../../server/src/exports/eln/minisign.js';
import { callApi, apiSignIn, eachDisplay, fillDate, openAs, prose, seriousViolations, shot, showIn, unique } from './support';

/**
 * A project leaves the notebook from its own screen, as PDF and as a signed .eln archive; the PDF's pages
 * are rendered with poppler and looked at in the browser; the archive comes back through the download page
 * as a new project, whose note holds the same text.
 */

/** Starts an export and answers its file: at once when the job is short, else from the job list once done. */
async function exportFile(page: Page, form: string, jobs: Locator, format: 'pdf' | 'eln'): Promise<Download> {
  await page.getByTestId(`${form}-format-${format}`).click();
  let saved: Download | null = null;
  const auto = page.waitForEvent('download', { timeout: 180_000 }).then((download) => (saved = download));
  await page.getByTestId(`${form}-start`).click();
  const job = jobs.locator('li').first();
  await expect(job).toHaveAttribute('data-status', 'done', { timeout: 180_000 });
  await expect(job).toContainText(format === 'pdf' ? 'PDF' : '.eln');
  if (!saved) {
    // Not fetched within the short wait: the list's download button fetches it.
    await page.waitForTimeout(500);
    if (!saved) await job.getByTestId('export-job-download').click();
  }
  return auto;
}

/** A one-note .eln archive whose metadata `signer` signed, shipping no key: another notebook's, unknown here. */
async function archiveSignedElsewhere(title: string, signer: ReturnType<typeof generateSigningKey>): Promise<Buffer> {
  const metadata = Buffer.from(
    JSON.stringify({
      '@context': 'https://w3id.org/ro/crate/1.1/context',
      '@graph': [
        {
          '@id': 'ro-crate-metadata.json',
          '@type': 'CreativeWork',
          conformsTo: { '@id': 'https://w3id.org/ro/crate/1.1' },
          about: { '@id': './' },
        },
        { '@id': './', '@type': 'Dataset', name: title, hasPart: [{ '@id': 'entry/' }] },
        { '@id': 'entry/', '@type': 'Dataset', name: 'Buffer recipe', text: 'Tris 50 mM, pH 7.4.' },
      ],
    }),
  );
  const folder = await mkdtemp(path.join(os.tmpdir(), 'eln-elsewhere-'));
  try {
    await mkdir(path.join(folder, 'root'));
    await writeFile(path.join(folder, 'root', 'ro-crate-metadata.json'), metadata);
    await writeFile(
      path.join(folder, 'root', 'ro-crate-metadata.json.minisig'),
      minisignSignature(signer, metadata, { untrusted: 'signature', trusted: 'https://partner.example/.well-known/keys.json' }),
    );
    execFileSync('zip', ['-qr', 'partner.eln', 'root'], { cwd: folder });
    return await readFile(path.join(folder, 'partner.eln'));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Answers a call as a server that cannot answer now would (the envelope of an unexpected error). */
const answerUnavailable = (route: Route) =>
  route.fulfill({
    status: 503,
    contentType: 'application/json',
    body: JSON.stringify({ status: '9999', message: 'Unavailable', data: null }),
  });

test.describe('exports', () => {
  test.setTimeout(hangTimeout(420_000));

  test('a leader exports the project as PDF and .eln; an administrator imports the archive as a new project', async ({
    browser,
    request,
  }) => {
    const id = unique();
    const token = await apiSignIn(request, E2E.member);
    const title = `Export ${id}`;
    const { projectNo } = await callApi(request, token, api.projects.create, {
      title,
      description: 'Buffers',
      signatureList: { department: '', user: E2E.member.userId },
    });
    const { labNoteNo } = await callApi(request, token, api.notes.create, { projectNo, title: `Buffer ${id}` });

    const kim = await openAs(browser, E2E.member);
    await kim.goto(`/editor/${labNoteNo}`);
    await expect(kim.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
    await prose(kim).click();
    await kim.keyboard.type('Buffer prepared at pH 7.4. 완충액 준비. 緩衝液を調製。');
    await expect(kim.getByTestId('save-state')).toHaveAttribute('data-saved', 'yes');
    await callApi(request, token, api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });

    // The note screen prints the saved version on screen as PDF. A print that outlasts the loading overlay's
    // few seconds (held here: the job is answered as running at 40 % until the test lets it go) goes on behind
    // the screen, its progress on the button, and the file downloads once it is done.
    await expect(kim.getByTestId('note-version')).toHaveAttribute('data-version', '1');
    let held = true;
    // Two answers while held are a server error, one under the overlay (1.5 s after the click) and the first
    // one after it has gone: the wait under the overlay and the long follow each bear a failed call and go on.
    let failed = 0;
    let overlayGone = false;
    let answeredSinceFailure = 0;
    let clickedAt = Number.POSITIVE_INFINITY;
    await kim.route(`**${api.exports.detail.path}`, async (route) => {
      const response = await route.fetch();
      if (held && ((failed === 0 && Date.now() - clickedAt > 1_500) || (failed === 1 && overlayGone))) {
        failed += 1;
        answeredSinceFailure = 0;
        await answerUnavailable(route);
        return;
      }
      if (failed === 2) answeredSinceFailure += 1;
      const envelope = (await response.json()) as { data?: Record<string, unknown> };
      if (envelope.data && held) envelope.data = { ...envelope.data, status: 'running', progress: 40, downloadable: false };
      await route.fulfill({ response, json: envelope });
    });
    const pdfButton = kim.getByTestId('note-export-pdf');
    const notePdf = kim.waitForEvent('download', { timeout: 180_000 });
    clickedAt = Date.now();
    await pdfButton.click();
    await expect(pdfButton).toHaveAttribute('data-progress', /^\d+$/, { timeout: 30_000 });
    await expect(pdfButton).toHaveText(/PDF · \d+ %/);
    await expect(pdfButton).toBeDisabled();
    await expect(kim.getByTestId('note-export-pdf-status')).toHaveText(/takes longer than usual/);
    await expect(kim.getByTestId('progress-overlay')).toHaveCount(0);
    overlayGone = true;
    // Asked again after both failures, with no error shown.
    await expect.poll(() => failed, { timeout: 30_000 }).toBe(2);
    await expect.poll(() => answeredSinceFailure, { timeout: 30_000 }).toBeGreaterThan(0);
    await expect(kim.getByTestId('alert-message')).toHaveCount(0);
    await expect(pdfButton).toHaveAttribute('data-progress', /^\d+$/);
    await shot(kim, 'note-pdf-following-en');
    // From here on the loading overlay must not come back: it would take the keyboard from whoever is typing.
    await kim.evaluate(() => {
      const flag = window as unknown as { overlaySeen: boolean };
      flag.overlaySeen = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="progress-overlay"]')) flag.overlaySeen = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    held = false;
    const noteFile = await notePdf;
    await expect(pdfButton).not.toHaveAttribute('data-progress');
    await expect(pdfButton).toBeEnabled();
    expect(await kim.evaluate(() => (window as unknown as { overlaySeen: boolean }).overlaySeen)).toBe(false);
    await kim.unroute(`**${api.exports.detail.path}`);

    // The project screen offers the export to its leader, with the project's own jobs below.
    await kim.goto(`/project/${projectNo}`);
    const card = kim.getByTestId('project-export');
    await expect(card).toBeVisible();
    const jobs = kim.getByTestId('project-export-jobs');
    // The note's own export is listed with the project's.
    await expect(jobs.locator('li')).toHaveCount(1);
    await expect(jobs.locator('li').first()).toHaveAttribute('data-status', 'done');
    expect(noteFile.suggestedFilename()).toMatch(/^LN-\d{4}-\d{6}-v1-\d{4}-\d{2}-\d{2}\.pdf$/);
    // With each note's changes since the version before it (here the first version: everything in it).
    await kim.getByTestId('project-export-form-format-pdf').click();
    await kim.getByTestId('project-export-form-changes').check();
    const pdf = await exportFile(kim, 'project-export-form', jobs, 'pdf');
    expect(pdf.suggestedFilename()).toMatch(new RegExp(`^Export ${id}-\\d{4}-\\d{2}-\\d{2}\\.pdf$`));
    await card.scrollIntoViewIfNeeded();
    await shot(kim, 'export-project-s-en');
    expect(await seriousViolations(kim, 'project export panel')).toEqual([]);

    // The PDF holds the text in all three scripts; its pages, rendered by poppler, are looked at here.
    const folder = await mkdtemp(path.join(os.tmpdir(), 'e2e-export-'));
    try {
      const pdfPath = path.join(folder, 'project.pdf');
      await pdf.saveAs(pdfPath);
      const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
      for (const expected of [
        title,
        `Buffer ${id}`,
        'Buffer prepared at pH 7.4.',
        '완충액 준비.',
        '緩衝液を調製。',
        E2E.member.name,
        'Changes: the first saved version',
      ])
        expect(text).toContain(expected);
      execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '2', pdfPath, path.join(folder, 'page')]);
      const pages = (await readdir(folder)).filter((name) => name.endsWith('.png')).sort();
      expect(pages).toHaveLength(2);
      const viewer = await kim.context().newPage();
      const images = await Promise.all(
        pages.map(async (name) => `data:image/png;base64,${(await readFile(path.join(folder, name))).toString('base64')}`),
      );
      await viewer.setContent(
        `<body style="margin:0;background:#666;display:flex;gap:16px;padding:16px">${images.map((src) => `<img src="${src}" style="width:600px;box-shadow:0 2px 8px #0008">`).join('')}</body>`,
      );
      await expect(viewer.locator('img')).toHaveCount(2);
      for (const image of await viewer.locator('img').all())
        expect(await image.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(300);
      await shot(viewer, 'export-pdf-pages');
      await viewer.close();

      const eln = await exportFile(kim, 'project-export-form', jobs, 'eln');
      expect(eln.suggestedFilename()).toMatch(/\.eln$/);
      const elnPath = path.join(folder, eln.suggestedFilename());
      await eln.saveAs(elnPath);
      await expect(jobs.locator('li')).toHaveCount(3);

      // The administrator brings the archive back (beauty theme, Japanese) as a new project.
      const admin = await openAs(browser, E2E.admin, { theme: 'b', language: 'ja' });
      await admin.goto('/admin/download');
      await expect(admin.getByTestId('page-admin-download')).toBeVisible();
      await admin.getByTestId('eln-import-file').setInputFiles(elnPath);
      const done = admin.getByTestId('eln-import-done');
      await expect(done).toBeVisible({ timeout: 60_000 });
      await expect(done).toContainText('このノートシステムの署名付き');
      // The leader's exports are listed for the administrator too: who exported what, and when.
      await expect(admin.getByTestId('download-job-list')).toContainText(title);
      await expect(admin.getByTestId('download-job-list')).toContainText(E2E.member.name);
      await shot(admin, 'download-import-b-ja');
      expect(await seriousViolations(admin, 'download page after an import, theme b, Japanese')).toEqual([]);
      await admin.getByTestId('eln-import-open').click();
      await expect(admin.getByTestId('page-project-detail')).toBeVisible();
      await expect(admin.getByTestId('project-notes')).toContainText(`Buffer ${id}`);
      // The note's writer is its author in the archive, by name and marked imported, above who imported it.
      const row = admin.getByTestId('project-notes').locator('tr', { hasText: `Buffer ${id}` });
      await expect(row.locator('[data-testid^="note-row-writer-"]')).toHaveText(
        `${E2E.member.name}（取り込み）取り込んだ人：${E2E.admin.name}`,
      );
      await shot(admin, 'imported-notes-b-ja');
      await row.getByRole('link', { name: `Buffer ${id}` }).click();
      await expect(admin.getByTestId('note-writer')).toContainText(`${E2E.member.name}（取り込み）`);
      await expect(admin.getByTestId('note-importer')).toHaveText(`取り込んだ人：${E2E.admin.name}`);
      await shot(admin, 'imported-note-b-ja', false);
      await admin.context().close();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    await kim.context().close();
  });

  test('the download page in Korean: audit CSV of one day, a refused archive, the public key', async ({ browser }) => {
    const admin = await openAs(browser, E2E.admin, { language: 'ko' });
    await admin.goto('/admin/download');
    await admin.getByTestId('download-form-format-pdf').click();
    await admin.getByTestId('download-form-start').click();
    // A project export needs a project: said at the field, nothing started.
    await expect(admin.getByTestId('download-form-projects-error')).toHaveText('프로젝트를 하나 이상 선택해 주세요.');
    await admin.getByTestId('download-form-format-auditCsv').click();
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Seoul' });
    await fillDate(admin.getByTestId('download-form-range-start'), today);
    await fillDate(admin.getByTestId('download-form-range-end'), today);
    const csv = admin.waitForEvent('download');
    await admin.getByTestId('download-form-start').click();
    expect((await csv).suggestedFilename()).toBe(`audit-trail-${today}_${today}.csv`);
    await expect(admin.getByTestId('download-job-list').locator('li').first()).toHaveAttribute('data-status', 'done');

    // The job cannot be asked about under the overlay (every poll fails): said after three in a row, not left
    // in silence; the job goes on and the list shows it done.
    let failedPolls = 0;
    await admin.route(`**${api.exports.detail.path}`, async (route) => {
      failedPolls += 1;
      await answerUnavailable(route);
    });
    await admin.getByTestId('download-form-start').click();
    await expect(admin.getByTestId('alert-message')).toHaveText('예상치 못한 오류가 발생했습니다.');
    expect(failedPolls).toBe(3);
    await admin.getByTestId('alert-ok').click();
    await admin.unroute(`**${api.exports.detail.path}`);
    await expect(admin.getByTestId('download-job-list').locator('li').first()).toHaveAttribute('data-status', 'done');

    const key = admin.waitForEvent('download');
    await admin.getByTestId('download-public-key').click();
    const pub = await readFile(await (await key).path(), 'utf8');
    expect(pub).toMatch(/^untrusted comment: /);

    await admin
      .getByTestId('eln-import-file')
      .setInputFiles({ name: 'notes.eln', mimeType: 'application/zip', buffer: Buffer.from('not a zip archive at all') });
    await expect(admin.getByTestId('eln-import-refused')).toContainText('.eln 아카이브가 아닙니다');
    await shot(admin, 'download-s-ko');
    expect(await seriousViolations(admin, 'download page, Korean')).toEqual([]);
    await admin.context().close();
  });

  test('an archive signed by an unknown key is verified once an administrator adds its key; the keys and imports in every language and theme', async ({
    browser,
  }) => {
    const id = unique();
    const partner = generateSigningKey();
    const title = `Signed elsewhere ${id}`;
    const admin = await openAs(browser, E2E.admin, { language: 'ko', theme: 's' });
    await admin.goto('/admin/download');
    await admin
      .getByTestId('eln-import-file')
      .setInputFiles({ name: 'partner.eln', mimeType: 'application/zip', buffer: await archiveSignedElsewhere(title, partner) });
    await expect(admin.getByTestId('eln-import-done')).toContainText('이 서버가 모르는 키로 서명되어');
    const row = admin.getByTestId('eln-import-row').filter({ hasText: title });
    await expect(row).toHaveAttribute('data-signature', 'unknownKey');
    await expect(row.getByTestId('eln-import-signature')).toHaveText(`모르는 키(${partner.keyId})로 서명됨`);
    await expect(admin.getByTestId('known-key').and(admin.locator(`[data-key-id="${partner.keyId}"]`))).toHaveAttribute(
      'data-source',
      'unknownKey',
    );

    // A malformed key is refused at its field, nothing added.
    await admin.getByTestId('known-key-public').fill('not a key');
    await admin.getByTestId('known-key-name-field').fill(`Partner ${id}`);
    await admin.getByTestId('known-key-add').click();
    await expect(admin.getByTestId('known-keys-refused')).toContainText('minisign 공개 키가 아닙니다');
    // The key as the partner publishes it: the import that waited for it is verified at once.
    await admin.getByTestId('known-key-public').fill(minisignPublicKeyFile(partner));
    await admin.getByTestId('known-key-organisation').fill('Partner University');
    await admin.getByTestId('known-key-add').click();
    await expect(admin.getByTestId('known-keys-done')).toContainText(`키 ${partner.keyId}를 추가했습니다. 지금 검증된 가져오기: 1개`);
    await expect(row).toHaveAttribute('data-signature', 'addedKey');
    const added = admin.getByTestId('known-key').and(admin.locator(`[data-key-id="${partner.keyId}"]`));
    await expect(added).toHaveAttribute('data-source', 'addedKey');
    await expect(added).toContainText(`Partner ${id}`);
    await expect(added).toContainText(`추가한 사람: ${E2E.admin.name}`);

    // The page in each language and theme, switched in place; axe once per theme.
    const says = {
      ko: `Partner ${id} (Partner University)이(가) 서명함`,
      en: `Signed by Partner ${id} (Partner University)`,
      ja: `Partner ${id} (Partner University)の署名`,
    } as const;
    for (const [language, theme] of [
      ['ko', 's'],
      ['ko', 'b'],
      ['en', 'b'],
      ['en', 's'],
      ['ja', 's'],
      ['ja', 'b'],
    ] as const) {
      // Switched in place, nothing saved on the server for the administrator's later tests.
      await showIn(admin, language, theme);
      await expect(row.getByTestId('eln-import-signature')).toHaveText(says[language]);
      await shot(admin, `download-keys-${theme}-${language}`);
      if (language === 'en') expect(await seriousViolations(admin, `download page with an added key, theme ${theme}`)).toEqual([]);
    }

    // Removed (after a confirmation), the key no longer vouches: the import waits for it again.
    await added.getByTestId('known-key-remove').click();
    await admin.getByTestId('alert-ok').click();
    await expect(row).toHaveAttribute('data-signature', 'unknownKey');
    await expect(added).toHaveAttribute('data-source', 'unknownKey');
    await admin.context().close();
  });

  test('the export form says when the server cannot print PDFs and what to install, in each language and theme', async ({ browser }) => {
    const says = {
      en: 'Chromium is not installed',
      ko: 'Chromium이 설치되어 있지 않습니다',
      ja: 'Chromiumがインストールされていません',
    } as const;
    const admin = await openAs(browser, E2E.admin);
    // The answer of a server without chromium, fonts-nanum and Ghostscript (the API test runs such a server).
    await admin.route(`**${api.exports.support.path}`, (route) =>
      route.fulfill({
        json: {
          status: '0000',
          message: 'OK',
          data: { pdf: false, pdfA: false, missingPackages: ['chromium', 'fonts-nanum', 'ghostscript'] },
        },
      }),
    );
    await eachDisplay(admin, {
      displays: [
        ['en', 's'],
        ['ko', 'b'],
        ['ja', 's'],
      ],
      visit: async ({ language }) => {
        await admin.goto('/admin/download');
        await expect(admin.getByTestId('download-form-support')).toContainText(says[language]);
        await expect(admin.getByTestId('download-form-support-command')).toHaveText(
          'sudo apt-get install chromium fonts-nanum ghostscript',
        );
        // PDF cannot be chosen; the archive is what is left (without its PDF copies, as the notice says).
        await expect(admin.getByTestId('download-form-format-pdf').locator('input')).toBeDisabled();
        await expect(admin.getByTestId('download-form-format-eln').locator('input')).toBeChecked();
      },
      shot: 'download-no-pdf',
      axe: { where: 'download page without chromium' },
      // The audit CSV needs no printer: nothing is said there.
      after: async () => {
        await admin.getByTestId('download-form-format-auditCsv').click();
        await expect(admin.getByTestId('download-form-support')).toHaveCount(0);
      },
    });
    await admin.context().close();
  });
});
