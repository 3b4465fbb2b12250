import { api } from '@eln/shared';
import { expect, test } from './test.js';
import type { Page } from '@playwright/test';
import { startTestServer, type NewUser, type TestServer } from '../../server/src/testing/harness.js';
import { cuttableNetwork, openAs, prose, sentAccessTokens, shot, signIn } from './support.js';
import { hangTimeout } from './fixtures.js';

/**
 * Long sessions outlive access tokens. A server of its own issues tokens that live TOKEN_SECONDS (the
 * contract's are 15 minutes) and asks open live connections for their token every 2 s, so expiry
 * happens within the test: an open note must keep writing across several token lives, and edits made
 * offline until the token has expired must reach the server once the network returns, with no
 * session-ended prompt and nothing lost.
 */
const TOKEN_SECONDS = 12;
let server: TestServer;
let baseURL: string;

test.beforeAll(async () => {
  server = await startTestServer({ serveClient: true, accessTokenSeconds: TOKEN_SECONDS, sessionRecheckMs: 2_000 });
  baseURL = await server.listen();
});

test.afterAll(async () => {
  await server?.stop();
});

async function noteOf(writer: NewUser & { userNo: number }): Promise<number> {
  const call = await server.as(writer);
  const { projectNo } = (
    await call(api.projects.create, {
      title: `Long run ${writer.userNo}`,
      signatureList: { department: '', user: writer.userId },
    })
  ).body.data;
  return (await call(api.notes.create, { projectNo, title: 'Overnight kinetics' })).body.data.labNoteNo;
}

/** What the server has of the note now, read with a fresh session (not the browser's). */
async function storedText(writer: NewUser, labNoteNo: number): Promise<string> {
  const call = await server.as(writer);
  const answer = await call(api.notes.blockList, { labNoteNo });
  return answer.body.data.blockList.map((block) => block.content).join('\n');
}

/** Counts the browser's calls to the refresh endpoint. */
function countRefreshes(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.url().endsWith(`/server${api.auth.refresh.path}`)) count += 1;
  });
  return () => count;
}

test('an open note keeps writing across several token lives, with no prompt and nothing lost', async ({ browser }) => {
  test.setTimeout(hangTimeout(120_000));
  const writer = await server.createUser({ name: 'Night Owl' });
  const labNoteNo = await noteOf(writer);
  const page = await openAs(browser, writer, { baseURL });
  const refreshes = countRefreshes(page);
  const tokens = sentAccessTokens(page);
  await page.goto(`/note/${labNoteNo}`);
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
  const firstToken = tokens.last();
  expect(firstToken).not.toBe('');

  // A line every few seconds for about three token lives; each is confirmed stored by the server.
  await prose(page).click();
  const started = Date.now();
  let line = 0;
  while (Date.now() - started < TOKEN_SECONDS * 2.5 * 1000) {
    line += 1;
    await page.keyboard.type(`Reading ${line} at ${new Date().toISOString().slice(11, 19)}.`);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('save-state')).toHaveText('Saved');
    await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
    await page.waitForTimeout(4_000);
  }

  // The first token has really expired: the server refuses it now.
  const refused = await server.call(api.notes.blockList, { labNoteNo }, { token: firstToken });
  expect(refused.http).toBe(401);
  // The browser refreshed along the way, and the session never ended.
  expect(refreshes()).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('session-ended-modal')).toHaveCount(0);
  const stored = await storedText(writer, labNoteNo);
  for (let i = 1; i <= line; i += 1) expect(stored).toContain(`Reading ${i} at`);
  await shot(page, 'note-token-lives-s-en');
  await page.context().close();
});

test('edits made offline until the token expired reach the server when the network returns', async ({ browser }) => {
  test.setTimeout(hangTimeout(120_000));
  const writer = await server.createUser({ name: 'Field Worker' });
  const labNoteNo = await noteOf(writer);
  const page = await openAs(browser, writer, { baseURL, language: 'ko', theme: 'b' });
  const refreshes = countRefreshes(page);
  const network = await cuttableNetwork(page);
  await page.goto(`/note/${labNoteNo}`);
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');

  await network.offline();
  await prose(page).click();
  await page.keyboard.type('Written in the cold room, offline.');
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'offline');
  // Longer than a token's life: the token the page holds is dead when the network returns.
  await page.waitForTimeout((TOKEN_SECONDS + 3) * 1000);
  await expect(page.getByTestId('session-ended-modal')).toHaveCount(0);
  await shot(page, 'note-offline-token-expired-b-ko');

  await network.online();
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected', { timeout: 30_000 });
  await expect(page.getByTestId('save-state')).toHaveText('저장됨');
  // The temporary save owed since the network went runs now: no failure is left showing.
  await expect(page.getByTestId('draft-failed')).toHaveCount(0);
  await expect.poll(() => storedText(writer, labNoteNo)).toContain('Written in the cold room, offline.');
  expect(refreshes()).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('session-ended-modal')).toHaveCount(0);
  await page.context().close();
});

test('a tab whose clock stood still sends an expired token: the server closes the note, the tab refreshes and carries on', async ({
  browser,
}) => {
  test.setTimeout(hangTimeout(120_000));
  const writer = await server.createUser({ name: 'Sleepy Tab' });
  const labNoteNo = await noteOf(writer);
  const context = await browser.newContext({ baseURL, viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  // The page's clock and timers are the test's: stopping them is what a suspended laptop does to a tab.
  await page.clock.install();
  await signIn(page, writer);
  await page.goto(`/note/${labNoteNo}`);
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
  await prose(page).click();
  await page.keyboard.type('Before the pause.');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');

  // Time stands still in the tab while it passes for the server: the token dies without the tab
  // noticing, its proactive refresh never fires, and the server's next token check gets a dead token.
  const refreshes = countRefreshes(page);
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 2_000);
  await page.waitForTimeout((TOKEN_SECONDS + 4) * 1000);
  // The refusal closed the note's connection; the tab refreshed (nothing else could have, its timers
  // stood still) and authenticated again on the same socket.
  await expect.poll(refreshes, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  await page.clock.resume();
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
  await prose(page).press('Control+End');
  await page.keyboard.type(' After the pause.');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  await expect.poll(() => storedText(writer, labNoteNo)).toContain('Before the pause. After the pause.');
  await expect(page.getByTestId('session-ended-modal')).toHaveCount(0);
  await context.close();
});
