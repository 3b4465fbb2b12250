import { api } from '@eln/shared';
import { expect, test } from './test.js';
import type { Page } from '@playwright/test';
import { E2E, hangTimeout } from './fixtures.js';
import { shot, unique, signIn, callApi, apiSignIn, type Person, seriousViolations, fillDate } from './support.js';

/**
 * People and projects in the browser: an administrator sets up a department and two users, one of them
 * creates a project with the other as participant, finds it, edits the participants, and the other sees
 * it. Each test makes its own data with names unique to the run.
 */

async function signOut(page: Page) {
  await page.getByTestId('signout').click();
  await expect(page).toHaveURL(/\/signin$/);
}

/** The admin's user dialog: fills and sends it. */
async function createUserThroughDialog(
  page: Page,
  person: Person,
  options: { departmentCode: string; employeeNo: string; phone: string; projectFlag: boolean },
) {
  await page.getByTestId('user-create-button').click();
  const dialog = page.getByTestId('user-create-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('user-id-input').fill(person.userId);
  await dialog.getByTestId('user-name-input').fill(person.name);
  await dialog.getByTestId('user-password-input').fill(person.password);
  await dialog.getByTestId('user-employee-input').fill(options.employeeNo);
  await dialog.getByTestId('user-phone-input').fill(options.phone);
  await dialog.getByTestId('user-department-select').selectOption(options.departmentCode);
  if (options.projectFlag) await dialog.getByTestId('user-flag-project').check();
  await dialog.getByTestId('user-create-submit').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('user-created-notice')).toContainText(person.name);
}

test.describe('people and projects', () => {
  test('an administrator sets up people, a leader runs a project with a participant, the participant sees it', async ({ page }) => {
    // Three people's whole day in one test: about a minute on a quiet machine.
    test.setTimeout(hangTimeout(300_000));
    const id = unique();
    const department = { code: `LAB-${id}`, name: `Assay Lab ${id}` };
    const leader: Person = { userId: `leader.${id.toLowerCase()}@eln.local`, password: 'leader-password-1234', name: `Seo Leader ${id}` };
    const member: Person = { userId: `member.${id.toLowerCase()}@eln.local`, password: 'member-password-1234', name: `Han Member ${id}` };
    const title = `Catalyst ${id}`;

    // --- The administrator: a department, then two users in it.
    await signIn(page, E2E.admin);
    await page.getByTestId('nav-admin').click();
    await page.getByTestId('nav-admin-department').click();
    await expect(page).toHaveURL(/\/admin\/department$/);
    await expect(page.getByTestId('dept-tree').or(page.getByTestId('dept-empty'))).toBeVisible();
    await page.getByTestId('dept-add').first().click();
    await page.getByTestId('dept-save').click();
    await expect(page.getByTestId('dept-code-input-error')).toHaveText('This field is required.');
    expect(await seriousViolations(page, 'department dialog with a refusal')).toEqual([]);
    await page.getByTestId('dept-code-input').fill(department.code);
    await page.getByTestId('dept-name-input').fill(department.name);
    await page.getByTestId('dept-save').click();
    await expect(page.getByTestId('dept-notice')).toContainText(department.name);
    await expect(page.getByTestId(`dept-node-${department.code}`)).toContainText(department.name);

    await page.goto('/admin');
    await expect(page.getByTestId('user-row').first()).toBeVisible();
    // The create form checks with the shared schema before sending.
    await page.getByTestId('user-create-button').click();
    await page.getByTestId('user-id-input').fill('not-an-email');
    await page.getByTestId('user-password-input').fill('short');
    await page.getByTestId('user-create-submit').click();
    await expect(page.getByTestId('user-id-input-error')).toHaveText('Enter an email address such as name@company.com.');
    await expect(page.getByTestId('user-name-input-error')).toHaveText('This field is required.');
    await expect(page.getByTestId('user-password-input-error')).toHaveText('Use at least 12 characters.');
    await page.getByTestId('user-create-cancel').click();

    await createUserThroughDialog(page, leader, {
      departmentCode: department.code,
      employeeNo: `L-${id}`,
      phone: '010-1234-5678',
      projectFlag: true,
    });
    await createUserThroughDialog(page, member, {
      departmentCode: department.code,
      employeeNo: `M-${id}`,
      phone: '02-123-4567',
      projectFlag: false,
    });

    // Search by department: the URL holds the search.
    await page.getByTestId('user-search-type').selectOption('department');
    await page.getByTestId('user-search-word').fill(department.code);
    await page.getByTestId('user-search-submit').click();
    await expect(page).toHaveURL(new RegExp(`/admin\\?t=department&w=${department.code}$`));
    await expect(page.getByTestId('user-row')).toHaveCount(2);
    await expect(page.getByTestId('user-total')).toHaveAttribute('data-count', '2');
    const leaderRow = page.locator(`[data-testid="user-row"][data-user-id="${leader.userId}"]`);
    await expect(leaderRow.getByTestId('user-flags')).toHaveAttribute('data-flags', 'P');
    await expect(page.locator(`[data-testid="user-row"][data-user-id="${member.userId}"]`).getByTestId('user-flags')).toHaveAttribute(
      'data-flags',
      '',
    );
    await shot(page, 'admin-users-s-en');

    // Edit the participant: a wrong phone is refused beside the field, a right one saved.
    await page.locator(`[data-testid="user-row"][data-user-id="${member.userId}"]`).click();
    await expect(page).toHaveURL(/\/admin\/\d+$/);
    await expect(page.getByTestId('user-detail-name')).toContainText(member.name);
    await expect(page.getByTestId('user-department-select')).toHaveValue(department.code);
    await page.getByTestId('user-phone-input').fill('12345');
    await page.getByTestId('user-save').click();
    await expect(page.getByTestId('user-phone-input-error')).toHaveText('Enter a phone number such as 010-1234-5678.');
    await page.getByTestId('user-phone-input').fill('010-9876-5432');
    await page.getByTestId('user-flag-template').check();
    await page.getByTestId('user-save').click();
    await expect(page.getByTestId('user-saved-notice')).toBeVisible();
    await expect(page.getByTestId('user-phone-input')).toHaveValue('010-9876-5432');
    await shot(page, 'admin-user-edit-s-en');
    // Back returns to the searched list.
    await page.getByTestId('user-back').click();
    await expect(page).toHaveURL(new RegExp(`/admin\\?t=department&w=${department.code}$`));

    // An administrator cannot deactivate themselves: the server's refusal shows beside the access fields.
    await page.getByTestId('user-search-type').selectOption('userId');
    await page.getByTestId('user-search-word').fill(E2E.admin.userId);
    await page.getByTestId('user-search-submit').click();
    await page.locator(`[data-testid="user-row"][data-user-id="${E2E.admin.userId}"]`).click();
    await expect(page.getByTestId('user-detail-name')).toContainText(E2E.admin.name);
    await page.getByTestId('user-active').uncheck();
    await page.getByTestId('user-save').click();
    await expect(page.getByTestId('user-self-refusal')).toHaveText(
      'You cannot remove your own administrator rights or deactivate yourself.',
    );
    await page.screenshot({ path: 'tests/e2e/screenshots/admin-user-self-refusal-s-en.png' });
    await signOut(page);

    // --- The leader creates a project with the member as participant.
    await signIn(page, leader);
    await page.getByTestId('nav-project').click();
    await expect(page.getByTestId('project-empty')).toBeVisible();
    await shot(page, 'project-list-empty-s-en');
    await page.getByTestId('project-empty-create').click();
    await expect(page).toHaveURL(/\/project\/create$/);
    await page.getByTestId('project-title-input').fill(title);
    await page.getByTestId('project-description-input').fill('Screening of palladium catalysts for the coupling step.');
    await page.getByTestId('project-save').click();
    await expect(page.getByTestId('picker-error')).toHaveText('Choose at least one person.');
    await shot(page, 'project-create-invalid-s-en');

    await page.getByTestId('picker-search').fill(member.name.split(' ')[1] ?? member.name);
    await page.getByTestId(`picker-user-${member.userId}`).check();
    const chip = page.getByTestId(`picker-chip-${member.userId}`);
    await expect(chip).toContainText(member.name);
    await expect(chip).toContainText(department.name);
    await expect(page.getByTestId('picker-error')).toHaveCount(0);
    await page.getByTestId('picker-search').fill('');
    await expect(page.getByTestId(`picker-dept-${department.code}`)).toBeVisible();
    await shot(page, 'project-create-s-en');
    await page.getByTestId('project-save').click();
    await expect(page).toHaveURL(/\/project\/\d+$/);
    await expect(page.getByTestId('project-saved-notice')).toBeVisible();
    await expect(page.getByTestId(`project-participant-${member.userId}`)).toContainText(member.name);

    // The same title again is refused beside the title field.
    await page.goto('/project/create');
    await page.getByTestId('project-title-input').fill(title);
    await page.getByTestId('picker-search').fill(member.userId);
    await page.getByTestId(`picker-user-${member.userId}`).check();
    await page.getByTestId('project-save').click();
    await expect(page.getByTestId('project-title-input-error')).toHaveText('A project with this name already exists.');

    // Find it on the list: the search goes into the URL.
    await page.goto('/project');
    await page.getByTestId('project-search-type').selectOption('title');
    await page.getByTestId('project-search-word').fill(id);
    await page.getByTestId('project-search-submit').click();
    await expect(page).toHaveURL(new RegExp(`/project\\?w=${id}$`));
    await expect(page.getByTestId('project-row')).toHaveCount(1);
    await expect(page.getByTestId('project-total')).toHaveAttribute('data-count', '1');
    await expect(page.getByTestId('project-row')).toContainText(leader.name);
    await expect(page.getByTestId('project-row')).toContainText(department.name);
    await shot(page, 'project-list-s-en');

    // Open it and add the whole department (the leader too) to the participants.
    await page.getByTestId('project-title-link').click();
    await expect(page.getByTestId('project-detail-title')).toHaveText(title);
    await page.getByTestId('project-edit').click();
    await expect(page.getByTestId(`picker-chip-${member.userId}`)).toContainText(member.name);
    await page.getByTestId(`picker-dept-${department.code}`).check();
    await expect(page.getByTestId(`picker-dept-chip-${department.code}`)).toContainText(department.name);
    await expect(page.getByTestId(`picker-chip-${leader.userId}`)).toContainText(leader.name);
    await expect(page.getByTestId('picker-count')).toHaveText('2 people');
    await page.getByTestId('project-save').click();
    await expect(page.getByTestId('project-saved-notice')).toHaveText('The project has been saved.');
    await expect(page.getByTestId(`project-participant-${leader.userId}`)).toContainText(department.name);
    await expect(page.getByTestId(`project-participant-${member.userId}`)).toBeVisible();
    await expect(page.getByTestId(`project-dept-${department.code}`)).toBeVisible();
    await shot(page, 'project-detail-s-en');
    await signOut(page);

    // --- The participant sees the project, read-only.
    await signIn(page, member);
    await page.goto('/project');
    const row = page.getByTestId('project-row').filter({ hasText: title });
    await expect(row).toHaveCount(1);
    await row.getByTestId('project-title-link').click();
    await expect(page.getByTestId('project-readonly-notice')).toBeVisible();
    await expect(page.getByTestId('project-edit')).toHaveCount(0);
    // Without the project flag, creating is not offered.
    await page.goto('/project/create');
    await expect(page.getByTestId('project-create-forbidden')).toBeVisible();
  });

  test('the project list keeps its search in the URL: paging, back and forward, a new search starts at page 1', async ({
    page,
    request,
  }) => {
    const id = unique();
    const token = await apiSignIn(request, E2E.member);
    for (let n = 1; n <= 12; n++) {
      await callApi(request, token, api.projects.create, {
        title: `Paging ${id} ${String(n).padStart(2, '0')}`,
        description: `Run ${n}`,
        signatureList: { department: '', user: E2E.member.userId },
      });
    }

    await signIn(page, E2E.member);
    await page.goto(`/project?w=Paging%20${id}`);
    await expect(page.getByTestId('project-total')).toHaveAttribute('data-count', '12');
    await expect(page.getByTestId('project-row')).toHaveCount(10);
    await expect(page.getByTestId('project-row').first().locator('td').first()).toHaveText('12');

    await page.getByTestId('project-pagination-page-2').click();
    await expect(page).toHaveURL(new RegExp(`w=Paging\\+${id}&p=2$`));
    await expect(page.getByTestId('project-row')).toHaveCount(2);
    await expect(page.getByTestId('project-row').locator('td.col-num')).toHaveText(['2', '1']);

    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`w=Paging(%20|\\+)${id}$`));
    await expect(page.getByTestId('project-row')).toHaveCount(10);
    await page.goForward();
    await expect(page).toHaveURL(/p=2$/);
    await expect(page.getByTestId('project-row')).toHaveCount(2);
    await expect(page.getByTestId('project-search-word')).toHaveValue(`Paging ${id}`);

    // A new search from page 2 starts again at page 1.
    await page.getByTestId('project-search-word').fill(`Paging ${id} 1`);
    await page.getByTestId('project-search-submit').click();
    await expect(page).toHaveURL(new RegExp(`w=Paging\\+${id}\\+1$`));
    await expect(page.getByTestId('project-row')).toHaveCount(3);

    // Dates in the wrong order are refused beside the dates; a range after today finds nothing.
    await fillDate(page.getByTestId('project-search-start'), '2099-02-01');
    await fillDate(page.getByTestId('project-search-end'), '2099-01-01');
    await page.getByTestId('project-search-submit').click();
    await expect(page.getByTestId('project-search-date-error')).toHaveText('The start date must not be after the end date.');
    await fillDate(page.getByTestId('project-search-end'), '2099-03-01');
    await page.getByTestId('project-search-submit').click();
    await expect(page).toHaveURL(/sd=2099-02-01&ed=2099-03-01/);
    await expect(page.getByTestId('project-clear-search')).toBeVisible();
    await page.getByTestId('project-search-reset').click();
    await expect(page).toHaveURL(/\/project$/);
    await expect(page.getByTestId('project-row').first()).toBeVisible();

    // A project that is not yours, or does not exist, is simply not found.
    await page.goto('/project/999999');
    await expect(page.getByTestId('project-not-found')).toBeVisible();
  });

  test('the screens in the beauty theme, in Korean and Japanese, and on a phone', async ({ page, request }) => {
    // Two languages' worth of screens and screenshots: over two minutes on a slow machine, past the default.
    test.setTimeout(hangTimeout(240_000));
    const id = unique();
    const adminToken = await apiSignIn(request, E2E.admin);
    const research = { code: `RND-${id}`, name: `연구소 ${id}` };
    const chemistry = { code: `CHEM-${id}`, name: `화학팀 ${id}` };
    const biology = { code: `BIO-${id}`, name: `생물팀 ${id}` };
    await callApi(request, adminToken, api.departments.create, research);
    await callApi(request, adminToken, api.departments.create, { ...chemistry, parentCode: research.code });
    await callApi(request, adminToken, api.departments.create, { ...biology, parentCode: research.code });
    const people = [
      // Names of this run only: a retry (or a rerun on the same database) searches for them and must find one.
      { userId: `kim.${id.toLowerCase()}@eln.local`, name: `김민준 ${id}`, departmentCode: chemistry.code, project: 'Y' as const },
      { userId: `lee.${id.toLowerCase()}@eln.local`, name: `이서연 ${id}`, departmentCode: chemistry.code, project: 'N' as const },
      { userId: `park.${id.toLowerCase()}@eln.local`, name: `박지호 ${id}`, departmentCode: biology.code, project: 'N' as const },
    ];
    const userNos: number[] = [];
    for (const [index, person] of people.entries()) {
      const created = await callApi(request, adminToken, api.users.create, {
        userId: person.userId,
        name: person.name,
        password: 'person-password-1234',
        employeeNo: `E${id}${index}`,
        phone: `010-555-000${index}`,
        departmentCode: person.departmentCode,
        level: index === 0 ? 5 : 1,
        auth: { project: person.project, schema: 'Y', dropbox: index === 2 ? 'Y' : 'N', template: 'N' },
      });
      userNos.push(created.userNo);
    }
    const leaderToken = await apiSignIn(request, { userId: people[0]!.userId, password: 'person-password-1234' });
    const project = await callApi(request, leaderToken, api.projects.create, {
      title: `촉매 스크리닝 ${id}`,
      description: '커플링 단계의 팔라듐 촉매를 비교합니다.',
      signatureList: { department: chemistry.code, user: [people[0]!.userId, people[1]!.userId, people[2]!.userId].join(',') },
    });

    await page.addInitScript(() => {
      localStorage.setItem('eln.theme', 'b');
      if (!localStorage.getItem('eln.language')) localStorage.setItem('eln.language', 'ko');
    });
    await signIn(page, E2E.admin);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'b');

    for (const language of ['ko', 'ja'] as const) {
      await page.evaluate((lang) => localStorage.setItem('eln.language', lang), language);
      await page.goto(`/project?w=${encodeURIComponent(id)}`);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.getByTestId('project-row')).toHaveCount(1);
      await shot(page, `project-list-b-${language}`);

      await page.getByTestId('project-title-link').click();
      await expect(page).toHaveURL(new RegExp(`/project/${project.projectNo}$`));
      await expect(page.getByTestId(`project-participant-${people[2]!.userId}`)).toBeVisible();
      await shot(page, `project-detail-b-${language}`);

      await page.getByTestId('project-edit').click();
      await expect(page.getByTestId(`picker-dept-${research.code}`)).toBeVisible();
      await page.getByTestId(`picker-dept-toggle-${chemistry.code}`).click();
      await expect(page.getByTestId(`picker-user-${people[1]!.userId}`)).toBeChecked();
      await expect(page.getByTestId(`picker-dept-${chemistry.code}`)).toBeChecked();
      await expect(page.getByTestId(`picker-dept-${research.code}`)).not.toBeChecked();
      await shot(page, `project-edit-b-${language}`);

      await page.goto(`/admin?w=${encodeURIComponent(people[0]!.name)}`);
      await expect(page.getByTestId('user-row')).toHaveCount(1);
      await page.goto('/admin');
      await expect(page.getByTestId('user-row').first()).toBeVisible();
      await shot(page, `admin-users-b-${language}`);

      await page.goto(`/admin/${userNos[0]}`);
      await expect(page.getByTestId('user-detail-name')).toContainText(people[0]!.name);
      await page.getByTestId('user-set-password').check();
      await shot(page, `admin-user-edit-b-${language}`);

      await page.goto('/admin/department');
      await expect(page.getByTestId(`dept-node-${chemistry.code}`)).toHaveAttribute('data-depth', '1');
      await shot(page, `admin-department-b-${language}`);
    }

    // The move dialog offers neither the department itself nor its sub-departments as the new parent.
    await page.getByTestId(`dept-move-${research.code}`).click();
    await expect(page.getByTestId('dept-parent-select').locator(`option[value="${chemistry.code}"]`)).toBeDisabled();
    await page.getByTestId('dept-parent-select').selectOption('');
    await shot(page, 'admin-department-move-b-ja');
    await page.getByTestId('dept-cancel').click();

    // Standard theme, English, on a phone.
    await page.evaluate(() => {
      localStorage.setItem('eln.language', 'en');
    });
    await page.addInitScript(() => localStorage.setItem('eln.theme', 's'));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/project?w=${encodeURIComponent(id)}`);
    await expect(page.getByTestId('project-row')).toHaveCount(1);
    await shot(page, 'project-list-s-en-phone');
    await page.goto('/project/create');
    await page.getByTestId('project-title-input').fill('Phone layout check');
    await page.getByTestId(`picker-dept-${research.code}`).check();
    await shot(page, 'project-create-s-en-phone');
    await page.goto('/admin/department');
    await expect(page.getByTestId(`dept-node-${research.code}`)).toBeVisible();
    await shot(page, 'admin-department-s-en-phone');
  });
});

test('a list whose first load fails with a server error shows the error page; trying again opens the list', async ({ page }) => {
  await signIn(page, E2E.member);
  let failing = true;
  await page.route(`**/server${api.projects.list.path}`, (route) =>
    failing
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ status: '9999', message: 'An unexpected error occurred.', data: null }),
        })
      : route.continue(),
  );
  await page.goto('/project?t=title&w=Catalyst');
  await expect(page.getByTestId('page-error')).toBeVisible();
  await expect(page).toHaveURL(/\/error$/);
  failing = false;
  await page.getByTestId('error-retry').click();
  await expect(page).toHaveURL(/\/project\?t=title&w=Catalyst$/);
  await expect(page.getByTestId('page-project')).toBeVisible();
});

test('a project whose first load fails with a server error shows the error page; trying again opens it', async ({ page, request }) => {
  const token = await apiSignIn(request, E2E.member);
  const title = `Retry ${unique()}`.slice(0, 25);
  const { projectNo } = await callApi(request, token, api.projects.create, {
    title,
    signatureList: { department: '', user: E2E.member.userId },
  });
  await signIn(page, E2E.member);
  let failing = true;
  await page.route(`**/server${api.projects.detail.path}`, (route) =>
    failing
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ status: '3005', message: 'Participants could not be loaded.', data: null }),
        })
      : route.continue(),
  );
  await page.goto(`/project/${projectNo}`);
  await expect(page.getByTestId('page-error')).toBeVisible();
  await expect(page).toHaveURL(/\/error$/);
  failing = false;
  await page.getByTestId('error-retry').click();
  await expect(page).toHaveURL(new RegExp(`/project/${projectNo}$`));
  await expect(page.getByTestId('project-detail-title')).toContainText(title);
});
