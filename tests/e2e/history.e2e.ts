import * as Y from 'yjs';
import { api, CONTENT_FIELD, noteDocumentName } from '@eln/shared';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './test.js';
import { E2E } from './fixtures.js';
import {
  appendParagraph,
  appendTable,
  blockElement,
  connectWriter,
  eventually,
  moveBlock,
  removeBlock,
  setParagraphText,
  type LiveClient,
} from '../../server/src/testing/live.js';
import { apiSignIn, callApi, eachDisplay, openAs, seriousViolations, shot, unique } from './support.js';

/**
 * A note's history in the browser: versions written over a raw Yjs client and saved through the API, then
 * listed, compared side by side and inline (words, Korean characters and table cells marked), stepped
 * through by keyboard, with every choice in the URL; and the screens of a note never saved and of one
 * saved once. Screenshots in both themes and three languages.
 */

/** Sets the text of the table's cell at row r, column c. */
function setCell(editor: LiveClient, uid: string, r: number, c: number, text: string): void {
  const cell = (blockElement(editor.doc, uid).get(r) as Y.XmlElement).get(c) as Y.XmlElement;
  setParagraphText(editor.doc, uid, text, cell.get(0) as Y.XmlElement);
}

/** Merges the first two cells of row r, as the editor's merge does (one cell spanning two columns). */
function mergeFirstTwo(editor: LiveClient, uid: string, r: number): void {
  const row = blockElement(editor.doc, uid).get(r) as Y.XmlElement;
  editor.doc.transact(() => {
    (row.get(0) as Y.XmlElement).setAttribute('colspan', 2 as unknown as string);
    row.delete(1, 1);
  });
}

async function saveVersion(request: APIRequestContext, token: string, labNoteNo: number, editor: LiveClient, version: number) {
  await eventually(() => editor.allDurable(), 'the edits to be stored');
  await callApi(request, token, api.notes.saveVersion, { labNoteNo, version, blockList: [] });
}

/**
 * A note saved three times by the fixture member: v1 six blocks (a Korean line, a table and a date among them);
 * v2 a word changed, Korean characters added, a table cell changed and two cells merged, the date moved a
 * day, a block added;
 * v3 the first block removed, the last moved to the top. The live draft then gains a line not saved.
 */
async function noteWithVersions(request: APIRequestContext, baseURL: string) {
  const id = unique();
  const token = await apiSignIn(request, E2E.member);
  const project = await callApi(request, token, api.projects.create, {
    title: `History ${id}`,
    description: 'Versions compared',
    signatureList: { department: '', user: E2E.member.userId },
  });
  const create = (title: string) => callApi(request, token, api.notes.create, { projectNo: project.projectNo, title });
  const { labNoteNo } = await create(`Kinetics ${id}`);
  const editor = await connectWriter(baseURL, noteDocumentName(labNoteNo), token);
  const fragment = editor.doc.getXmlFragment(CONTENT_FIELD);
  try {
    const aim = appendParagraph(editor.doc, 'Aim: measure the rate.');
    const buffer = appendParagraph(editor.doc, 'Buffer at pH 7.0 with 50 mM Tris.');
    const korean = appendParagraph(editor.doc, '시료를 37도에서 배양');
    const table = appendTable(editor.doc, 3, 3);
    const conclusion = appendParagraph(editor.doc, 'Conclusion pending.');
    const date = new Y.XmlElement('date');
    date.setAttribute('blockUid', 'historydate00001');
    date.setAttribute('value', '2026-11-23');
    fragment.insert(fragment.length, [date]);
    await saveVersion(request, token, labNoteNo, editor, 0);
    setParagraphText(editor.doc, buffer, 'Buffer at pH 7.4 with 50 mM Tris.');
    setParagraphText(editor.doc, korean, '시료를 25도에서 배양했다');
    setCell(editor, table, 1, 1, '12.5 mM');
    mergeFirstTwo(editor, table, 2);
    blockElement(editor.doc, 'historydate00001').setAttribute('value', '2026-11-24');
    appendParagraph(editor.doc, 'Dispose of waste.');
    await saveVersion(request, token, labNoteNo, editor, 1);
    removeBlock(editor.doc, aim);
    moveBlock(editor.doc, conclusion, 0);
    await saveVersion(request, token, labNoteNo, editor, 2);
    appendParagraph(editor.doc, 'Live line, not saved.');
    await eventually(() => editor.allDurable(), 'the live line to be stored');
  } finally {
    editor.destroy();
  }
  const { labNoteNo: neverSaved } = await create(`Blank ${id}`);
  const { labNoteNo: savedOnce } = await create(`Once ${id}`);
  const once = await connectWriter(baseURL, noteDocumentName(savedOnce), token);
  try {
    appendParagraph(once.doc, 'Saved once.');
    await saveVersion(request, token, savedOnce, once, 0);
    appendParagraph(once.doc, 'Written after the save.');
    await eventually(() => once.allDurable(), 'the second line to be stored');
  } finally {
    once.destroy();
  }
  // A note signed by its writer (as participant): the signature is bound to its version.
  const { labNoteNo: signed } = await create(`Signed ${id}`);
  await callApi(request, token, api.notes.saveVersion, { labNoteNo: signed, version: 0, blockList: [] });
  await callApi(request, token, api.signatures.request, {
    labNoteNo: signed,
    signers: [{ userId: E2E.member.userId, type: 'participant' }],
  });
  await callApi(request, token, api.signatures.respond, {
    labNoteNo: signed,
    status: 'T',
    password: E2E.member.password,
    name: E2E.member.name,
    timeZone: 'Asia/Seoul',
  });
  return { labNoteNo, neverSaved, savedOnce, signed };
}

const changeOf = (page: Page, kind: string) => page.getByTestId('diff-change').and(page.locator(`[data-kind="${kind}"]`));
const focusedChange = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-change-index') ?? 'none');

test('a note history lists the versions and compares any two, side by side and inline, by keyboard too', async ({
  browser,
  request,
  baseURL,
}) => {
  const { labNoteNo, neverSaved, savedOnce, signed } = await noteWithVersions(request, baseURL!);
  const page = await openAs(browser, E2E.member, { theme: 's', language: 'en' });

  // From the note screen's History action to the history, which compares the newest two versions.
  await page.goto(`/note/${labNoteNo}`);
  await expect(page.getByTestId(`note-tab-${labNoteNo}`)).toHaveAttribute('data-changed', 'yes');
  await page.getByTestId('note-history').click();
  // The live line is not saved: leaving the note screen asks, as for any other page; the draft stays.
  await page.getByTestId('leave-discard').click();
  await expect(page).toHaveURL(new RegExp(`/note/${labNoteNo}/history$`));
  await expect(page.getByTestId('history-version')).toHaveCount(3);
  const versions = page.getByTestId('history-version');
  await expect(versions.nth(0)).toHaveAttribute('data-version', '3');
  await expect(versions.nth(0).getByTestId('history-summary')).toHaveText('1 removed, 1 moved');
  await expect(versions.nth(1).getByTestId('history-summary')).toHaveText('1 added, 4 changed');
  await expect(versions.nth(2).getByTestId('history-summary')).toHaveText('First version · 6 added');
  await expect(versions.nth(0)).toContainText(`Saved by ${E2E.member.name}`);
  // Saved at a time in the reader's zone (Asia/Seoul here), the zone named.
  await expect(versions.nth(0).getByTestId('history-saved-at')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} (GMT\+9|KST)$/);
  await expect(versions.nth(0).getByTestId('history-hash')).toHaveText(/^[0-9a-f]{12}$/);
  await expect(page.getByTestId('history-compare-title')).toHaveText('Changes from v2 to v3');
  await expect(changeOf(page, 'removed')).toContainText('Aim: measure the rate.');
  await expect(changeOf(page, 'moved')).toContainText('Conclusion pending.');

  // v1 → v2, chosen in the list: the words, the Korean characters and the table's cells that changed.
  // (The choice goes through the URL, so the radio button shows it checked once the URL has changed.)
  await page.getByTestId('history-from-1').click();
  await expect(page.getByTestId('history-from-1')).toBeChecked();
  await page.getByTestId('history-to-2').click();
  await expect(page.getByTestId('history-to-2')).toBeChecked();
  await expect(page).toHaveURL(/from=1&to=2/);
  await expect(page.getByTestId('history-compare-title')).toHaveText('Changes from v1 to v2');
  const summary = page.getByTestId('diff-summary');
  await expect(summary.locator('[data-kind="added"]')).toHaveText('1 added');
  await expect(summary.locator('[data-kind="changed"]')).toHaveText('4 changed');
  const changed = changeOf(page, 'changed');
  await expect(changed).toHaveCount(4);
  const buffer = changed.filter({ hasText: 'Buffer at pH' });
  // Side by side: the older side strikes the removed word, the newer underlines the added one.
  await expect(buffer.locator('[data-side="before"] del')).toHaveText(['[deleted: 7.0]']);
  await expect(buffer.locator('[data-side="after"] ins')).toHaveText(['[inserted: 7.4]']);
  await expect(buffer.locator('[data-side="before"] ins')).toHaveCount(0);
  const korean = changed.filter({ hasText: '시료를' });
  await expect(korean.locator('[data-side="after"] ins')).toHaveText(['[inserted: 25]', '[inserted: 했다]']);
  const table = changed.filter({ has: page.getByTestId('diff-table-facts') });
  await expect(table.getByTestId('diff-table-facts')).toContainText(/Cells changed: \d/);
  await expect(table.locator('.diff-sides > :nth-child(2) td[data-cell="1,1"] ins')).toHaveText('[inserted: 12.5 mM]');
  await expect(table.locator('.diff-sides > :nth-child(1) td[data-cell="1,1"] del')).toHaveText('[deleted: 1,1]');
  // The merged cell spans two columns in the newer table.
  await expect(table.locator('.diff-sides > :nth-child(2) td[colspan="2"]')).toHaveCount(1);
  // The date by its value: the day that changed.
  const day = changed.filter({ has: page.getByTestId('diff-fields') }).locator('[data-field="value"]');
  await expect(day.locator('del')).toHaveText('[deleted: 23]');
  await expect(day.locator('ins')).toHaveText('[inserted: 24]');
  await expect(changeOf(page, 'added')).toContainText('Dispose of waste.');
  await expect(page.getByTestId('diff-folded')).toHaveCount(2);
  await shot(page, 'history-side-s-en');
  expect(await seriousViolations(page, 'note history, side by side')).toEqual([]);

  // Inline: one column with both marks; the choice is in the URL and survives a reload.
  await page.getByTestId('diff-view').locator('[data-value="inline"]').click();
  await expect(page).toHaveURL(/view=inline/);
  await expect(page.getByTestId('diff')).toHaveAttribute('data-view', 'inline');
  await expect(buffer.locator('del')).toHaveText(['[deleted: 7.0]']);
  await expect(buffer.locator('ins')).toHaveText(['[inserted: 7.4]']);
  await page.reload();
  await expect(page.getByTestId('diff')).toHaveAttribute('data-view', 'inline');
  await expect(page.getByTestId('history-compare-title')).toHaveText('Changes from v1 to v2');

  // The keyboard: j / n / ↓ forward, k / p / ↑ back, each change focused and counted.
  await page.locator('#history-page-title').focus();
  await page.keyboard.press('j');
  await expect(page.getByTestId('diff-position')).toHaveText('Change 1 of 5');
  const first = await focusedChange(page);
  expect(first).not.toBe('none');
  await page.keyboard.press('n');
  await expect(page.getByTestId('diff-position')).toHaveText('Change 2 of 5');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('diff-position')).toHaveText('Change 3 of 5');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(page.getByTestId('diff-position')).toHaveText('Change 5 of 5');
  await expect(page.locator('.diff-change:focus-visible')).toHaveAttribute('data-kind', 'added');
  await page.keyboard.press('j');
  await expect(page.getByTestId('diff-position')).toHaveText('Change 5 of 5');
  await page.keyboard.press('k');
  await page.keyboard.press('p');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('k');
  await expect(page.getByTestId('diff-position')).toHaveText('Change 1 of 5');
  expect(await focusedChange(page)).toBe(first);
  await shot(page, 'history-inline-s-en');
  expect(await seriousViolations(page, 'note history, inline')).toEqual([]);

  // Who changed each block between the two versions, and on demand who wrote each block (the raw client wrote as Kim).
  await expect(buffer.getByTestId('diff-change-writers')).toHaveText(`Changed by ${E2E.member.name}`);
  await page.getByTestId('diff-authors-toggle').click();
  await expect(page).toHaveURL(/authors=1/);
  await expect(buffer.getByTestId('diff-author')).toHaveText([E2E.member.name]);
  await shot(page, 'history-authors-s-en');
  expect(await seriousViolations(page, 'note history, who wrote what')).toEqual([]);
  await page.getByTestId('diff-authors-toggle').click();
  await expect(page.getByTestId('diff-authors')).toHaveCount(0);

  // Every block shown: nothing folded.
  await page.getByTestId('diff-only-changes').click();
  await expect(page.getByTestId('diff-only-changes')).not.toBeChecked();
  await expect(page).toHaveURL(/all=1/);
  await expect(page.getByTestId('diff-folded')).toHaveCount(0);
  await expect(changeOf(page, 'unchanged')).toHaveCount(2);
  await shot(page, 'history-all-inline-s-en');

  // The list by keyboard: arrows move within the "to" column, and the comparison follows.
  await page.getByTestId('history-to-2').focus();
  await page.keyboard.press('ArrowUp');
  await expect(page).toHaveURL(/to=3/);
  await page.keyboard.press('ArrowUp');
  await expect(page.getByTestId('history-to-live')).toBeChecked();
  await expect(page).toHaveURL(/to=live/);
  await expect(page.getByTestId('history-compare-title')).toHaveText('Changes from v1 to live draft');
  await expect(changeOf(page, 'added').filter({ hasText: 'Live line, not saved.' })).toHaveCount(1);

  // Restoring v1 needs a reason; it becomes version 4, listed as restored, compared with v3.
  await page.getByTestId('history-restore-1').click();
  await page.getByTestId('history-restore-submit').click();
  await expect(page.getByTestId('history-restore-dialog')).toBeVisible();
  await expect(page.getByTestId('history-restore-reason')).toHaveAttribute('aria-invalid', 'true');
  await shot(page, 'history-restore-dialog-s-en', false);
  expect(await seriousViolations(page, 'restore dialog')).toEqual([]);
  await expect(page.getByTestId('history-version')).toHaveCount(3);
  await page.getByTestId('history-restore-reason').fill('Back to the original buffer');
  await page.getByTestId('history-restore-submit').click();
  await expect(page.getByTestId('history-restored-notice')).toHaveText('v1 was restored as version 4.');
  await expect(page.getByTestId('history-version')).toHaveCount(4);
  await expect(page.getByTestId('history-version').first().getByTestId('history-restored')).toHaveText(
    'Restored from v1: Back to the original buffer',
  );
  await expect(page.getByTestId('history-compare-title')).toHaveText('Changes from v3 to v4');
  await expect(changeOf(page, 'added').filter({ hasText: 'Aim: measure the rate.' })).toHaveCount(1);
  await expect(changeOf(page, 'removed').filter({ hasText: 'Dispose of waste.' })).toHaveCount(1);
  await shot(page, 'history-restored-s-en');

  // The beauty theme, side by side.
  await page.goto(`/note/${labNoteNo}/history?from=1&to=2`);
  await page.evaluate(() => window.localStorage.setItem('eln.theme', 'b'));
  await page.reload();
  await expect(changeOf(page, 'changed')).toHaveCount(4);
  await shot(page, 'history-side-b-en');
  expect(await seriousViolations(page, 'note history, theme b')).toEqual([]);

  // A note never saved, and one saved once (compared with its live draft).
  await page.goto(`/note/${neverSaved}/history`);
  await expect(page.getByTestId('history-never-saved')).toBeVisible();
  await shot(page, 'history-never-saved-b-en');
  await page.goto(`/note/${savedOnce}/history`);
  await expect(page.getByTestId('history-single')).toBeVisible();
  await expect(page.getByTestId('history-compare-title')).toHaveText('Changes from v1 to live draft');
  await expect(changeOf(page, 'added')).toContainText('Written after the save.');
  await shot(page, 'history-single-b-en');
  // A signed version lists its signature: meaning, printed name, time with zone.
  await page.goto(`/note/${signed}/history`);
  const signedVersion = page.getByTestId('history-version');
  await expect(signedVersion).toContainText('Signed');
  await expect(signedVersion.getByTestId('history-summary')).toHaveText('First version');
  await expect(signedVersion.getByTestId('history-signature')).toHaveText(
    new RegExp(`^Participant: ${E2E.member.name} \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} (GMT\\+9|KST)$`),
  );
  await shot(page, 'history-signed-b-en');
  // Any other path under a note is not found.
  await page.goto(`/note/${labNoteNo}/elsewhere`);
  await expect(page).toHaveURL(/\/notFound$/);

  // Korean and Japanese (axe has checked this screen in both themes above).
  const titles = { ko: 'v1에서 v2(으)로의 변경 사항', ja: 'v1からv2への変更' } as const;
  await eachDisplay(page, {
    displays: [
      ['ko', 's'],
      ['ja', 'b'],
    ],
    visit: async ({ language }) => {
      if (language === 'en') throw new Error('ko and ja only');
      await page.goto(`/note/${labNoteNo}/history?from=1&to=2`);
      await expect(page.getByTestId('history-compare-title')).toHaveText(titles[language]);
      await expect(changeOf(page, 'changed')).toHaveCount(4);
    },
    shot: 'history-side',
  });
  await page.context().close();
});
