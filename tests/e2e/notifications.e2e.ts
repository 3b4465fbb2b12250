import { api } from '@eln/shared';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './test.js';
import { E2E, hangTimeout } from './fixtures.js';
import { startTestServer } from '../../server/src/testing/harness.js';
import { apiSignIn, callApi, createPerson, eachDisplay, openAs, prose, seriousViolations, showIn, unique, type Person } from './support.js';

/**
 * The bell in the browser: a writer requests a signature in one browser and the signer's bell, open in
 * another, counts it at once (pushed, not polled); the signer opens the panel by keyboard, finds the
 * request and follows it to the note, which marks it read. Then the panel as it looks in each language
 * and theme, and on a small screen. Screenshots go to test-results/notifications/.
 */

const SCREENSHOTS = 'test-results/notifications';

async function panelShot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled' });
}

/** A writer who leads a project (with the project permission) and a signer who takes part in it. */
async function setUp(request: APIRequestContext) {
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const writer = await createPerson(request, adminToken, id, 'writer', 'Woo Writer', { project: 'Y' });
  const signer = await createPerson(request, adminToken, id, 'signer', 'Seo Signer');
  const { projectNo } = await callApi(request, await apiSignIn(request, writer), api.projects.create, {
    title: `Kinetics ${id}`,
    description: 'Enzyme kinetics, batch 2',
    signatureList: { department: '', user: signer.userId },
  });
  return { id, writer, signer, projectNo };
}

/** The writer makes a note with a saved version in their browser; answers its number. */
async function savedNote(writerPage: Page, projectNo: number, title: string): Promise<number> {
  await writerPage.goto(`/project/${projectNo}`);
  await writerPage.getByTestId('new-note-title').fill(title);
  await writerPage.getByTestId('new-note-submit').click();
  await expect(writerPage).toHaveURL(/\/note\/\d+$/);
  const labNoteNo = Number(/\/note\/(\d+)$/.exec(writerPage.url())?.[1]);
  await expect(writerPage.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
  await prose(writerPage).click();
  await writerPage.keyboard.type('Initial rates at five substrate concentrations.');
  await expect(writerPage.getByTestId('save-state')).toHaveText('Saved');
  await writerPage.getByTestId('save-version').click();
  await expect(writerPage.getByTestId('note-version')).toHaveAttribute('data-version', '1');
  return labNoteNo;
}

/** The writer asks `signer` to sign as reviewer, through the note's request dialog. */
async function requestSignature(writerPage: Page, signer: Person): Promise<void> {
  await writerPage.getByTestId('signature-request').click();
  const dialog = writerPage.getByTestId('signature-request-dialog');
  await dialog.getByTestId(`signature-request-signer-${signer.userId}`).check();
  await dialog.getByTestId(`signature-request-type-${signer.userId}`).selectOption('reviewer');
  await dialog.getByTestId('signature-request-submit').click();
  await expect(dialog).toBeHidden();
}

test.describe('notifications', () => {
  test('a signature request reaches the signer’s bell live; the panel opens by keyboard and its link opens the note', async ({
    browser,
    request,
  }) => {
    test.setTimeout(hangTimeout(180_000));
    const { id, writer, signer, projectNo } = await setUp(request);
    const title = `Rates ${id}`;
    const woo = await openAs(browser, writer);
    const labNoteNo = await savedNote(woo, projectNo, title);

    // The signer's tab is open on the dashboard, nothing new yet.
    const seo = await openAs(browser, signer);
    const bell = seo.getByTestId('notification-bell');
    await expect(bell).toHaveAccessibleName('Notifications');
    await expect(seo.getByTestId('notification-count')).toHaveCount(0);
    await bell.focus();
    await seo.keyboard.press('Enter');
    const panel = seo.getByTestId('notification-panel');
    await expect(panel.getByTestId('notification-empty')).toContainText('Nothing here yet');
    await expect(panel.getByRole('heading', { name: 'Notifications' })).toBeFocused();
    await panelShot(seo, 'panel-empty-s-en');
    await seo.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(bell).toBeFocused();

    // Counted the moment the writer asks, in the other browser, without a reload or a click.
    const requests: string[] = [];
    seo.on('request', (sent) => requests.push(sent.url()));
    await requestSignature(woo, signer);
    await expect(seo.getByTestId('notification-count')).toHaveText('1');
    await expect(bell).toHaveAccessibleName('Notifications (1 unread)');
    await expect(seo.getByTestId('notification-announcement')).toContainText(`asked you to sign note ${title}`);
    expect(requests.filter((url) => url.includes(api.notifications.list.path))).toEqual([]);

    await seo.keyboard.press('Enter');
    const entry = panel.getByTestId('notification-entry');
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText(`Woo Writer ${id} asked you to sign note ${title} (LN-`);
    await expect(entry).toContainText('as Reviewer');
    await expect(entry).toContainText('Just now');
    await panelShot(seo, 'panel-one-s-en');
    expect(await seriousViolations(seo, 'notification panel')).toEqual([]);

    // Tab from the heading: mark all, the filter's two buttons, then the notification; Enter follows it.
    const link = entry.getByRole('link');
    for (let presses = 0; presses < 6 && !(await link.evaluate((el) => el === document.activeElement)); presses += 1)
      await seo.keyboard.press('Tab');
    await expect(link).toBeFocused();
    await seo.keyboard.press('Enter');
    await expect(seo).toHaveURL(new RegExp(`/note/${labNoteNo}$`));
    await expect(panel).toBeHidden();
    await expect(seo.getByTestId('signature-sign')).toBeVisible();
    // Following it marked it read, here and in every tab.
    await expect(seo.getByTestId('notification-count')).toHaveCount(0);
    await bell.click();
    await expect(entry).not.toHaveClass(/is-unread/);
    await expect(panel.getByTestId('notification-read-all')).toBeDisabled();
    await seo.getByTestId('notification-filter').getByRole('button', { name: 'Unread' }).click();
    await expect(panel.getByTestId('notification-empty')).toContainText('You have read every notification.');

    await woo.context().close();
    await seo.context().close();
  });

  test('the panel in each language and theme, and on a small screen', async ({ browser, request }) => {
    test.setTimeout(hangTimeout(240_000));
    const { id, writer, signer, projectNo } = await setUp(request);
    // Two requests made through the API (the test above makes one through the note's dialog).
    const writerToken = await apiSignIn(request, writer);
    for (const title of [`Plates ${id}`, `Blanks ${id}`]) {
      const { labNoteNo } = await callApi(request, writerToken, api.notes.create, { projectNo, title });
      await callApi(request, writerToken, api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
      await callApi(request, writerToken, api.signatures.request, { labNoteNo, signers: [{ userId: signer.userId, type: 'reviewer' }] });
    }

    const sentences = {
      en: 'asked you to sign note',
      ko: '서명을 요청했습니다',
      ja: 'の署名を依頼しました',
    } as const;
    const page = await openAs(browser, signer);
    const panel = page.getByTestId('notification-panel');
    await eachDisplay(page, {
      open: async () => {
        await expect(page.getByTestId('notification-count')).toHaveText('2');
        await page.getByTestId('notification-bell').click();
        await expect(panel.getByTestId('notification-entry')).toHaveCount(2);
      },
      visit: async ({ language, name }) => {
        await expect(panel.getByTestId('notification-entry').first()).toContainText(sentences[language]);
        await panelShot(page, `panel-${name}`);
      },
      axe: { where: 'notification panel' },
    });

    // On a small screen, the same page.
    await showIn(page, 'ko', 'b');
    await page.setViewportSize({ width: 390, height: 800 });
    await expect(page.getByTestId('notification-bell')).toBeVisible();
    await expect(page.getByTestId('notification-count')).toHaveText('2');
    await page.getByTestId('notification-bell').click();
    await expect(page.getByTestId('notification-panel')).toBeVisible();
    await panelShot(page, 'panel-small-b-ko');
    await page.context().close();
  });

  test('the bell stays live across access tokens: its stream ends with each token and opens again with the fresh one', async ({
    browser,
  }) => {
    test.setTimeout(hangTimeout(120_000));
    const TOKEN_SECONDS = 6;
    const server = await startTestServer({ serveClient: true, accessTokenSeconds: TOKEN_SECONDS });
    try {
      const baseURL = await server.listen();
      const owner = await server.createUser({ name: 'Owl Owner' });
      const asOwner = await server.as(owner);
      const { projectNo } = (
        await asOwner(api.projects.create, { title: 'Night shift', signatureList: { department: '', user: owner.userId } })
      ).body.data;
      const page = await openAs(browser, owner, { baseURL });
      const opened: string[] = [];
      page.on('request', (sent) => {
        if (sent.url().endsWith(`/server${api.notifications.stream.path}`)) opened.push(sent.headers().authorization ?? '');
      });
      await expect(page.getByTestId('notification-bell')).toBeVisible();
      // Two and a half token lives with the page left alone.
      await page.waitForTimeout(TOKEN_SECONDS * 2500);
      expect(new Set(opened).size).toBeGreaterThanOrEqual(2);

      // A finished export (the system tells its requester) still reaches the open bell.
      // (A session of its own: this test's token has expired too.)
      const later = await server.as(owner);
      expect((await later(api.exports.create, { format: 'eln', projectNos: [projectNo] })).body.status).toBe('0000');
      await expect(page.getByTestId('notification-count')).toHaveText('1', { timeout: 20_000 });
      await expect(page.getByTestId('session-ended-modal')).toHaveCount(0);
      await page.context().close();
    } finally {
      await server.stop();
    }
  });
});
