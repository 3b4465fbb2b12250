import { api } from '@eln/shared';
import { expect, test } from './test.js';
import { E2E, hangTimeout } from './fixtures.js';
import { apiSignIn, callApi, eachDisplay, fillDate, openAs, prose, shot, unique } from './support.js';

/**
 * Date fields follow the interface language, not the browser's (issue 45, item 8): the browser here runs in
 * American English, where a native date input shows mm/dd/yyyy whatever the app's language. The app's
 * field (React Aria) orders and words its segments and its calendar in the app's language.
 */

const EXPECTED = {
  en: { order: ['month', 'day', 'year'], empty: 'mm/dd/yyyy', typed: '01/15/2020', month: 'January 2020', weekday: 'S' },
  ko: { order: ['year', 'month', 'day'], empty: '연도. 월. 일.', typed: '2020. 01. 15.', month: '2020년 1월', weekday: '일' },
  ja: { order: ['year', 'month', 'day'], empty: '年/月/日', typed: '2020/01/15', month: '2020年1月', weekday: '日' },
} as const;

test(`the date field and its calendar follow the app's language in en, ko and ja, in both themes`, async ({ browser }) => {
  test.setTimeout(hangTimeout(120_000));
  const page = await openAs(browser, E2E.admin);
  const start = page.getByTestId('audit-filter-start');
  const calendar = page.locator('.date-calendar');
  await page.goto('/admin/audit');
  await eachDisplay(page, {
    visit: async ({ language }) => {
      const expected = EXPECTED[language];
      await expect(start).toBeVisible();
      const order = await start
        .locator('[data-type]:not([data-type="literal"])')
        .evaluateAll((segments) => segments.map((segment) => (segment as HTMLElement).dataset.type));
      expect(order).toEqual(expected.order);
      // Empty, its segments say what goes where, in the language (not the browser's mm/dd/yyyy in ko and ja).
      await expect(start.locator('.date-field-input')).toHaveText(expected.empty);

      await fillDate(start, '2020-01-15');
      await expect(start.locator('.date-field-input')).toHaveText(expected.typed);

      // The calendar opens on the typed month, named in the language, and a day picked in it is the value (after).
      await page.getByTestId('audit-filter-start-calendar').click();
      await expect(calendar.locator('.date-calendar-title')).toHaveText(expected.month);
      await expect(calendar.locator('th').first()).toHaveText(expected.weekday);
    },
    shot: 'date-field-calendar',
    fullPage: false,
    axe: { where: 'calendar' },
    // A day picked in the calendar is the value; the field is emptied for the next language or theme.
    after: async () => {
      await calendar.locator('.date-calendar-cell:not([data-outside-month])', { hasText: /^20$/ }).click();
      await expect(calendar).toHaveCount(0);
      await expect(start).toHaveAttribute('data-value', '2020-01-20');
      for (const segment of await start.locator('[data-type]:not([data-type="literal"])').all()) {
        await segment.focus();
        for (let digit = 0; digit < 4; digit += 1) await segment.press('Backspace');
      }
      await expect(start).toHaveAttribute('data-value', '');
    },
  });
  await page.context().close();
});

test('a note’s date block changes its day in a calendar in the app’s language (ko, ja)', async ({ browser, request }) => {
  test.setTimeout(hangTimeout(90_000));
  const token = await apiSignIn(request, E2E.member);
  const { projectNo } = await callApi(request, token, api.projects.create, {
    title: `Dates ${unique()}`,
    signatureList: { department: '', user: E2E.member.userId },
  });
  const titles = { ko: /^\d{4}년 \d{1,2}월$/, ja: /^\d{4}年\d{1,2}月$/ } as const;
  const page = await openAs(browser, E2E.member, { language: 'ko', theme: 'b' });
  const calendar = page.locator('.date-calendar');
  await eachDisplay(page, {
    displays: [
      ['ko', 'b'],
      ['ja', 's'],
    ],
    visit: async ({ language, name }) => {
      if (language === 'en') throw new Error('ko and ja only');
      const { labNoteNo } = await callApi(request, token, api.notes.create, { projectNo, title: `Date ${language}` });
      await page.goto(`/note/${labNoteNo}`);
      await expect(prose(page)).toHaveAttribute('contenteditable', 'true');
      await prose(page).click();
      await page.getByTestId('toolbar-date').click();
      const block = prose(page).getByTestId('date-block');
      await expect(block).toHaveCount(1);
      await block.getByTestId('date-change').click();
      await expect(calendar.locator('.date-calendar-title')).toHaveText(titles[language]);
      await shot(page, `date-block-calendar-${name}`, false);
      // The first day of the month shown: the block keeps it as YYYY-MM-DD and shows it in the language.
      await calendar.locator('.date-calendar-cell:not([data-outside-month])', { hasText: /^1$/ }).click();
      await expect(calendar).toHaveCount(0);
      await expect(block.getByTestId('date-value')).toHaveAttribute('datetime', /^\d{4}-\d{2}-01$/);
      await expect(block.getByTestId('date-value')).toContainText(language === 'ko' ? '1일' : '1日');
    },
  });
  await page.context().close();
});
