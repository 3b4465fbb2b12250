import { api } from '@eln/shared';
import type { Page } from '@playwright/test';
import { expect, test } from './test.js';
import { E2E, hangTimeout } from './fixtures.js';
import { apiSignIn, callApi, createPerson, eachDisplay, openAs, prose, unique } from './support.js';

/**
 * Comment threads beside a note: the writer comments on a selection (Mod-Alt-M) mentioning the reviewer
 * through the `@` suggestions, the reviewer, who has the note open in another browser, sees the thread
 * arrive live, replies, and the writer resolves it; then the panel in each language and theme, on one
 * signed-in page. Screenshots go to test-results/comments/.
 */

const SCREENSHOTS = 'test-results/comments';

async function panelShot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled' });
}

test.describe('comments', () => {
  test('a comment on a selection reaches another reader live; replies, resolving, and the panel in every language and theme', async ({
    browser,
    request,
  }) => {
    test.setTimeout(hangTimeout(300_000));
    const id = unique();
    const adminToken = await apiSignIn(request, E2E.admin);
    const writer = await createPerson(request, adminToken, id, 'writer', 'Woo Writer', { project: 'Y' });
    const reviewer = await createPerson(request, adminToken, id, 'reviewer', 'Ryu Reviewer');
    const writerToken = await apiSignIn(request, writer);
    const { projectNo } = await callApi(request, writerToken, api.projects.create, {
      title: `Buffers ${id}`,
      description: 'Buffer preparation',
      signatureList: { department: '', user: reviewer.userId },
    });

    // The writer writes a line in the note.
    const woo = await openAs(browser, writer);
    await woo.goto(`/project/${projectNo}`);
    await woo.getByTestId('new-note-title').fill(`Lot check ${id}`);
    await woo.getByTestId('new-note-submit').click();
    await expect(woo).toHaveURL(/\/note\/\d+$/);
    const labNoteNo = Number(/\/note\/(\d+)$/.exec(woo.url())?.[1]);
    await expect(woo.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
    await prose(woo).click();
    await woo.keyboard.type('Tris buffer from lot 42 at pH 7.4');
    await expect(woo.getByTestId('save-state')).toHaveText('Saved');

    // The reviewer has the note open, with its comments beside it: none yet.
    const ryu = await openAs(browser, reviewer);
    await ryu.goto(`/note/${labNoteNo}`);
    await expect(prose(ryu)).toContainText('lot 42');
    await ryu.getByTestId('comments-toggle').click();
    const ryuPanel = ryu.getByTestId('comment-panel');
    await expect(ryuPanel.getByTestId('comment-empty')).toBeVisible();

    // The writer selects "lot 42" and comments on it with the keyboard, mentioning the reviewer by `@`.
    await prose(woo).click();
    await woo.keyboard.press('End');
    for (let i = 0; i < ' at pH 7.4'.length; i += 1) await woo.keyboard.press('ArrowLeft');
    for (let i = 0; i < 'lot 42'.length; i += 1) await woo.keyboard.press('Shift+ArrowLeft');
    await woo.keyboard.press('Control+Alt+m');
    const wooPanel = woo.getByTestId('comment-panel');
    const composer = wooPanel.getByTestId('comment-new-thread');
    await expect(composer).toContainText('lot 42');
    const body = composer.getByTestId('comment-new-body');
    await expect(body).toBeFocused();
    await body.pressSequentially('Which supplier? @Ryu');
    const option = wooPanel.getByTestId('mention-option');
    await expect(option).toHaveCount(1);
    await expect(option).toContainText(`Ryu Reviewer ${id}`);
    await woo.keyboard.press('Enter');
    await expect(body).toHaveValue(`Which supplier? @[${reviewer.userId}] `);
    await body.pressSequentially('please check.');
    await composer.getByTestId('comment-new-submit').click();
    const wooThread = wooPanel.getByTestId('comment-thread');
    await expect(wooThread).toHaveCount(1);
    await expect(wooThread.getByTestId('comment-body')).toHaveText(`Which supplier? @Ryu Reviewer ${id} please check.`);
    // Highlighted in the text by a decoration, not a mark in the content.
    await expect(prose(woo).locator('.comment-anchor')).toHaveText('lot 42');

    // The reviewer's panel shows it without a reload, and the text is highlighted there too.
    const ryuThread = ryuPanel.getByTestId('comment-thread');
    await expect(ryuThread).toHaveCount(1);
    await expect(ryuThread.getByTestId('comment-body')).toContainText(`@Ryu Reviewer ${id}`);
    await expect(prose(ryu).locator('.comment-anchor')).toHaveText('lot 42');
    await expect(ryuThread.getByTestId('comment-resolve')).toHaveCount(0);

    // The reviewer replies; the writer sees it arrive, and resolves the thread.
    await ryuThread.getByTestId('comment-reply-open').click();
    await ryuThread.getByTestId('comment-reply-body').fill('Sigma, lot 42 is fine.');
    await ryuThread.getByTestId('comment-reply-submit').click();
    await expect(wooThread.getByTestId('comment')).toHaveCount(2);
    await expect(wooThread).toContainText('Sigma, lot 42 is fine.');
    await wooThread.getByTestId('comment-resolve').click();
    await expect(ryuPanel.getByTestId('comment-empty')).toBeVisible();
    await ryuPanel.getByTestId('comment-show').getByRole('button', { name: 'Resolved' }).click();
    await expect(ryuThread).toContainText(`Resolved by Woo Writer ${id}`);
    await expect(prose(ryu).locator('.comment-anchor')).toHaveCount(0);
    // Comments never touch the content: nothing to save on either side, and a version saves as ever.
    await expect(woo.getByTestId('save-state')).toHaveText('Saved');
    await woo.getByTestId('save-version').click();
    await expect(woo.getByTestId('note-version')).toHaveAttribute('data-version', '1');
    await woo.context().close();

    // An open thread on the whole paragraph for the screenshots (through the API), opened as a notification would open it.
    const [block] = (await callApi(request, writerToken, api.notes.blockList, { labNoteNo })).blockList;
    const { commentId } = await callApi(request, writerToken, api.comments.create, {
      labNoteNo,
      anchor: { blockUid: block!.blockUid, start: null, end: null, quote: 'Tris buffer from lot 42 at pH 7.4' },
      body: `@[${reviewer.userId}] add the blank to the table, please.`,
    });
    await callApi(request, await apiSignIn(request, reviewer), api.comments.create, { labNoteNo, replyTo: commentId, body: 'Will do.' });
    await ryu.goto(`/note/${labNoteNo}?comment=${commentId}`);
    await expect(ryuPanel.getByTestId('comment-thread')).toHaveCount(1);
    await expect(ryuPanel.locator(`[data-thread="${commentId}"]`)).toHaveClass(/is-active/);

    const openCount = { en: '1 open', ko: '열림 1개', ja: '未解決 1 件' } as const;
    await eachDisplay(ryu, {
      visit: async ({ language, name }) => {
        await expect(ryuPanel.getByTestId('comment-open-count')).toHaveText(openCount[language]);
        await expect(ryuPanel.getByTestId('comment-thread')).toContainText(`@Ryu Reviewer ${id}`);
        await panelShot(ryu, `panel-${name}`);
      },
      axe: { where: 'comment panel', within: '[data-testid="comment-panel"]' },
    });
    await ryu.context().close();
  });
});
