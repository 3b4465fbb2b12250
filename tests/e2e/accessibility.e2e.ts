import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { E2E } from './fixtures.js';
import { api, apiSignIn, openAs, prose, unique } from './support.js';

/**
 * WCAG 2.2 AA as axe-core checks it, in chromium: the screens below in both themes and in Korean, and
 * the licence dialog, with no critical or serious violation allowed. axe is injected by Playwright, so
 * the app's Content-Security-Policy stays as strict as production serves it. Keyboard paths and
 * announcements axe cannot see are not covered here (issue 16).
 */

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** The critical and serious violations on the page as it is now, one readable line each. */
async function violations(page: Page, where: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${where}: ${v.impact} ${v.id} on ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')} (${v.nodes[0]?.failureSummary?.split('\n')[1]?.trim() ?? v.help})`);
}

/** Opens a path and waits for its page to be shown (and its data loaded). */
async function visit(page: Page, path: string, ready: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByTestId(ready)).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

for (const [theme, language] of [['s', 'en'], ['b', 'en'], ['s', 'ko']] as const) {
  test(`screens in theme ${theme}, ${language}, have no serious accessibility violation`, async ({ browser, request }) => {
    test.setTimeout(180_000);
    const token = await apiSignIn(request, E2E.member);
    const { projectNo } = await api<{ projectNo: number }>(request, token, '/v1/project/create', { title: `A11y ${unique()}`, signatureList: { department: '', user: E2E.member.userId } });
    const { labNoteNo } = await api<{ labNoteNo: number }>(request, token, '/v1/project/note/create', { projectNo, title: 'Scanned note' });
    const found: string[] = [];

    const guest = await (await browser.newContext({ locale: language })).newPage();
    await guest.addInitScript(([t, l]) => {
      window.localStorage.setItem('eln.theme', t);
      window.localStorage.setItem('eln.language', l);
    }, [theme, language] as const);
    await visit(guest, '/signin', 'signin-submit');
    found.push(...(await violations(guest, 'sign-in')));

    const admin = await openAs(browser, E2E.admin, { theme, language });
    found.push(...(await violations(admin, 'dashboard')));
    const screens: Array<[string, string]> = [
      ['/project', 'page-project'],
      ['/project/create', 'page-project-create'],
      [`/project/${projectNo}`, 'page-project-detail'],
      ['/template', 'page-template'],
      ['/dropbox', 'page-dropbox'],
      ['/dropbox/create', 'page-dropbox-create'],
      ['/admin', 'page-admin'],
      ['/admin/audit', 'page-admin-audit'],
      ['/admin/department', 'page-admin-department'],
      ['/admin/download', 'page-admin-download'],
    ];
    for (const [path, ready] of screens) {
      await visit(admin, path, ready);
      found.push(...(await violations(admin, path)));
    }
    await admin.getByTestId('nav-admin').click();
    await admin.getByTestId('nav-admin-info').click();
    await expect(admin.getByTestId('licence-dialog')).toBeVisible();
    found.push(...(await violations(admin, 'licence dialog')));
    await admin.keyboard.press('Escape');
    await visit(admin, '/notFound', 'page-not-found');
    found.push(...(await violations(admin, '/notFound')));

    const member = await openAs(browser, E2E.member, { theme, language });
    await member.goto(`/note/${labNoteNo}`);
    await expect(prose(member)).toHaveAttribute('contenteditable', 'true');
    found.push(...(await violations(member, 'note editor')));

    expect(found).toEqual([]);
  });
}
