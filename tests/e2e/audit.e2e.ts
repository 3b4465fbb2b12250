import { readFile } from 'node:fs/promises';
import { api, noteDocumentName } from '@eln/shared';
import { expect, test } from './test.js';
import Papa from 'papaparse';
import { AUDIT_CSV_COLUMNS, AUDIT_HEAD_LINE_PREFIX } from '../../shared/src/api/audit.js';
import { E2E } from './fixtures.js';
import { shot, unique, signIn, callApi, apiSignIn, seriousViolations, fillDate, openAs, eachDisplay } from './support.js';
import { appendParagraph, connectWriter, eventually } from '../../server/src/testing/live.js';

/**
 * The audit trail screens and project closing in the browser: an administrator finds records made through
 * the API, filters them, opens one with its before and after values, verifies the chain and exports the
 * filtered trail as CSV; a leader tries to close a project without a reviewer signature and is refused,
 * then closes it once a reviewer has signed. Each test makes its own data with names unique to the run.
 */

test.describe('audit trail', () => {
  test('an administrator filters the trail, opens a record, verifies the chain and exports CSV', async ({ page, request }) => {
    const id = unique();
    const memberToken = await apiSignIn(request, E2E.member);
    const title = `Assay ${id}`;
    const { projectNo } = await callApi(request, memberToken, api.projects.create, {
      title,
      description: 'First plan',
      signatureList: { department: '', user: E2E.member.userId },
    });
    await callApi(request, memberToken, api.projects.update, {
      projectNo,
      title,
      description: 'Revised plan',
      signatureList: { department: '', user: E2E.member.userId },
    });

    await signIn(page, E2E.admin);
    await page.getByTestId('nav-admin').click();
    await page.getByTestId('nav-admin-audit').click();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await expect(page.getByTestId('page-admin-audit')).toBeVisible();

    // Newest first; the sign-ins are there, with their actors.
    await expect(page.getByTestId('audit-row').first()).toBeVisible();
    const signInRow = page.locator('[data-testid="audit-row"][data-action="user.signIn"]').first();
    await expect(signInRow).toBeVisible();
    await expect(signInRow).toContainText('Signed in');
    const seqs = await page.getByTestId('audit-row').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-seq'))));
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    await expect(page.getByTestId('audit-total')).toHaveAttribute('data-count', /^[1-9]\d*$/);

    // Filter by action: the URL keeps it, every row matches.
    await page.getByTestId('audit-filter-action').selectOption('user.signIn');
    await page.getByTestId('audit-search').click();
    await expect(page).toHaveURL(/\/admin\/audit\?action=user\.signIn$/);
    // The previous rows stay on screen (dimmed) until the filtered answer arrives: wait for it, not for any row.
    await expect
      .poll(() => page.getByTestId('audit-row').evaluateAll((rows) => [...new Set(rows.map((r) => r.getAttribute('data-action')))]))
      .toEqual(['user.signIn']);
    await expect(page.getByTestId('audit-table')).toHaveAttribute('aria-busy', 'false');
    await expect(page.locator('[data-testid="audit-row"]', { hasText: E2E.member.userId }).first()).toBeVisible();
    await shot(page, 'audit-list-s-en');

    // Narrow to the project's update: one record.
    await page.getByTestId('audit-filter-action').selectOption('project.updated');
    await page.getByTestId('audit-filter-target-type').selectOption('project');
    await page.getByTestId('audit-filter-target-id').fill(String(projectNo));
    await page.getByTestId('audit-search').click();
    await expect(page).toHaveURL(new RegExp(`\\?action=project\\.updated&tt=project&ti=${projectNo}$`));
    await expect(page.getByTestId('audit-total')).toHaveAttribute('data-count', '1');
    await expect(page.getByTestId('audit-row')).toHaveCount(1);
    const updateRow = page.getByTestId('audit-row').first();
    await expect(updateRow).toContainText(E2E.member.name);
    await expect(updateRow).toContainText(E2E.member.userId);
    await expect(updateRow).toContainText('Project changed');
    const updateSeq = Number(await updateRow.getAttribute('data-seq'));

    // A date range the records are not in: nothing matches; back to today's range.
    await fillDate(page.getByTestId('audit-filter-start'), '2020-01-01');
    await fillDate(page.getByTestId('audit-filter-end'), '2020-01-31');
    await page.getByTestId('audit-search').click();
    await expect(page).toHaveURL(/sd=2020-01-01&ed=2020-01-31/);
    await expect(page.getByTestId('audit-empty')).toBeVisible();
    await page.goBack();
    await expect(page.getByTestId('audit-row')).toHaveCount(1);
    await expect(page.getByTestId('audit-filter-start')).toHaveAttribute('data-value', '');

    // The detail: before and after side by side, the change marked, the hashes shown.
    await updateRow.click();
    const detail = page.getByTestId('audit-detail');
    await expect(detail).toBeVisible();
    await expect(detail.getByTestId('audit-detail-seq')).toHaveText(`#${updateSeq}`);
    await expect(detail.getByTestId('audit-detail-action')).toContainText('project.updated');
    await expect(detail.getByTestId('audit-detail-target')).toContainText(String(projectNo));
    await expect(detail.getByTestId('audit-detail-time')).toContainText(/UTC[+-]\d{2}:\d{2}/);
    await expect(detail.getByTestId('audit-before')).toContainText('"First plan"');
    await expect(detail.getByTestId('audit-after')).toContainText('"Revised plan"');
    await expect(detail.getByTestId('audit-before').locator('[data-change="changed"]', { hasText: 'First plan' })).toBeVisible();
    await expect(detail.getByTestId('audit-after').locator('[data-change="changed"]', { hasText: 'Revised plan' })).toBeVisible();
    await expect(detail.getByTestId('audit-before').locator('[data-change]', { hasText: title })).toHaveCount(0);
    await expect(detail.getByTestId('audit-changes')).toContainText('description');
    await expect(detail.getByTestId('audit-hash')).toHaveText(/^[0-9a-f]{64}$/);
    await expect(detail.getByTestId('audit-prev-hash')).toHaveText(/^[0-9a-f]{64}$/);
    await shot(page, 'audit-detail-s-en', false);
    await detail.getByTestId('audit-detail-close').click();
    await expect(detail).toBeHidden();

    // Verify: the chain is intact.
    await page.getByTestId('audit-verify').click();
    const verdict = page.getByTestId('audit-verify-result');
    await expect(verdict).toHaveAttribute('data-ok', 'true');
    await expect(verdict).toContainText(/Chain intact: \d+ records checked/);
    expect(Number(await verdict.getAttribute('data-checked'))).toBeGreaterThanOrEqual(updateSeq);
    await shot(page, 'audit-verify-intact-s-en');

    // Export what the filters match: a header row, then exactly the filtered record.
    const downloading = page.waitForEvent('download');
    await page.getByTestId('audit-export').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^audit-trail-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    // The last line names the chain head (the export's own record), to compare against the chain later.
    expect(csv.trimEnd().split('\n').at(-1)).toMatch(new RegExp(`^${AUDIT_HEAD_LINE_PREFIX} seq=\\d+ hash=[0-9a-f]{64}$`));
    const parsed = Papa.parse<string[]>(csv.slice(1).trim(), { skipEmptyLines: true, comments: '#' });
    expect(parsed.data[0]).toEqual([...AUDIT_CSV_COLUMNS]);
    expect(parsed.data).toHaveLength(2);
    const record = Object.fromEntries(AUDIT_CSV_COLUMNS.map((column, index) => [column, parsed.data[1]![index]]));
    expect(record).toMatchObject({
      seq: String(updateSeq),
      action: 'project.updated',
      targetType: 'project',
      targetId: String(projectNo),
      actorUserId: E2E.member.userId,
    });
    expect(JSON.parse(record.after!)).toMatchObject({ description: 'Revised plan' });
    await expect(page.getByTestId('audit-export-saved')).toContainText(download.suggestedFilename());
    await expect(page.getByTestId('progress-overlay')).toBeHidden();

    // The export is itself in the trail, with the filter it used.
    await page.goto('/admin/audit?action=audit.exported');
    const exported = page.getByTestId('audit-row').first();
    await expect(exported).toContainText(E2E.admin.name);
    await exported.click();
    await expect(page.getByTestId('audit-detail').getByTestId('audit-after')).toContainText('"records": 1');
    await expect(page.getByTestId('audit-before')).toContainText('No value recorded');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('audit-detail')).toBeHidden();

    // The download page makes the same export as a background job; a short one downloads at once.
    await page.getByTestId('nav-admin').click();
    await page.getByTestId('nav-admin-download').click();
    await expect(page.getByTestId('page-admin-download')).toBeVisible();
    await page.getByTestId('download-form-format-auditCsv').click();
    const whole = page.waitForEvent('download');
    await page.getByTestId('download-form-start').click();
    const all = Papa.parse<string[]>((await readFile(await (await whole).path(), 'utf8')).slice(1).trim(), {
      skipEmptyLines: true,
      comments: '#',
    });
    expect(all.data[0]).toEqual([...AUDIT_CSV_COLUMNS]);
    expect(all.data.length - 1).toBeGreaterThanOrEqual(updateSeq);
    const job = page.getByTestId('download-job-list').locator('li').first();
    await expect(job).toHaveAttribute('data-status', 'done');
    await expect(job.getByTestId('export-job-download')).toBeVisible();
    await shot(page, 'download-s-en');

    // On a phone the table becomes cards and the filters stack.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/admin/audit?tt=project&ti=${projectNo}`);
    await expect(page.getByTestId('audit-row')).toHaveCount(2);
    await shot(page, 'audit-list-s-en-phone');
  });

  test('the chain’s state, a record’s detail and the download page in the beauty theme, Korean and Japanese', async ({ page, request }) => {
    const id = unique();
    const memberToken = await apiSignIn(request, E2E.member);
    const list = { department: '', user: E2E.member.userId };
    const { projectNo } = await callApi(request, memberToken, api.projects.create, {
      title: `효소 ${id}`,
      description: '1차 계획',
      signatureList: list,
    });
    await callApi(request, memberToken, api.projects.update, {
      projectNo,
      title: `효소 분석 ${id}`,
      description: '2차 계획: 온도 조건 추가',
      signatureList: list,
    });
    await page.addInitScript(() => {
      localStorage.setItem('eln.theme', 'b');
      if (!localStorage.getItem('eln.language')) localStorage.setItem('eln.language', 'ko');
    });
    await signIn(page, E2E.admin);
    await page.goto('/admin/audit');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
    await expect(page.getByTestId('audit-row').first()).toBeVisible();
    const seq = Number(await page.locator('[data-testid="audit-row"][data-action="user.signIn"]').first().getAttribute('data-seq'));

    // The chain as the server finds it (tamper.e2e.ts shows a broken one, changed in the database).
    await page.getByTestId('audit-verify').click();
    const verdict = page.getByTestId('audit-verify-result');
    await expect(verdict).toHaveAttribute('data-ok', 'true');
    await expect(verdict).toContainText('체인 무결');
    await shot(page, 'audit-verify-intact-b-ko');
    await page.locator(`[data-testid="audit-row"][data-seq="${seq}"]`).click();
    const detail = page.getByTestId('audit-detail');
    await expect(detail.getByTestId('audit-detail-seq')).toHaveText(`#${seq}`);
    await expect(detail.getByTestId('audit-detail-action')).toContainText('로그인');
    await expect(detail.getByTestId('audit-no-values')).toBeVisible();
    await shot(page, 'audit-detail-b-ko', false);
    expect(await seriousViolations(page, 'audit record dialog, theme b, Korean')).toEqual([]);
    await detail.getByTestId('audit-detail-close').click();

    await page.goto('/admin/download');
    await expect(page.getByTestId('page-admin-download')).toBeVisible();
    await shot(page, 'download-b-ko');

    await page.evaluate(() => localStorage.setItem('eln.language', 'ja'));
    await page.goto(`/admin/audit?action=project.updated&tt=project&ti=${projectNo}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.getByTestId('audit-filter-action')).toHaveValue('project.updated');
    await expect(page.getByTestId('audit-row')).toHaveCount(1);
    await expect(page.getByTestId('audit-row').first()).toContainText('プロジェクト変更');
    await shot(page, 'audit-list-b-ja');
    await page.getByTestId('audit-row').first().click();
    await expect(page.getByTestId('audit-after')).toBeVisible();
    await shot(page, 'audit-detail-b-ja', false);
  });

  test('a deleted note stays readable to administrators in its deletion record: its last version, content and writers', async ({
    browser,
    request,
    baseURL,
  }) => {
    const id = unique();
    const token = await apiSignIn(request, E2E.member);
    const { projectNo } = await callApi(request, token, api.projects.create, {
      title: `Deleted ${id}`,
      description: '',
      signatureList: { department: '', user: E2E.member.userId },
    });
    const title = `Spill log ${id}`;
    const { labNoteNo } = await callApi(request, token, api.notes.create, { projectNo, title });
    const editor = await connectWriter(baseURL!, noteDocumentName(labNoteNo), token);
    try {
      appendParagraph(editor.doc, `Acetone spill wiped at bench ${id}.`);
      await eventually(() => editor.allDurable(), 'the line to be stored');
    } finally {
      editor.destroy();
    }
    await callApi(request, token, api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
    await callApi(request, token, api.notes.delete, { labNoteNo });

    const headings = { en: 'The deleted note', ko: '삭제된 노트', ja: '削除されたノート' } as const;
    const admin = await openAs(browser, E2E.admin);
    await admin.goto(`/admin/audit?action=note.deleted&tt=note&ti=${labNoteNo}`);
    const section = admin.getByTestId('audit-detail').getByTestId('audit-deleted-note');
    await eachDisplay(admin, {
      displays: [
        ['en', 's'],
        ['ko', 'b'],
        ['ja', 's'],
      ],
      open: async () => {
        await expect(admin.getByTestId('audit-row')).toHaveCount(1);
        await admin.getByTestId('audit-row').click();
      },
      visit: async ({ language }) => {
        await expect(section.getByRole('heading', { name: headings[language] })).toBeVisible();
        await expect(section.getByTestId('audit-deleted-note-title')).toContainText(title);
        await expect(section.getByTestId('audit-deleted-note-version')).toContainText('1');
        await expect(section.getByTestId('audit-deleted-note-writers')).toHaveText(E2E.member.name);
        await expect(section.getByTestId('audit-deleted-note-document')).toContainText(`Acetone spill wiped at bench ${id}.`);
        await section.scrollIntoViewIfNeeded();
      },
      shot: 'audit-deleted-note',
      fullPage: false,
      axe: { where: 'deleted note in the audit detail' },
    });
    await admin.context().close();
  });

  test('the leader cannot close a project until a reviewer has signed, then closes it for good', async ({ page, request }) => {
    const id = unique();
    const memberToken = await apiSignIn(request, E2E.member);
    // The note is written by a colleague: a reviewer must not have written what they review.
    const colleague = { userId: `writer-${id.toLowerCase()}@eln.local`, name: `Writer ${id}`, password: `colleague-password-${id}` };
    await callApi(request, await apiSignIn(request, E2E.admin), api.users.create, {
      ...colleague,
      level: 1,
      auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' },
    });
    const colleagueToken = await apiSignIn(request, colleague);
    const title = `Closing ${id}`;
    const { projectNo } = await callApi(request, memberToken, api.projects.create, {
      title,
      description: 'Ends after review',
      signatureList: { department: '', user: `${E2E.member.userId},${colleague.userId}` },
    });

    // An administrator who does not lead it is not offered the close.
    await signIn(page, E2E.admin);
    await page.goto(`/project/${projectNo}`);
    await expect(page.getByTestId('project-status')).toBeVisible();
    await expect(page.getByTestId('project-finish')).toHaveCount(0);
    await page.getByTestId('signout').click();
    await expect(page).toHaveURL(/\/signin$/);

    await signIn(page, E2E.member);
    await page.goto(`/project/${projectNo}`);
    // The gate shows before anyone asks: the close is there but disabled, saying why.
    await expect(page.getByTestId('project-finish')).toBeDisabled();
    await expect(page.getByTestId('project-finish-reason')).toHaveText(
      'A project can be closed only after at least one reviewer has signed a note.',
    );
    await expect(page.getByTestId('project-finish')).toHaveAttribute('aria-describedby', 'project-finish-reason');
    await shot(page, 'project-finish-blocked-s-en', false);
    // The server refuses it too, whatever a client sends.
    const refused = await request.post(`/server${api.projects.finish.path}`, {
      data: { projectNo },
      headers: { authorization: `Bearer ${memberToken}` },
    });
    expect(((await refused.json()) as { status: string }).status).toBe('2022');

    // A reviewer (the leader here, a participant too) signs the colleague's saved note; the dashboard counts it as closable.
    const { labNoteNo } = await callApi(request, colleagueToken, api.notes.create, {
      projectNo,
      title: `Result ${id}`,
    });
    await callApi(request, colleagueToken, api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
    await callApi(request, colleagueToken, api.signatures.request, {
      labNoteNo,
      signers: [{ userId: E2E.member.userId, type: 'reviewer' }],
    });
    await callApi(request, memberToken, api.signatures.respond, {
      labNoteNo,
      status: 'T',
      password: E2E.member.password,
      name: E2E.member.name,
      timeZone: 'Asia/Seoul',
    });
    await page.goto('/');
    const closable = Number(await page.getByTestId('count-closable-value').textContent());
    const closed = Number(await page.getByTestId('count-closed-value').textContent());
    expect(closable).toBeGreaterThanOrEqual(1);
    // The card opens the project list filtered to what it counts.
    await page.getByTestId('count-closable').click();
    await expect(page).toHaveURL(/\/project\?st=closable$/);
    await expect(page.getByTestId('project-status-filter').locator('[aria-pressed="true"]')).toHaveText('Ready to close');
    await expect(page.getByTestId('project-total')).toHaveAttribute('data-count', String(closable));
    await expect(page.getByRole('link', { name: title, exact: true })).toBeVisible();

    await page.goto(`/project/${projectNo}`);
    await expect(page.getByTestId('project-finish-reason')).toHaveCount(0);
    await page.getByTestId('project-finish').click();
    const modal = page.getByTestId('project-close-dialog');
    await expect(modal).toContainText('Close this project?');
    await expect(page.getByTestId('project-close-message')).toContainText('read-only for good');
    // Nothing is left unfinished: the one note is saved and its one request signed.
    await expect(page.getByTestId('project-close-clear')).toHaveText('No signature request is pending, and every note is saved as it is.');
    await shot(page, 'project-finish-confirm-s-en', false);
    expect(await seriousViolations(page, 'close project confirmation')).toEqual([]);
    // Cancelling changes nothing.
    await page.getByTestId('project-close-cancel').click();
    await expect(modal).toBeHidden();
    await page.getByTestId('project-finish').click();
    await expect(page.getByTestId('project-close-confirm')).toHaveText('Close project');
    await page.getByTestId('project-close-confirm').click();
    await expect(page.getByTestId('project-saved-notice')).toContainText('The project has been closed');
    await expect(page.getByTestId('project-completed-notice')).toBeVisible();
    await expect(page.getByTestId('project-status')).toContainText('Completed');
    await expect(page.getByTestId('project-finish')).toHaveCount(0);
    await shot(page, 'project-finished-s-en');

    await page.goto('/');
    await expect(page.getByTestId('count-closable-value')).toHaveText(String(closable - 1));
    await expect(page.getByTestId('count-closed-value')).toHaveText(String(closed + 1));
  });
});
