import { readFile } from 'node:fs/promises';
import { api } from '@eln/shared';
import { expect, test } from './test.js';
import type { APIRequestContext } from '@playwright/test';
import Papa from 'papaparse';
import { AUDIT_CSV_COLUMNS } from '../../shared/src/api/audit.js';
import { E2E, hangTimeout } from './fixtures.js';
import { shot, unique, callApi, apiSignIn, createPerson, prose, openAs, seriousViolations, type Person } from './support.js';

/**
 * Electronic signatures in the browser: a writer saves a version and requests a reviewer; the reviewer,
 * with the same note open in another browser, signs with the password (a wrong one first); the writer's
 * open editor turns read-only at once and shows the signature's manifestation; the leader closes the
 * project; an administrator finds all of it in the audit trail and exports it. A second test has the
 * leader remove a participant-only signature with a reason; a third shows that unsaved changes block
 * signing until a new version reaches the open dialog, and a decline. Data is made through the API with
 * names unique to the run.
 */

/** A leader (who may create projects), a writer and a reviewer, and the leader's project with the other two. */
async function setUp(request: APIRequestContext) {
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const person = (role: string, name: string, project: 'Y' | 'N'): Promise<Person> =>
    createPerson(request, adminToken, id, role, name, { project });
  const leader = await person('leader', 'Han Leader', 'Y');
  const writer = await person('writer', 'Woo Writer', 'N');
  const reviewer = await person('reviewer', 'Ryu Reviewer', 'N');
  const leaderToken = await apiSignIn(request, leader);
  const { projectNo } = await callApi(request, leaderToken, api.projects.create, {
    title: `Stability ${id}`,
    description: 'Stability study of batch 7',
    signatureList: { department: '', user: `${writer.userId},${reviewer.userId}` },
  });
  return { id, leader, writer, reviewer, projectNo, adminToken, leaderToken };
}

const ZONED = /\d{4}-\d{2}-\d{2} \d{2}:\d{2} GMT\+9/;

test.describe('signatures', () => {
  test('request, sign with the password, the writer’s editor locks at once, the project closes, the audit trail has it all', async ({
    browser,
    request,
  }) => {
    test.setTimeout(hangTimeout(300_000));
    const { id, leader, writer, reviewer, projectNo } = await setUp(request);
    const title = `Assay ${id}`;

    // --- The writer creates a note from the project's list and writes in it.
    const woo = await openAs(browser, writer);
    await woo.goto(`/project/${projectNo}`);
    await woo.getByTestId('new-note-title').fill(title);
    await woo.getByTestId('new-note-submit').click();
    await expect(woo).toHaveURL(/\/note\/\d+$/);
    const labNoteNo = Number(/\/note\/(\d+)$/.exec(woo.url())?.[1]);
    await expect(woo.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
    await expect(woo.getByTestId('signatures')).toContainText('No signatures have been requested');
    await prose(woo).click();
    await woo.keyboard.type('Sample 7 stable at 40 °C for 4 weeks.');
    await expect(woo.getByTestId('save-state')).toHaveText('Saved');

    // --- The reviewer opens the same note in a second browser (beauty theme), before any version exists.
    const ryu = await openAs(browser, reviewer, { theme: 'b' });
    await ryu.goto(`/note/${labNoteNo}`);
    await expect(ryu.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
    await expect(prose(ryu)).toContainText('Sample 7 stable');
    await expect(ryu.getByTestId('signature-sign')).toHaveCount(0);
    await expect(ryu.getByTestId('signature-request')).toHaveCount(0);

    // --- The writer saves version 1 and requests the reviewer as reviewer.
    await woo.getByTestId('save-version').click();
    await expect(woo.getByTestId('note-version')).toHaveAttribute('data-version', '1');
    await woo.getByTestId('signature-request').click();
    const requestDialog = woo.getByTestId('signature-request-dialog');
    await expect(requestDialog).toBeVisible();
    await expect(requestDialog.getByTestId(`signature-request-signer-${reviewer.userId}`)).toBeVisible();
    await expect(requestDialog.getByTestId(`signature-request-type-${reviewer.userId}`)).toBeDisabled();
    // The writer wrote the note, so they are offered only as participant (the server refuses them as reviewer).
    await expect(requestDialog.getByTestId(`signature-request-wrote-${writer.userId}`)).toHaveText(
      'Wrote in this note, so signs only as participant',
    );
    await requestDialog.getByTestId(`signature-request-signer-${writer.userId}`).check();
    await expect(requestDialog.getByTestId(`signature-request-type-${writer.userId}`)).toHaveValue('participant');
    await expect(requestDialog.getByTestId(`signature-request-type-${writer.userId}`).locator('option[value="reviewer"]')).toBeDisabled();
    await requestDialog.getByTestId(`signature-request-signer-${writer.userId}`).uncheck();
    // Nobody chosen: the dialog says so rather than sending.
    await requestDialog.getByTestId('signature-request-submit').click();
    await expect(requestDialog.getByTestId('signature-request-none')).toBeVisible();
    await requestDialog.getByTestId(`signature-request-signer-${reviewer.userId}`).check();
    await requestDialog.getByTestId(`signature-request-type-${reviewer.userId}`).selectOption('reviewer');
    await shot(woo, 'signature-request-dialog-s-en', false);
    expect(await seriousViolations(woo, 'signature request dialog')).toEqual([]);
    await requestDialog.getByTestId('signature-request-submit').click();
    await expect(requestDialog).toBeHidden();
    const wooEntry = woo.getByTestId('signatures').getByTestId('signature-entry');
    await expect(wooEntry).toHaveCount(1);
    await expect(wooEntry).toHaveAttribute('data-status', 'R');
    await expect(wooEntry).toHaveAttribute('data-type', 'reviewer');
    await expect(wooEntry).toContainText(reviewer.name);
    await expect(wooEntry).toContainText('Pending');
    await expect(woo.getByTestId('note-status')).toContainText('Signatures requested');
    await expect(woo.getByTestId('signature-request')).toHaveText('Change signers');

    // --- The reviewer's open note learns of the new version and the request by itself.
    await expect(ryu.getByTestId('note-version')).toHaveAttribute('data-version', '1', { timeout: 15_000 });
    await expect(ryu.getByTestId('signature-sign')).toBeVisible({ timeout: 15_000 });
    await expect(ryu.getByTestId('signature-pending-notice')).toContainText('requested as Reviewer');
    await ryu.getByTestId('signature-sign').click();
    const dialog = ryu.getByTestId('signature-dialog');
    await expect(dialog).toBeVisible();
    // Exactly what is signed: the note, its number, version 1 and when it was saved.
    await expect(dialog.getByTestId('signature-note-title')).toHaveText(title);
    await expect(dialog.getByTestId('signature-note-number')).toHaveText(/^LN-\d{4}-\d{6}$/);
    await expect(dialog.getByTestId('signature-version')).toHaveAttribute('data-version', '1');
    await expect(dialog.getByTestId('signature-version')).toContainText(`Version 1`);
    await expect(dialog.getByTestId('signature-version')).toContainText(writer.name);
    await expect(dialog.getByTestId('signature-meaning')).toHaveAttribute('data-type', 'reviewer');
    await expect(dialog.getByTestId('signature-name')).toHaveValue(reviewer.name);
    await expect(dialog.getByTestId('signature-password')).toHaveValue('');
    await expect(dialog.getByTestId('signature-submit')).toBeEnabled();

    // The password is required, and a wrong one is refused beside the field.
    await dialog.getByTestId('signature-submit').click();
    await expect(dialog.getByTestId('signature-password-error')).toBeVisible();
    await dialog.getByTestId('signature-name').fill(`Dr. ${reviewer.name}`);
    await dialog.getByTestId('signature-description').fill('Raw data and calculations reviewed.');
    await dialog.getByTestId('signature-password').fill('not-my-password');
    await dialog.getByTestId('signature-submit').click();
    await expect(dialog.getByTestId('signature-password-error')).toHaveText('The password is incorrect.');
    await expect(dialog.getByTestId('signature-password')).toHaveValue('');
    await shot(ryu, 'signature-dialog-b-en', false);
    expect(await seriousViolations(ryu, 'sign dialog, theme b')).toEqual([]);
    await dialog.getByTestId('signature-password').fill(reviewer.password);
    await expect(dialog.getByTestId('signature-password-error')).toHaveCount(0);
    await shot(ryu, 'signature-dialog-filled-b-en', false);
    await dialog.getByTestId('signature-submit').click();
    await expect(dialog).toBeHidden();

    // The signer sees the completion notice and the locked note.
    await expect(ryu.getByTestId('signature-done-notice')).toContainText('You signed this note as Reviewer');
    await expect(ryu.getByTestId('signature-done-notice')).toContainText(ZONED);
    await expect(ryu.getByTestId('signature-done-notice')).toContainText('(version 1)');
    await expect(ryu.getByTestId('readonly-banner')).toHaveAttribute('data-reason', 'signed');
    await expect(ryu.getByTestId('signature-sign')).toHaveCount(0);
    await expect(ryu.getByTestId('alert-modal')).toHaveCount(0);

    // --- The writer's open editor turned read-only at once, and says why.
    await expect(woo.getByTestId('alert-message')).toContainText('has been signed, so it is locked');
    await woo.getByTestId('alert-ok').click();
    await expect(woo.getByTestId('readonly-banner')).toHaveAttribute('data-reason', 'signed');
    await expect(prose(woo)).toHaveAttribute('contenteditable', 'false');
    await expect(woo.getByTestId('editor-toolbar')).toHaveCount(0);
    await expect(woo.getByTestId('save-version')).toHaveCount(0);
    await prose(woo).click();
    await woo.keyboard.type(' Typed after signing.');
    await expect(prose(woo)).not.toContainText('Typed after signing');
    await expect(prose(ryu)).not.toContainText('Typed after signing');
    await expect(woo.getByTestId('note-status')).toContainText('Signed');
    // The manifestation: printed name, date and time with zone, meaning, version; intact.
    await expect(wooEntry).toHaveAttribute('data-status', 'T');
    await expect(wooEntry).toHaveAttribute('data-intact', 'true');
    await expect(wooEntry.getByTestId('signature-entry-name')).toHaveText(`Dr. ${reviewer.name}`);
    await expect(wooEntry.getByTestId('signature-entry-time')).toHaveText(ZONED);
    await expect(wooEntry.getByTestId('signature-entry-time')).toHaveAttribute('title', 'Time zone Asia/Seoul');
    await expect(wooEntry.getByTestId('signature-entry-type')).toHaveText('Reviewer');
    await expect(wooEntry.getByTestId('signature-entry-version')).toHaveText('v1');
    await expect(wooEntry).toContainText('Raw data and calculations reviewed.');
    await expect(wooEntry.getByTestId('signature-entry-broken')).toHaveCount(0);
    await expect(woo.getByTestId('signature-request')).toHaveCount(0);
    await expect(woo.getByTestId('signature-no-reviewer-warning')).toHaveCount(0);
    await shot(woo, 'signature-signed-s-en');
    await woo.setViewportSize({ width: 390, height: 844 });
    await shot(woo, 'signature-signed-s-en-phone');
    await woo.setViewportSize({ width: 1360, height: 900 });
    await shot(ryu, 'signature-signed-b-en');

    // The project's note list shows the same manifestation in compact form.
    await woo.goto(`/project/${projectNo}`);
    const row = woo.getByTestId(`note-row-signatures-${labNoteNo}`);
    await expect(row.getByTestId('signature-entry')).toHaveAttribute('data-status', 'T');
    await expect(row).toContainText(`Dr. ${reviewer.name}`);
    await expect(row).toContainText('Reviewer');
    await expect(row.getByTestId('signature-entry-time')).toHaveText(ZONED);
    await expect(row.getByTestId('signature-entry-version')).toHaveText('v1');
    await shot(woo, 'signature-note-list-s-en');
    await woo.setViewportSize({ width: 390, height: 844 });
    await shot(woo, 'signature-note-list-s-en-phone');
    await woo.setViewportSize({ width: 1360, height: 900 });

    // --- The leader (in Korean) sees the signature with the remove action, then closes the project.
    const han = await openAs(browser, leader, { language: 'ko' });
    await han.goto(`/note/${labNoteNo}`);
    const hanEntry = han.getByTestId('signatures').getByTestId('signature-entry');
    await expect(hanEntry).toHaveAttribute('data-status', 'T');
    await expect(hanEntry.getByTestId('signature-entry-type')).toHaveText('검토자');
    await expect(han.getByTestId('readonly-banner')).toHaveAttribute('data-reason', 'signed');
    await expect(han.locator('[data-testid^="signature-remove-"]')).toHaveCount(1);
    await shot(han, 'signature-signed-s-ko');
    await han.goto(`/project/${projectNo}`);
    await han.getByTestId('project-finish').click();
    await expect(han.getByTestId('project-close-dialog')).toBeVisible();
    await han.getByTestId('project-close-confirm').click();
    await expect(han.getByTestId('project-completed-notice')).toBeVisible();
    await expect(han.getByTestId('project-status')).toContainText('종료');
    await expect(han.getByTestId('project-finish')).toHaveCount(0);
    await expect(han.getByTestId(`note-row-signatures-${labNoteNo}`)).toContainText('검토자');
    // The note of a completed project offers no signature actions.
    await han.goto(`/note/${labNoteNo}`);
    await expect(han.getByTestId('signatures').getByTestId('signature-entry')).toHaveCount(1);
    await expect(han.locator('[data-testid^="signature-remove-"]')).toHaveCount(0);
    await expect(han.getByTestId('readonly-banner')).toHaveAttribute('data-reason', 'finished');

    // --- The administrator finds every step in the audit trail, filtered by action, and exports it.
    const admin = await openAs(browser, E2E.admin);
    await admin.goto('/admin/audit');
    await expect(admin.getByTestId('page-admin-audit')).toBeVisible();
    const findings: Array<[string, 'note' | 'project', number, string]> = [
      ['signature.requested', 'note', labNoteNo, writer.name],
      ['signature.failed', 'note', labNoteNo, reviewer.name],
      ['signature.signed', 'note', labNoteNo, reviewer.name],
      ['project.finished', 'project', projectNo, leader.name],
    ];
    for (const [action, targetType, targetId, actor] of findings) {
      await admin.getByTestId('audit-filter-action').selectOption(action);
      await admin.getByTestId('audit-filter-target-type').selectOption(targetType);
      await admin.getByTestId('audit-filter-target-id').fill(String(targetId));
      await admin.getByTestId('audit-search').click();
      await expect(admin).toHaveURL(new RegExp(`action=${action.replace('.', '\\.')}`));
      await expect(admin.getByTestId('audit-total')).toHaveAttribute('data-count', '1');
      const found = admin.getByTestId('audit-row').first();
      await expect(found).toHaveAttribute('data-action', action);
      await expect(found).toContainText(actor);
    }
    // The signature's record carries its meaning, version and zone.
    await admin.getByTestId('audit-filter-action').selectOption('signature.signed');
    await admin.getByTestId('audit-filter-target-type').selectOption('note');
    await admin.getByTestId('audit-filter-target-id').fill(String(labNoteNo));
    await admin.getByTestId('audit-search').click();
    // The list of the search before (the project's finish) stays until the new one answers: a click on its
    // first row could open that record.
    const signed = admin.getByTestId('audit-row').first();
    await expect(signed).toHaveAttribute('data-action', 'signature.signed');
    await signed.click();
    await expect(admin.getByTestId('audit-after')).toContainText('"meaning": "reviewer"');
    await expect(admin.getByTestId('audit-after')).toContainText('"timeZone": "Asia/Seoul"');
    await admin.keyboard.press('Escape');
    await expect(admin.getByTestId('audit-detail')).toBeHidden();

    // Everything about the note, exported as CSV.
    await admin.getByTestId('audit-filter-action').selectOption('');
    await admin.getByTestId('audit-search').click();
    await expect(admin.getByTestId('audit-row').first()).toBeVisible();
    const downloading = admin.waitForEvent('download');
    await admin.getByTestId('audit-export').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^audit-trail-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    const parsed = Papa.parse<string[]>(csv.replace(/^\uFEFF/, '').trim(), { skipEmptyLines: true });
    expect(parsed.data[0]).toEqual([...AUDIT_CSV_COLUMNS]);
    const actionColumn = AUDIT_CSV_COLUMNS.indexOf('action');
    const exported = parsed.data.slice(1).map((record) => record[actionColumn]);
    expect(exported).toEqual(
      expect.arrayContaining(['note.created', 'note.saved', 'signature.requested', 'signature.failed', 'signature.signed']),
    );
    await expect(admin.getByTestId('audit-export-saved')).toContainText(download.suggestedFilename());

    for (const page of [woo, ryu, han, admin]) await page.context().close();
  });

  test('the leader removes a signature with a reason; all signed but no reviewer shows a warning (Japanese)', async ({
    browser,
    request,
  }) => {
    const { id, leader, writer, reviewer, projectNo, leaderToken } = await setUp(request);
    const writerToken = await apiSignIn(request, writer);
    const { labNoteNo } = await callApi(request, writerToken, api.notes.create, {
      projectNo,
      title: `Batch ${id}`,
    });
    await callApi(request, writerToken, api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
    // The writer asks only themself, as participant, and signs (from Tokyo).
    await callApi(request, writerToken, api.signatures.request, {
      labNoteNo,
      signers: [{ userId: writer.userId, type: 'participant' }],
    });
    await callApi(request, writerToken, api.signatures.respond, {
      labNoteNo,
      status: 'T',
      password: writer.password,
      name: writer.name,
      timeZone: 'Asia/Tokyo',
      version: 1,
    });

    const han = await openAs(browser, leader, { theme: 'b', language: 'ja' });
    await han.goto(`/note/${labNoteNo}`);
    await expect(han.getByTestId('signature-no-reviewer-warning')).toContainText('レビュアーの署名がありません');
    const entry = han.getByTestId('signatures').getByTestId('signature-entry');
    await expect(entry).toHaveAttribute('data-type', 'participant');
    await expect(entry.getByTestId('signature-entry-time')).toHaveText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} JST/);
    await expect(entry.getByTestId('signature-entry-type')).toHaveText('参加者');
    await expect(entry).toHaveAttribute('data-intact', 'true');
    await shot(han, 'signature-warning-b-ja');

    const signatureId = await entry.getAttribute('data-signature-id');
    await han.getByTestId(`signature-remove-${signatureId}`).click();
    const dialog = han.getByTestId('signature-remove-dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByTestId('signature-remove-submit').click();
    await expect(dialog.getByTestId('signature-remove-reason-error')).toBeVisible();
    await dialog.getByTestId('signature-remove-reason').fill('レビュアーの署名が必要なため');
    await shot(han, 'signature-remove-b-ja', false);
    expect(await seriousViolations(han, 'signature removal dialog, theme b, Japanese')).toEqual([]);
    await dialog.getByTestId('signature-remove-submit').click();
    await expect(dialog).toBeHidden();
    await expect(han.getByTestId('signatures').getByTestId('signature-entry')).toHaveCount(0);
    await expect(han.getByTestId('signature-no-reviewer-warning')).toHaveCount(0);
    await expect(han.getByTestId('note-status')).toContainText('作成中');
    // The leader (not the writer) may request signatures again. Someone who left the project meanwhile
    // is refused (2019), by name.
    await han.getByTestId('signature-request').click();
    const requestDialog = han.getByTestId('signature-request-dialog');
    await expect(requestDialog.getByTestId(`signature-request-signer-${writer.userId}`)).toBeVisible();
    await callApi(request, leaderToken, api.projects.update, { projectNo, signatureList: { department: '', user: reviewer.userId } });
    await requestDialog.getByTestId(`signature-request-signer-${writer.userId}`).check();
    await requestDialog.getByTestId('signature-request-submit').click();
    await expect(requestDialog.getByTestId('signature-request-error')).toContainText('署名者を変更できませんでした');
    await expect(requestDialog.getByTestId('signature-request-error')).toContainText(writer.name);
    await shot(han, 'signature-request-refused-b-ja', false);
    await requestDialog.getByTestId(`signature-request-signer-${writer.userId}`).uncheck();
    await requestDialog.getByTestId(`signature-request-signer-${reviewer.userId}`).check();
    await expect(requestDialog.getByTestId(`signature-request-type-${reviewer.userId}`)).toHaveValue('reviewer');
    await requestDialog.getByTestId('signature-request-submit').click();
    await expect(requestDialog).toBeHidden();
    await expect(han.getByTestId('signature-request-done')).toBeVisible();
    await expect(han.getByTestId('signatures').getByTestId('signature-entry')).toHaveAttribute('data-type', 'reviewer');
    await expect(han.getByTestId('note-status')).toContainText('署名依頼中');
    await han.context().close();

    const adminToken = await apiSignIn(request, E2E.admin);
    const removed = await callApi(request, adminToken, api.audit.list, {
      action: 'signature.removed',
      targetType: 'note',
      targetId: String(labNoteNo),
    });
    expect(removed.list.map((record) => record.reason)).toEqual(['レビュアーの署名が必要なため']);
  });
  test('only a saved version can be signed: unsaved changes block signing until a new version reaches the open dialog; declining', async ({
    browser,
    request,
  }) => {
    const { id, writer, reviewer, projectNo } = await setUp(request);
    const writerToken = await apiSignIn(request, writer);
    const { labNoteNo } = await callApi(request, writerToken, api.notes.create, {
      projectNo,
      title: `Titration ${id}`,
    });
    await callApi(request, writerToken, api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
    await callApi(request, writerToken, api.signatures.request, {
      labNoteNo,
      signers: [{ userId: reviewer.userId, type: 'participant' }],
    });

    const woo = await openAs(browser, writer);
    await woo.goto(`/note/${labNoteNo}`);
    await expect(woo.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
    await prose(woo).click();
    await woo.keyboard.type('Endpoint at 12.4 mL.');
    await expect(woo.getByTestId('save-state')).toHaveText('Saved');

    const ryu = await openAs(browser, reviewer);
    await ryu.goto(`/note/${labNoteNo}`);
    await expect(prose(ryu)).toContainText('Endpoint at 12.4 mL.');
    await ryu.getByTestId('signature-sign').click();
    const dialog = ryu.getByTestId('signature-dialog');
    await expect(dialog.getByTestId('signature-version')).toHaveAttribute('data-version', '1');
    await expect(dialog.getByTestId('signature-meaning')).toHaveAttribute('data-type', 'participant');
    await expect(dialog.getByTestId('signature-unsaved')).toBeVisible();
    await expect(dialog.getByTestId('signature-submit')).toBeDisabled();
    await shot(ryu, 'signature-dialog-unsaved-s-en', false);
    expect(await seriousViolations(ryu, 'sign dialog (unsaved changes)')).toEqual([]);

    // The writer saves version 2: the open dialog learns of it and allows signing that version.
    await woo.getByTestId('save-version').click();
    await expect(woo.getByTestId('note-version')).toHaveAttribute('data-version', '2');
    await expect(dialog.getByTestId('signature-version')).toHaveAttribute('data-version', '2', { timeout: 15_000 });
    await expect(dialog.getByTestId('signature-refreshed')).toBeVisible();
    await expect(dialog.getByTestId('signature-unsaved')).toHaveCount(0);
    await expect(dialog.getByTestId('signature-submit')).toBeEnabled();

    // The reviewer declines instead, with a reason: recorded, and the note is back to writing.
    await dialog.getByTestId('signature-description').fill('The endpoint needs a second titration.');
    await dialog.getByTestId('signature-password').fill(reviewer.password);
    await dialog.getByTestId('signature-decline').click();
    await expect(dialog).toBeHidden();
    await expect(ryu.getByTestId('signature-declined-notice')).toContainText('You declined to sign this note');
    await expect(ryu.getByTestId('readonly-banner')).toHaveCount(0);
    const entry = woo.getByTestId('signatures').getByTestId('signature-entry');
    await expect(entry).toHaveAttribute('data-status', 'F', { timeout: 15_000 });
    await expect(entry).toContainText('Declined');
    await expect(entry).toContainText('The endpoint needs a second titration.');
    await expect(woo.getByTestId('note-status')).toContainText('Writing');
    await expect(prose(woo)).toHaveAttribute('contenteditable', 'true');
    for (const page of [woo, ryu]) await page.context().close();
  });
});
