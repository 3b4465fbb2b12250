import { expect, test } from './test.js';
import type { Page } from '@playwright/test';
import { startTestServer, type TestServer } from '../../server/src/testing/harness.js';
import { companyDirectory, departmentDn, personDn, startTestDirectory, type TestDirectory } from '../../server/src/testing/ldap.js';
import { openAs, seriousViolations, shot } from './support.js';

/**
 * The department screen's directory panel against a real OpenLDAP (slapd on loopback, 600 people: more
 * than one unpaged search may answer) and a server of its own configured for it: "Sync now" with its
 * progress, the result and what changed, a refused run, and a server with no directory.
 */
const PEOPLE = 600;
const seed = companyDirectory(PEOPLE);
let directory: TestDirectory;
let server: TestServer;
let baseURL: string;

test.beforeAll(async () => {
  directory = await startTestDirectory(seed);
  server = await startTestServer({ serveClient: true, config: { directory: directory.config() } });
  baseURL = await server.listen();
});

test.afterAll(async () => {
  await server?.stop();
  await directory?.dispose();
});

/** Holds the next run while it reads people, until `release()`: its progress stays on screen meanwhile. */
function holdNextRunAtPeople(): { release: () => void; done: () => void } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  const done = server.services.directorySync.observe(async (phase) => {
    if (phase !== 'users' || held) return;
    held = true;
    await gate;
  });
  return { release, done };
}

async function openDepartments(page: Page) {
  await page.goto('/admin/department');
  await expect(page.getByTestId('sync-panel')).toBeVisible();
}

test.describe.serial('directory synchronisation', () => {
  test('an administrator syncs now: progress over the panel, then what was read and created (s, en)', async ({ browser }) => {
    const page = await openAs(browser, server.admin, { baseURL });
    await openDepartments(page);
    await expect(page.getByTestId('sync-never')).toBeVisible();
    await expect(page.getByTestId('sync-source')).toContainText(directory.url);

    const hold = holdNextRunAtPeople();
    try {
      await page.getByTestId('sync-now').click();
      await expect(page.getByTestId('sync-progress')).toHaveAttribute('data-phase', 'users');
      await expect(page.getByTestId('sync-progress')).toContainText(/Reading people… \d+ entries read/);
      await expect(page.getByTestId('sync-now')).toBeDisabled();
      await shot(page, 'department-sync-progress-s-en');
      // The rest of the page stays usable while the run goes on.
      await page.getByTestId('dept-add').first().click();
      await expect(page.getByTestId('dept-dialog')).toBeVisible();
      await page.getByTestId('dept-cancel').click();
    } finally {
      hold.release();
      hold.done();
    }

    await expect(page.getByTestId('sync-outcome')).toHaveText('Succeeded');
    await expect(page.getByTestId('sync-done')).toBeVisible();
    await expect(page.getByTestId('sync-counts-people-created')).toContainText(String(PEOPLE));
    await expect(page.getByTestId('sync-counts-departments-created')).toContainText(String(seed.departments.length));
    await expect(page.getByTestId('sync-notes')).toContainText('2 entries need attention');
    await page.getByTestId('sync-notes').locator('summary').click();
    await expect(page.getByTestId('sync-notes')).toContainText('Left out: no valid email address');
    await expect(page.getByTestId('dept-node-RND-CHEM-ORG')).toHaveAttribute('data-parent', 'RND-CHEM');
    await expect(page.getByTestId('dept-node-RND-CHEM-ORG')).toContainText('Directory');
    expect(await seriousViolations(page, 'department page after a sync')).toEqual([]);
    await shot(page, 'department-sync-s-en');
    await page.context().close();
  });

  test('a second run shows a move and a department the directory dropped (b, ko)', async ({ browser }) => {
    const mover = seed.people.find((p) => p.departmentCode === 'QA-LAB')!;
    await directory.modify(`dn: ${personDn(mover.uid)}\nchangetype: modify\nreplace: departmentNumber\ndepartmentNumber: OPS\n`);
    await directory.modify(`dn: ${departmentDn('QA-LAB', seed.departments)}\nchangetype: delete\n`);
    const page = await openAs(browser, server.admin, { baseURL, theme: 'b', language: 'ko' });
    await openDepartments(page);
    await page.getByTestId('sync-now').click();
    await expect(page.getByTestId('sync-done')).toBeVisible();
    await expect(page.getByTestId('sync-outcome')).toHaveText('성공');
    await expect(page.getByTestId('sync-counts-people-moved')).toContainText('1');
    await expect(page.getByTestId('sync-counts-departments-missing')).toContainText('1');
    await expect(page.getByTestId('dept-missing-QA-LAB')).toHaveText('디렉터리에 없음');
    expect(await seriousViolations(page, 'department page with a missing department (b)')).toEqual([]);
    await shot(page, 'department-sync-b-ko');
    await page.context().close();
  });

  test('a refused run says why and that nothing changed (s, ja)', async ({ browser }) => {
    server.config.directory = directory.config({ bindPassword: 'wrong-password' });
    try {
      const page = await openAs(browser, server.admin, { baseURL, language: 'ja' });
      await openDepartments(page);
      await page.getByTestId('sync-now').click();
      await expect(page.getByTestId('sync-outcome')).toHaveText('失敗');
      await expect(page.getByTestId('sync-error')).toContainText('ディレクトリが電子実験ノートの接続アカウント');
      await expect(page.getByTestId('sync-error')).toContainText('何も変更されていません');
      expect(await seriousViolations(page, 'department page after a refused sync')).toEqual([]);
      await shot(page, 'department-sync-error-s-ja');
      await page.context().close();
    } finally {
      server.config.directory = directory.config();
    }
  });

  test('a server without a directory says so politely (b, en)', async ({ browser }) => {
    server.config.directory = null;
    try {
      const page = await openAs(browser, server.admin, { baseURL, theme: 'b' });
      await openDepartments(page);
      await expect(page.getByTestId('sync-not-configured')).toContainText('not set up on this server');
      await expect(page.getByTestId('sync-now')).toHaveCount(0);
      expect(await seriousViolations(page, 'department page without a directory (b)')).toEqual([]);
      await shot(page, 'department-sync-not-configured-b-en', false);
      await page.context().close();
    } finally {
      server.config.directory = directory.config();
    }
  });
});
