import { api } from '@eln/shared';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './test.js';
import { E2E } from './fixtures.js';
import { apiSignIn, callApi, eachDisplay, openAs, showIn, shot, unique } from './support.js';

/**
 * Closing a project with loose ends: the close dialog lists the signature requests nobody answered and
 * the notes not saved as they are, in every language and theme; the leader closes all the same, and the
 * requests show as cancelled at close in the note's signatures and in the project's note list.
 */

interface Person {
  userId: string;
  name: string;
  password: string;
}

async function colleague(request: APIRequestContext, adminToken: string, role: string, id: string): Promise<Person> {
  const person = {
    userId: `${role}-${id.toLowerCase()}@eln.local`,
    name: `${role === 'writer' ? 'Woo' : 'Ryu'} ${id}`,
    password: `pw-${role}-${id}`,
  };
  await callApi(request, adminToken, api.users.create, {
    ...person,
    level: 1,
    auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' },
  });
  return person;
}

test('the close dialog lists pending signatures and unsaved notes; closing anyway cancels the requests at close', async ({
  browser,
  request,
}) => {
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const [writer, reviewer] = [await colleague(request, adminToken, 'writer', id), await colleague(request, adminToken, 'reviewer', id)];
  const leaderToken = await apiSignIn(request, E2E.member);
  const writerToken = await apiSignIn(request, writer);
  const reviewerToken = await apiSignIn(request, reviewer);
  const { projectNo } = await callApi(request, leaderToken, api.projects.create, {
    title: `Loose ends ${id}`,
    signatureList: { department: '', user: `${E2E.member.userId},${writer.userId},${reviewer.userId}` },
  });
  const note = (title: string) => callApi(request, writerToken, api.notes.create, { projectNo, title }).then((a) => a.labNoteNo);
  // Signed by the reviewer; the leader's own participation is still pending.
  const signed = await note(`Assay ${id}`);
  await callApi(request, writerToken, api.notes.saveVersion, { labNoteNo: signed, version: 0, blockList: [] });
  await callApi(request, writerToken, api.signatures.request, {
    labNoteNo: signed,
    signers: [
      { userId: reviewer.userId, type: 'reviewer' },
      { userId: E2E.member.userId, type: 'participant' },
    ],
  });
  await callApi(request, reviewerToken, api.signatures.respond, {
    labNoteNo: signed,
    status: 'T',
    password: reviewer.password,
    name: reviewer.name,
    timeZone: 'Asia/Seoul',
  });
  // Never saved, and saved once then changed (its temporary save holds what version 1 does not).
  const neverSaved = await note(`Draft ${id}`);
  const changed = await note(`Follow-up ${id}`);
  await callApi(request, writerToken, api.notes.saveVersion, { labNoteNo: changed, version: 0, blockList: [] });
  await callApi(request, writerToken, api.notes.saveDraft, { labNoteNo: changed, blockList: [] });

  const texts = {
    en: { pending: '1 signature request is still pending', unsaved: '2 notes are not saved as they are' },
    ko: { pending: '대기 중인 서명 요청 1건', unsaved: '현재 내용이 저장되지 않은 노트 2건' },
    ja: { pending: '保留中の署名依頼が 1 件あります', unsaved: '現在の内容が保存されていないノートが 2 件あります' },
  };
  const page = await openAs(browser, E2E.member);
  await page.goto(`/project/${projectNo}`);
  const dialog = page.getByTestId('project-close-dialog');
  await eachDisplay(page, {
    open: async () => {
      await page.getByTestId('project-finish').click();
      await expect(dialog).toBeVisible();
    },
    visit: async ({ language }) => {
      await expect(dialog.getByTestId('project-close-pending')).toContainText(texts[language].pending);
      const pending = dialog.getByTestId('project-close-pending-item');
      await expect(pending).toHaveCount(1);
      await expect(pending).toHaveAttribute('data-user', E2E.member.userId);
      await expect(pending).toContainText(`Assay ${id}`);
      await expect(dialog.getByTestId('project-close-unsaved')).toContainText(texts[language].unsaved);
      const unsaved = dialog.getByTestId('project-close-unsaved-item');
      await expect(unsaved).toHaveCount(2);
      await expect(unsaved.nth(0)).toHaveAttribute('data-note', String(neverSaved));
      await expect(unsaved.nth(0)).toHaveAttribute('data-reason', 'neverSaved');
      await expect(unsaved.nth(0)).toContainText(`Draft ${id}`);
      await expect(unsaved.nth(1)).toHaveAttribute('data-reason', 'changedSinceSave');
      await expect(unsaved.nth(1)).toContainText(`Follow-up ${id}`);
      // Focus starts on Cancel: the dangerous answer is never the one Enter gives.
      await expect(dialog.getByTestId('project-close-cancel')).toBeFocused();
    },
    shot: 'project-close-warnings',
    fullPage: false,
    axe: { where: 'close dialog' },
  });
  // Cancel closes the dialog and changes nothing.
  await dialog.getByTestId('project-close-cancel').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('project-completed-notice')).toHaveCount(0);

  // The leader goes ahead all the same.
  await showIn(page, 'en', 'b');
  await page.getByTestId('project-finish').click();
  await expect(dialog.getByTestId('project-close-confirm')).toHaveText('Close project anyway');
  await dialog.getByTestId('project-close-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('project-completed-notice')).toBeVisible();
  const row = page.getByTestId(`note-row-signatures-${signed}`);
  await expect(row.locator('[data-status="C"]')).toHaveCount(1);
  await expect(row).toContainText('Cancelled at close');
  await shot(page, 'project-closed-cancelled-list-b-en');
  await page.goto(`/note/${signed}`);
  const entries = page.getByTestId('signatures').getByTestId('signature-entry');
  await expect(entries).toHaveCount(2);
  const cancelled = entries.nth(1);
  await expect(cancelled).toHaveAttribute('data-status', 'C');
  await expect(cancelled.getByTestId('signature-entry-status')).toHaveText('Cancelled at close');
  await expect(cancelled.getByTestId('signature-entry-time')).toBeVisible();
  await shot(page, 'signature-cancelled-at-close-b-en');
  // The same in Korean, once closed.
  await showIn(page, 'ko', 's');
  await expect(cancelled.getByTestId('signature-entry-status')).toHaveText('종료 시 취소됨');
  await shot(page, 'signature-cancelled-at-close-s-ko');
  await page.context().close();
});
