import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { api, type AuthFlags, type CallAnswer, type CallInput, type CallSpec } from '@eln/shared';

/** What the browser tests share: signing in, calling the API, screenshots, names unique to a run. */

export interface Credentials {
  userId: string;
  password: string;
}

export interface Person extends Credentials {
  name: string;
}

/**
 * A screenshot from the top (so the sticky header sits where a reader sees it): the full page, or for a
 * dialog, which floats over the viewport, the viewport. Transitions run to their end first.
 */
export async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `tests/e2e/screenshots/${name}.png`, fullPage, animations: 'disabled' });
}

/**
 * Types an ISO day (YYYY-MM-DD) into one of the app's date fields (React Aria's, segments in the interface
 * language's order) as a person would: each of its year, month and day segments focused and typed; '' clears
 * them. The field's `data-value` then holds the day.
 */
export async function fillDate(field: Locator, iso: string): Promise<void> {
  const [year = '', month = '', day = ''] = iso ? iso.split('-') : [];
  for (const [type, value] of [
    ['year', year],
    ['month', month],
    ['day', day],
  ] as const) {
    const segment = field.locator(`[data-type="${type}"]`);
    await segment.focus();
    if (value) await segment.pressSequentially(value);
    else await segment.press('Backspace');
  }
  await expect(field).toHaveAttribute('data-value', iso);
}

let counter = 0;
/** A short upper-case suffix unique to this run, for titles and IDs that must not collide. */
export const unique = () => `${Date.now().toString(36).slice(-4)}${(counter++).toString(36)}`.toUpperCase();

export async function signIn(page: Page, who: Credentials): Promise<void> {
  await page.goto('/signin');
  await page.getByTestId('signin-userId').fill(who.userId);
  await page.getByTestId('signin-password').fill(who.password);
  await page.getByTestId('signin-submit').click();
  await expect(page.getByTestId('dashboard')).toBeVisible();
}

/**
 * Records the access tokens the page sends (they live in the tab's memory, out of a test's reach
 * otherwise); `last()` is the newest, '' before the first call.
 */
export function sentAccessTokens(page: Page): { last: () => string; all: () => string[] } {
  const tokens: string[] = [];
  page.on('request', (request) => {
    const header = request.headers().authorization;
    if (header?.startsWith('Bearer ') && tokens.at(-1) !== header.slice(7)) tokens.push(header.slice(7));
  });
  return { last: () => tokens.at(-1) ?? '', all: () => [...tokens] };
}

/** Makes a call of the route table and expects success; answers `data`. */
export async function callApi<C extends CallSpec>(
  request: APIRequestContext,
  token: string | null,
  spec: C,
  body: CallInput<C>,
): Promise<CallAnswer<C>> {
  const response = await request.post(`/server${spec.path}`, {
    data: body,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const envelope = (await response.json()) as { status: string; message: string; data: CallAnswer<C> };
  expect(envelope.status, `${spec.path}: ${envelope.message}`).toBe('0000');
  return envelope.data;
}

export async function apiSignIn(request: APIRequestContext, who: Credentials): Promise<string> {
  return (await callApi(request, null, api.auth.signIn, { userId: who.userId, password: who.password })).accessToken;
}

/**
 * Forgets the display choices (language, theme, time zone) a person made while signed in, which the server
 * keeps and every later sign-in applies (My account): a test that switches them in the header leaves the
 * person as it found them, so that the next test's `openAs` language and theme hold.
 */
export async function forgetDisplayChoices(request: APIRequestContext, who: Credentials): Promise<void> {
  await callApi(request, await apiSignIn(request, who), api.account.updateSettings, { language: null, theme: null, timeZone: null });
}

/**
 * A member made through the administrators' API, named for the run (`id`): `<role>.<id>@eln.local`, the
 * password `<role>-password-1234`, the name `<name> <id>`, with the flags given (the others off).
 */
export async function createPerson(
  request: APIRequestContext,
  adminToken: string,
  id: string,
  role: string,
  name: string,
  flags: Partial<AuthFlags> = {},
): Promise<Person> {
  const who = { userId: `${role}.${id.toLowerCase()}@eln.local`, password: `${role}-password-1234`, name: `${name} ${id}` };
  await callApi(request, adminToken, api.users.create, {
    ...who,
    level: 1,
    auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N', ...flags },
  });
  return who;
}

export interface BrowserOptions {
  theme?: 's' | 'b';
  language?: 'en' | 'ko' | 'ja';
  timezoneId?: string;
  /** Another server than the shared one (a test that starts its own). */
  baseURL?: string;
}

/** A browser of its own for one person, signed in. */
export async function openAs(
  browser: Browser,
  who: Credentials,
  { theme = 's', language = 'en', timezoneId = 'Asia/Seoul', baseURL }: BrowserOptions = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1360, height: 900 },
    timezoneId,
    acceptDownloads: true,
    ...(baseURL ? { baseURL } : {}),
  });
  await context.addInitScript(
    ([themeValue, languageValue]) => {
      // Only the first time: a test may switch later, and a reload keeps the switch.
      if (!window.localStorage.getItem('eln.theme')) window.localStorage.setItem('eln.theme', themeValue);
      if (!window.localStorage.getItem('eln.language')) window.localStorage.setItem('eln.language', languageValue);
    },
    [theme, language] as const,
  );
  const page = await context.newPage();
  await signIn(page, who);
  return page;
}

export type Language = 'en' | 'ko' | 'ja';
export type Theme = 's' | 'b';

/** A language and theme a screen is shown in; `name` is `<theme>-<language>`, as screenshots are named. */
export interface Display {
  language: Language;
  theme: Theme;
  name: `${Theme}-${Language}`;
}

/**
 * The six language × theme combinations, in the order `eachDisplay` walks them: one page load per language,
 * one theme switch between.
 */
export const ALL_DISPLAYS: ReadonlyArray<readonly [Language, Theme]> = [
  ['en', 's'],
  ['en', 'b'],
  ['ko', 'b'],
  ['ko', 's'],
  ['ja', 's'],
  ['ja', 'b'],
];

/**
 * Shows an open, signed-in page in `language` and `theme` as the app itself switches them, without a new
 * sign-in: the theme in place (the choice written where the app keeps it, and the app told as another tab's
 * switch tells it), a language by loading the page again (the header's language switch reloads too).
 * Nothing is saved on the server, as the header's switches would for the person. Answers whether the page
 * was loaded again (what was open on it, a dialog say, is then closed).
 */
export async function showIn(page: Page, language: Language, theme: Theme): Promise<boolean> {
  const reload = await page.evaluate(
    ([languageValue, themeValue]) => {
      const html = document.documentElement;
      const languageChanges = html.lang !== languageValue;
      window.localStorage.setItem('eln.language', languageValue);
      if (window.localStorage.getItem('eln.theme') !== themeValue || html.dataset.theme !== themeValue) {
        window.localStorage.setItem('eln.theme', themeValue);
        window.dispatchEvent(new StorageEvent('storage', { key: 'eln.theme', newValue: themeValue, storageArea: window.localStorage }));
      }
      // A page that shows no theme switch does not listen: it takes the theme on its next load.
      return languageChanges || html.dataset.theme !== themeValue;
    },
    [language, theme] as const,
  );
  if (reload) {
    // The page shows the signed-in screen from what it stored before its session is back (the refresh
    // call): leaving it earlier would send the refresh cookie the server has just replaced, which the
    // server takes for a stolen one and ends the session.
    const refreshed = page.waitForResponse((response) => response.url().endsWith(`/server${api.auth.refresh.path}`));
    await page.reload();
    await refreshed;
  }
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  return reload;
}

/** The visits where axe runs: one per theme, in different languages where the walk allows. */
function axeVisits(displays: ReadonlyArray<readonly [Language, Theme]>): Set<number> {
  const chosen = new Set<number>();
  const usedLanguages = new Set<Language>();
  for (const theme of new Set(displays.map(([, t]) => t))) {
    const ofTheme = [...displays.entries()].filter(([, [, t]]) => t === theme);
    const [index, [language]] = ofTheme.find(([, [l]]) => !usedLanguages.has(l)) ?? ofTheme[0]!;
    chosen.add(index);
    usedLanguages.add(language);
  }
  return chosen;
}

export interface DisplayWalk {
  /** The combinations to show, [language, theme] (ALL_DISPLAYS when not given); best grouped by language. */
  displays?: ReadonlyArray<readonly [Language, Theme]>;
  /** Brings the page to what is to be shown (a dialog open, say): before the first visit and after every page load. */
  open?: (display: Display) => Promise<void>;
  /** The checks in one display, before its screenshot. */
  visit: (display: Display) => Promise<void>;
  /** After the screenshot and axe: closes what `visit` opened, say. */
  after?: (display: Display) => Promise<void>;
  /** The screenshot taken after each visit, named `<shot>-<theme>-<language>`. */
  shot?: string;
  /** The screenshot is of the viewport (a dialog, an open list) rather than the full page. */
  fullPage?: boolean;
  /** axe runs once per theme (`where` names the screen in its findings), only inside `within` when given. */
  axe?: { where: string; within?: string };
}

/**
 * Walks language × theme combinations on ONE signed-in page (a new browser context and sign-in for each
 * would cost seconds apiece): `showIn` switches, `open` prepares after each load, `visit` checks, then the
 * screenshot; axe, if asked, once per theme; then `after`. Every violation found is reported at the end, after the
 * screenshots.
 */
export async function eachDisplay(
  page: Page,
  { displays = ALL_DISPLAYS, open, visit, after, shot: name, fullPage = true, axe }: DisplayWalk,
): Promise<void> {
  const axeAt = axeVisits(displays);
  const found: string[] = [];
  for (const [index, [language, theme]] of displays.entries()) {
    const display: Display = { language, theme, name: `${theme}-${language}` };
    const loaded = await showIn(page, language, theme);
    if (open && (loaded || index === 0)) await open(display);
    await visit(display);
    if (name) await shot(page, `${name}-${display.name}`, fullPage);
    if (axe && axeAt.has(index)) found.push(...(await seriousViolations(page, `${axe.where} ${display.name}`, axe.within)));
    if (after) await after(display);
  }
  expect(found).toEqual([]);
}

/** The editor's editable area. */
export const prose = (page: Page) => page.getByTestId('editor-content').locator('.ProseMirror');

/**
 * Waits until the editor has taken in where the browser put the caret. ProseMirror reads a caret placed
 * by a click or a browser key (Ctrl+End) on the browser's next selectionchange event; a key it handles
 * itself (Enter, Backspace) pressed before then acts on the earlier caret (on a busy machine, Enter once
 * split the document's first line instead of adding a line at its end).
 */
export async function caretTakenIn(page: Page): Promise<void> {
  await expect
    .poll(() =>
      prose(page).evaluate((dom) => {
        // Tiptap hangs the editor on its element; the view answers where a DOM position is in the document.
        const view = (
          dom as HTMLElement & {
            editor?: { view: { posAtDOM(node: Node, offset: number): number; state: { selection: { head: number } } } };
          }
        ).editor?.view;
        const selection = document.getSelection();
        if (!view || !selection?.focusNode || !dom.contains(selection.focusNode)) return 'no caret in the editor';
        const shown = view.posAtDOM(selection.focusNode, selection.focusOffset);
        return shown === view.state.selection.head ? 'taken in' : `caret at ${shown}, editor at ${view.state.selection.head}`;
      }),
    )
    .toBe('taken in');
}

/**
 * Routes the page's live connection through the test, which can then cut it as a lost network would
 * (and keep it cut until `online()`); the browser is told it is offline too.
 */
export async function cuttableNetwork(page: Page): Promise<{ offline: () => Promise<void>; online: () => Promise<void> }> {
  let up = true;
  const open: Array<() => Promise<void>> = [];
  await page.routeWebSocket(/\/collab$/, (socket) => {
    if (!up) {
      void socket.close({ code: 1006, reason: 'offline' });
      return;
    }
    const upstream = socket.connectToServer();
    open.push(async () => {
      await upstream.close();
      await socket.close({ code: 1006, reason: 'offline' });
    });
  });
  return {
    async offline() {
      up = false;
      await page.context().setOffline(true);
      for (const close of open.splice(0)) await close();
    },
    async online() {
      up = true;
      await page.context().setOffline(false);
    },
  };
}

/** The WCAG levels axe checks: 2.0-2.2, A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * A calendar's day (React Aria): named by its whole date ("2020년 1월 1일 수요일") and showing its number,
 * which axe's label-in-name check (WCAG 2.5.3) does not find as a word inside the Korean "1일" although
 * the name does hold it. Only that check skips these cells.
 */
const isCalendarDay = (html: string) => html.includes('date-calendar-cell');

/**
 * axe-core's critical and serious violations on the page as it is now (a dialog open, say), one readable
 * line each, named by `where`; only those inside `within` (a CSS selector) when given. axe is injected by
 * Playwright, so the app's CSP stays as production serves it.
 */
export async function seriousViolations(page: Page, where: string, within?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  const result = await (within ? builder.include(within) : builder).analyze();
  return result.violations
    .map((v) => (v.id === 'label-content-name-mismatch' ? { ...v, nodes: v.nodes.filter((n) => !isCalendarDay(n.html)) } : v))
    .filter((v) => v.nodes.length > 0)
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map(
      (v) =>
        `${where}: ${v.impact} ${v.id} on ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 5)
          .join(', ')} (${v.nodes[0]?.failureSummary?.split('\n')[1]?.trim() ?? v.help})`,
    );
}
