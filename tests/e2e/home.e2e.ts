import { api } from '@eln/shared';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './test.js';
import { E2E, hangTimeout } from './fixtures.js';
import { apiSignIn, callApi, createPerson, eachDisplay, openAs, seriousViolations, showIn, shot, unique, type Person } from './support.js';

/**
 * The home (`/`) in the browser: a researcher with a signature asked of them, a template of theirs sent
 * back, a note never saved, a note they opened and news in their project sees each in its section below
 * the counts, follows a row to the place to act, and someone new sees every section's empty state. In
 * Korean, English and Japanese, both themes. Data is made through the API with names unique to the run.
 */

async function setUp(request: APIRequestContext) {
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const person = (role: string, name: string, template: 'Y' | 'N'): Promise<Person> =>
    createPerson(request, adminToken, id, role, name, { project: 'Y', template });
  const researcher = await person('home', 'Kim Home', 'Y');
  const colleague = await person('colleague', 'Lee Colleague', 'N');
  const approver = await person('approver', 'Bae Approver', 'Y');
  const newcomer = await person('newcomer', 'Oh Newcomer', 'N');
  const me = await apiSignIn(request, researcher);
  const them = await apiSignIn(request, colleague);
  const checker = await apiSignIn(request, approver);
  const { projectNo } = await callApi(request, them, api.projects.create, {
    title: `Stability ${id}`,
    signatureList: { department: '', user: researcher.userId },
  });
  // The colleague's note, saved, with the researcher's signature asked for.
  const asked = await callApi(request, them, api.notes.create, { projectNo, title: `Assay ${id}` });
  await callApi(request, them, api.notes.saveVersion, { labNoteNo: asked.labNoteNo, version: 0, blockList: [] });
  await callApi(request, them, api.signatures.request, {
    labNoteNo: asked.labNoteNo,
    signers: [{ userId: researcher.userId, type: 'participant' }],
  });
  // The researcher's own note, never saved, and the colleague's note they opened.
  const draft = await callApi(request, me, api.notes.create, { projectNo, title: `Draft ${id}` });
  await callApi(request, me, api.notes.viewer, { labNoteNo: asked.labNoteNo });
  // The researcher's template, checked in and sent back by the approver.
  const { templateNo } = await callApi(request, me, api.templates.create, { title: `Buffer prep ${id}` });
  await callApi(request, me, api.templates.checkIn, { templateNo, version: 0, blockList: [] });
  await callApi(request, checker, api.templates.sendBack, { templateNo, revision: 1, reason: 'Add the waste disposal step' });
  return { id, researcher, newcomer, asked: asked.labNoteNo, draft: draft.labNoteNo, templateNo, projectNo };
}

/** The home with every section loaded (no skeleton left). */
async function homeReady(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('home-sections')).toBeVisible();
  await expect(page.locator('.home-card[aria-busy="true"]')).toHaveCount(0);
  await expect(page.locator('.home-card .skeleton-block')).toHaveCount(0);
}

test.describe('home', () => {
  test('shows what waits, my notes, what I opened and my project’s news, each opening its place; in three languages and both themes', async ({
    browser,
    request,
  }) => {
    test.setTimeout(hangTimeout(240_000));
    const { id, researcher, asked, draft, templateNo, projectNo } = await setUp(request);
    const page = await openAs(browser, researcher);
    await homeReady(page);

    // The counts stay above the sections, each a link to its list.
    await expect(page.getByTestId('count-ongoing')).toHaveAttribute('href', '/project?st=ING');

    const waiting = page.getByTestId('home-waiting');
    await expect(waiting.getByTestId(`home-signature-${asked}`)).toContainText(`Assay ${id}`);
    await expect(waiting.getByTestId(`home-signature-${asked}`)).toContainText(`Lee Colleague ${id} asked you to sign as Participant`);
    await expect(waiting.getByTestId(`home-returned-${templateNo}`)).toContainText(`Returned by Bae Approver ${id}`);
    await expect(waiting.getByTestId(`home-returned-${templateNo}`)).toContainText('Add the waste disposal step');
    await expect(page.getByTestId('home-waiting-count')).toHaveText('2');

    const notes = page.getByTestId('home-notes');
    await expect(notes.getByTestId(`home-note-${draft}`)).toContainText(`Draft ${id}`);
    await expect(notes.getByTestId(`home-note-${draft}`)).toContainText('Never saved');

    await expect(page.getByTestId('home-recent').getByTestId(`home-recent-note-${asked}`)).toContainText(`Stability ${id}`);

    const activity = page.getByTestId('home-activity');
    await expect(activity).toContainText(`Lee Colleague ${id} created Assay ${id}`);
    await expect(activity).toContainText(`Kim Home ${id} created Draft ${id}`);
    await expect(activity).toContainText(`Lee Colleague ${id} saved version 1 of Assay ${id}`);

    expect(await seriousViolations(page, 'home')).toEqual([]);

    await eachDisplay(page, {
      open: async () => {
        await expect(page.getByTestId('home-sections')).toBeVisible();
        await expect(page.locator('.home-card[aria-busy="true"]')).toHaveCount(0);
        await expect(page.locator('.home-card .skeleton-block')).toHaveCount(0);
      },
      visit: async () => {
        await expect(page.getByTestId(`home-signature-${asked}`)).toBeVisible();
      },
      shot: 'home',
    });
    await showIn(page, 'en', 's');
    await page.setViewportSize({ width: 420, height: 900 });
    await homeReady(page);
    await shot(page, 'home-narrow-s-en');
    await page.setViewportSize({ width: 1360, height: 900 });
    await homeReady(page);

    // Each row opens the place to act: the note to sign, the template to revise, the project.
    await page.getByTestId(`home-signature-${asked}`).click();
    await expect(page).toHaveURL(new RegExp(`/note/${asked}$`));
    await expect(page.getByTestId('signatures')).toContainText('Your signature is requested');
    await homeReady(page);
    await page.getByTestId(`home-returned-${templateNo}`).click();
    await expect(page).toHaveURL(new RegExp(`/template/note/${templateNo}$`));
    await homeReady(page);
    const opened = page.waitForResponse((response) => response.url().endsWith(api.notes.viewer.path));
    await page.getByTestId(`home-note-${draft}`).click();
    await expect(page).toHaveURL(new RegExp(`/note/${draft}$`));
    await opened;
    // Opening it put it first among the recently opened.
    await homeReady(page);
    await expect(page.getByTestId('home-recent').locator('.home-row-link').first()).toHaveAttribute('href', `/note/${draft}`);
    await page.getByTestId('home-activity').getByText(`Stability ${id}`).first().click();
    await expect(page).toHaveURL(/\/note\/\d+$/);
    expect(projectNo).toBeGreaterThan(0);
  });

  test('shows a failing section’s error in its own card, the others as they are, and tries again', async ({ browser, request }) => {
    test.setTimeout(hangTimeout(120_000));
    const { newcomer } = await setUp(request);
    const page = await openAs(browser, newcomer);
    let failing = true;
    await page.route(`**/server${api.inbox.section.path}`, async (route) => {
      const body = route.request().postDataJSON() as { section?: string };
      if (!failing || body.section !== 'notes') return route.continue();
      return route.fulfill({ status: 500, json: { status: '4731', message: 'This part of your home could not be loaded.', data: null } });
    });
    await page.goto('/');
    await expect(page.getByTestId('home-notes-error')).toContainText('This section could not be loaded.');
    await expect(page.getByTestId('home-waiting-empty')).toBeVisible();
    await expect(page.getByTestId('home-recent-empty')).toBeVisible();
    await shot(page, 'home-section-error-s-en');
    failing = false;
    await page.getByTestId('home-notes-error-retry').click();
    await expect(page.getByTestId('home-notes-empty')).toBeVisible();
    await expect(page.getByTestId('home-notes-error')).toHaveCount(0);
  });

  test('shows someone new every section’s empty state', async ({ browser, request }) => {
    test.setTimeout(hangTimeout(120_000));
    const { newcomer } = await setUp(request);
    for (const theme of ['s', 'b'] as const) {
      const page = await openAs(browser, newcomer, { theme, language: theme === 's' ? 'en' : 'ko' });
      await homeReady(page);
      await expect(page.getByTestId('home-waiting-empty')).toBeVisible();
      await expect(page.getByTestId('home-notes-empty')).toBeVisible();
      await expect(page.getByTestId('home-recent-empty')).toBeVisible();
      // Templates approved are news to everyone who reads them: another test of this server may have approved one.
      const events = page.getByTestId('home-activity').locator('.home-event');
      if ((await events.count()) === 0) await expect(page.getByTestId('home-activity-empty')).toBeVisible();
      else for (const text of await events.allInnerTexts()) expect(text).toMatch(/approved the template|템플릿/);
      await shot(page, `home-empty-${theme}`);
      await page.context().close();
    }
  });
});
