import { api } from '@eln/shared';
import { expect, test } from './test.js';
import { E2E, hangTimeout } from './fixtures.js';
import { apiSignIn, callApi, eachDisplay, openAs, shot, unique, type Person } from './support.js';

/**
 * What a note that cannot be written says about itself (issue 45, item 8): "Read only" and why, in the
 * interface language, where a note being written says "Connected · Saved"; and the project's note table
 * keeps each lab note number on one line at 1360 px.
 */
test('a signed note and a closed project’s note say "Read only" and why, in en, ko and ja; note numbers stay on one line', async ({
  browser,
  request,
}) => {
  test.setTimeout(hangTimeout(120_000));
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const colleague: Person = { userId: `ro.${id.toLowerCase()}@eln.local`, password: 'colleague-password-1234', name: `Ro Colleague ${id}` };
  await callApi(request, adminToken, api.users.create, {
    ...colleague,
    level: 1,
    auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' },
  });
  const memberToken = await apiSignIn(request, E2E.member);
  const colleagueToken = await apiSignIn(request, colleague);
  const { projectNo } = await callApi(request, memberToken, api.projects.create, {
    title: `Read only ${id}`,
    signatureList: { department: '', user: `${E2E.member.userId},${colleague.userId}` },
  });
  const signed = await callApi(request, colleagueToken, api.notes.create, { projectNo, title: `Signed ${id}` });
  const open = await callApi(request, colleagueToken, api.notes.create, { projectNo, title: `Buffer day 3 ${id}` });
  await callApi(request, colleagueToken, api.notes.saveVersion, { labNoteNo: signed.labNoteNo, version: 0, blockList: [] });
  await callApi(request, colleagueToken, api.signatures.request, {
    labNoteNo: signed.labNoteNo,
    signers: [{ userId: E2E.member.userId, type: 'reviewer' }],
  });
  await callApi(request, memberToken, api.signatures.respond, {
    labNoteNo: signed.labNoteNo,
    status: 'T',
    password: E2E.member.password,
    name: E2E.member.name,
    timeZone: 'Asia/Seoul',
  });

  // The project's note table at 1360 px: every lab note number on one line.
  const page = await openAs(browser, E2E.member);
  await page.goto(`/project/${projectNo}`);
  for (const no of [signed.labNoteNo, open.labNoteNo]) {
    const cell = page.getByTestId(`note-row-number-${no}`);
    await expect(cell).toBeVisible();
    const lines = await cell.evaluate((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      return new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size;
    });
    expect(lines, `lines of note ${no}'s number`).toBe(1);
  }
  await shot(page, 'project-notes-numbers-s-en');

  // Being written: connected and saved. Signed: read only, and why; nothing about connection or saving.
  await page.goto(`/note/${open.labNoteNo}`);
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  await expect(page.getByTestId('note-mode')).toHaveCount(0);
  await page.goto(`/note/${signed.labNoteNo}`);
  await expect(page.getByTestId('note-mode')).toHaveAttribute('data-reason', 'signed');
  await expect(page.getByTestId('note-mode')).toHaveText('Read only · signed');
  await expect(page.getByTestId('save-state')).toHaveCount(0);
  await expect(page.getByTestId('connection-state')).toHaveCount(0);
  await shot(page, 'note-read-only-signed-s-en', false);

  // Closed: every note of the project, in each language.
  await callApi(request, memberToken, api.projects.finish, { projectNo });
  const texts = { en: 'Read only · project closed', ko: '읽기 전용 · 프로젝트 종료', ja: '読み取り専用 · プロジェクト終了' } as const;
  await page.goto(`/note/${open.labNoteNo}`);
  await eachDisplay(page, {
    displays: [
      ['en', 's'],
      ['ko', 'b'],
      ['ja', 's'],
    ],
    visit: async ({ language }) => {
      await expect(page.getByTestId('note-mode')).toHaveAttribute('data-reason', 'finished');
      await expect(page.getByTestId('note-mode')).toHaveText(texts[language]);
      await expect(page.getByTestId('save-state')).toHaveCount(0);
      await expect(page.getByTestId('connection-state')).toHaveCount(0);
    },
    shot: 'note-read-only-finished',
    fullPage: false,
  });
  await page.context().close();
});
