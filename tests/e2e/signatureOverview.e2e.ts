import { api } from '@eln/shared';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './test.js';
import { E2E, hangTimeout } from './fixtures.js';
import { apiSignIn, callApi, createPerson, eachDisplay, openAs, seriousViolations, showIn, shot, unique, type Person } from './support.js';

/**
 * The signature overview in the browser: the project leader opens it from the project, sees who was asked,
 * who signed (in the viewer's zone, the signer's zone named), declined, and who has waited how long,
 * narrows it to "waiting only", reminds a signer from the keyboard (the button then disabled with the time
 * of the next), and tries again after a failed load; the note's own section says the same. In Korean,
 * English and Japanese, both themes. Data is made through the API with names unique to the run.
 */

async function setUp(request: APIRequestContext) {
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const person = (role: string, name: string): Promise<Person> => createPerson(request, adminToken, id, role, name, { project: 'Y' });
  const leader = await person('ovlead', 'Han Leader');
  const writer = await person('ovwriter', 'Woo Writer');
  const reviewer = await person('ovreviewer', 'Ryu Reviewer');
  const waiter = await person('ovwaiter', 'Wang Waiter');
  const [lead, write, review] = await Promise.all([leader, writer, reviewer].map((who) => apiSignIn(request, who)));
  const { projectNo } = await callApi(request, lead!, api.projects.create, {
    title: `Overview ${id}`,
    signatureList: { department: '', user: [writer, reviewer, waiter].map((p) => p.userId).join(',') },
  });
  const savedNote = async (title: string) => {
    const { labNoteNo } = await callApi(request, write!, api.notes.create, { projectNo, title });
    await callApi(request, write!, api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
    return labNoteNo;
  };
  // Signed by the reviewer (in Berlin), still waiting for the participant.
  const signed = await savedNote(`Buffer ${id}`);
  await callApi(request, write!, api.signatures.request, {
    labNoteNo: signed,
    signers: [
      { userId: reviewer.userId, type: 'reviewer' },
      { userId: waiter.userId, type: 'participant' },
    ],
  });
  const answer = { password: reviewer.password, name: reviewer.name, timeZone: 'Europe/Berlin' };
  await callApi(request, review!, api.signatures.respond, { labNoteNo: signed, status: 'T', ...answer, description: 'Checked the blank' });
  // Declined by the reviewer, waiting for the participant.
  const declined = await savedNote(`Assay ${id}`);
  await callApi(request, write!, api.signatures.request, {
    labNoteNo: declined,
    signers: [
      { userId: reviewer.userId, type: 'reviewer' },
      { userId: waiter.userId, type: 'participant' },
    ],
  });
  await callApi(request, review!, api.signatures.respond, {
    labNoteNo: declined,
    status: 'F',
    ...answer,
    description: 'Add the lot number',
  });
  const untouched = (await callApi(request, write!, api.notes.create, { projectNo, title: `Draft ${id}` })).labNoteNo;
  return { id, leader, waiter, projectNo, signed, declined, untouched };
}

/** The overview with its rows loaded. */
async function overviewReady(page: Page): Promise<void> {
  await expect(page.getByTestId('page-project-signatures')).toBeVisible();
  await expect(page.getByTestId('overview-table')).toHaveAttribute('aria-busy', 'false');
  await expect(page.locator('.skeleton-row')).toHaveCount(0);
}

test.describe('signature overview', () => {
  test('lists who was asked and who answered, filters the waiting, reminds once a day; in three languages and both themes', async ({
    browser,
    request,
  }) => {
    test.setTimeout(hangTimeout(240_000));
    const { id, leader, waiter, projectNo, signed, declined, untouched } = await setUp(request);
    const page = await openAs(browser, leader);

    // Reached from the project's screen.
    await page.goto(`/project/${projectNo}`);
    await page.getByTestId('project-signature-overview').click();
    await expect(page).toHaveURL(new RegExp(`/project/${projectNo}/signatures$`));
    await overviewReady(page);
    const rows = page.getByTestId('overview-row');
    await expect(rows).toHaveCount(5);
    await expect(page.locator(`[data-testid="overview-row"][data-note="${untouched}"]`)).toContainText('No signatures requested');
    const signedRow = page.locator(`[data-testid="overview-row"][data-note="${signed}"][data-state="signed"]`);
    await expect(signedRow).toContainText(`Ryu Reviewer ${id}`);
    await expect(signedRow).toContainText('Reviewer');
    await expect(signedRow.getByTestId('overview-signer-zone')).toHaveText('Signer’s zone: Europe/Berlin');
    // Shown in the viewer's zone (Seoul, GMT+9), the signer's named beside it.
    await expect(signedRow.getByTestId('overview-answered-at')).toContainText('GMT+9');
    await expect(page.locator(`[data-testid="overview-row"][data-note="${declined}"][data-state="declined"]`)).toContainText(
      'Add the lot number',
    );
    await expect(page.getByTestId('overview-filter').locator('[data-value="waiting"]')).toHaveText('Waiting (2)');

    // Waiting only: the two requests still unanswered, each with how long and who asked.
    await page.getByTestId('overview-filter').locator('[data-value="waiting"]').click();
    await expect(page).toHaveURL(/\?st=waiting$/);
    await overviewReady(page);
    await expect(rows).toHaveCount(2);
    for (const row of await rows.all()) {
      await expect(row).toHaveAttribute('data-state', 'waiting');
      await expect(row).toContainText(`Wang Waiter ${id}`);
      await expect(row.getByTestId('overview-waiting')).toHaveText(/^Waiting (since just now|\d+ minutes?)$/);
      await expect(row.getByTestId('overview-asked')).toContainText(`Asked by Woo Writer ${id}, `);
    }
    expect(await seriousViolations(page, 'signature overview')).toEqual([]);

    // The leader reminds, from the keyboard; the button then waits a day and says until when.
    const first = rows.first();
    const signatureId = await first.getAttribute('data-signature-id');
    const remind = page.getByTestId(`overview-remind-${signatureId}`);
    await remind.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('overview-reminded')).toHaveText(`Reminder sent to Wang Waiter ${id}.`);
    await expect(remind).toBeDisabled();
    await expect(first.getByTestId('overview-next-reminder')).toContainText('Next reminder from');
    await expect(first.getByTestId('overview-reminders')).toContainText(`Reminded once, last by Han Leader ${id}`);

    await page.goto(`/project/${projectNo}/signatures`);
    await eachDisplay(page, {
      open: () => overviewReady(page),
      visit: async () => {
        await expect(rows).toHaveCount(5);
      },
      shot: 'signature-overview',
    });
    await showIn(page, 'en', 's');

    // A server error on loading shows the error page (as every list does), whose retry opens the overview again.
    let failing = true;
    await page.route(`**/server${api.signatureOverview.projectOverview.path}`, async (route) => {
      if (!failing) return route.continue();
      return route.fulfill({ status: 500, json: { status: '4960', message: 'The signature overview could not be loaded.', data: null } });
    });
    await page.goto(`/project/${projectNo}/signatures?st=waiting`);
    await expect(page.getByTestId('page-error')).toBeVisible();
    failing = false;
    await page.getByTestId('error-retry').click();
    await expect(page).toHaveURL(new RegExp(`/project/${projectNo}/signatures\\?st=waiting$`));
    await overviewReady(page);
    await expect(rows).toHaveCount(2);

    // The note's own section says the same, the reminder already sent.
    await page.getByTestId('overview-note-link').first().click();
    const section = page.getByTestId('signature-overview');
    await expect(section.getByTestId('overview-row')).toHaveCount(2);
    await expect(section.locator('[data-state="waiting"]')).toContainText(waiter.name);
    await expect(section.locator('[data-state="waiting"] button')).toBeDisabled();
    await shot(page, 'signature-overview-note-s-en');
  });
});
