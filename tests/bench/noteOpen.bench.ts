import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { api, noteDocumentName, type CallAnswer, type CallInput, type CallSpec } from '@eln/shared';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { bootstrap } from '../../server/src/system/bootstrap.js';
import { appendParagraph, appendTable, connectWriter } from '../../server/src/testing/live.js';
import { freshPostgres, percentile, printTable } from './database.js';

/** Opens per note (after one uncounted open that fills the browser's cache with the editor's chunks). */
const OPENS = 24;
const CHROMIUM = '/usr/bin/chromium';
const dist = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../client/dist');
const PASSWORD = 'bench-researcher-password';

interface BenchNote {
  label: string;
  labNoteNo: number;
  /** Table rows the open editor must show before it counts as open (0: none). */
  rows: number;
  /** Text the open editor must show. */
  marker: string;
}

/**
 * In the page: clicks the note's link in the project's note list and resolves, in milliseconds, when the
 * editor is editable and shows the note's content (its marker text and every table row), watched by a
 * MutationObserver so that the time is the page's own, not the test driver's polling.
 */
function timedOpen(page: Page, note: BenchNote): Promise<number> {
  // Plain JavaScript text: tsx would otherwise add helpers (`__name`) that the page does not have.
  return page.evaluate(`(async ({ labNoteNo, rows, marker }) => {
    const link = document.querySelector('[data-testid="note-open-' + labNoteNo + '"]');
    if (!link) throw new Error('note-open-' + labNoteNo + ' is not on the page');
    function ready() {
      const prose = document.querySelector('[data-testid="editor-content"] .ProseMirror[contenteditable="true"]');
      return !!prose && (prose.textContent || '').includes(marker) && prose.querySelectorAll('tr').length >= rows;
    }
    const start = performance.now();
    const opened = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('note ' + labNoteNo + ' did not open in 30 s')), 30000);
      const observer = new MutationObserver(() => {
        if (!ready()) return;
        observer.disconnect();
        clearTimeout(timer);
        resolve(performance.now() - start);
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    link.click();
    return opened;
  })(${JSON.stringify(note)})`);
}

async function seed(
  baseUrl: string,
  call: <C extends CallSpec>(spec: C, body: CallInput<C>, token?: string) => Promise<CallAnswer<C>>,
  adminPassword: string,
  adminEmail: string,
) {
  const admin = (await call(api.auth.signIn, { userId: adminEmail, password: adminPassword })).accessToken;
  const userId = 'researcher@bench.test';
  await call(
    api.users.create,
    { userId, name: 'Bench Researcher', password: PASSWORD, auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } },
    admin,
  );
  const token = (await call(api.auth.signIn, { userId, password: PASSWORD })).accessToken;
  const { projectNo } = await call(
    api.projects.create,
    { title: 'Note open bench', signatureList: { department: '', user: userId } },
    token,
  );
  const create = (title: string) => call(api.notes.create, { projectNo, title }, token);
  const small = await create('Small note');
  const table = await create('Table note');
  const fill = async (labNoteNo: number, write: (doc: import('yjs').Doc) => void) => {
    const writer = await connectWriter(baseUrl, noteDocumentName(labNoteNo), token);
    write(writer.doc);
    const deadline = Date.now() + 10_000;
    while (!writer.allDurable()) {
      if (Date.now() > deadline) throw new Error(`note ${labNoteNo}: content not confirmed stored`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    writer.destroy();
  };
  await fill(small.labNoteNo, (doc) => {
    for (let i = 0; i < 3; i += 1) appendParagraph(doc, `Small observation ${i}: pale yellow after ${i} minutes.`);
  });
  await fill(table.labNoteNo, (doc) => {
    appendTable(doc, 30, 30);
    appendParagraph(doc, 'Table observation: 30 by 30 plate readings.');
  });
  const notes: BenchNote[] = [
    { label: 'small note (3 paragraphs)', labNoteNo: small.labNoteNo, rows: 0, marker: 'Small observation 2' },
    { label: 'note with a 30x30 table', labNoteNo: table.labNoteNo, rows: 30, marker: 'Table observation' },
  ];
  return { userId, projectNo, notes };
}

/**
 * Browser-measured time from clicking a note in its project's note list to an editable editor showing the
 * note, in Debian's chromium against the built client and a real server on PostgreSQL. Each open starts
 * on a freshly loaded project page (no live session left from the previous open); the editor's chunks
 * come from the browser's cache after the first, uncounted, open.
 */
export async function noteOpenBench(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)`);
  if (!existsSync(path.join(dist, 'index.html'))) throw new Error('client/dist is missing: run `npm run build` first');
  const target = await freshPostgres();
  const database = await openDatabase({ kind: 'postgres', url: target.url });
  const config = loadConfig({ LOG_LEVEL: 'silent', ELN_ADMIN_PASSWORD: 'bench-admin-password', CLIENT_DIST: dist });
  const app = await buildApp(config, database);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    await bootstrap(database.db, config);
    const baseUrl = await app.app.listen({ port: 0, host: '127.0.0.1' });
    const call = async <C extends CallSpec>(spec: C, body: CallInput<C>, token?: string) => {
      const response = await app.app.inject({
        method: 'POST',
        url: `/server${spec.path}`,
        payload: body as object,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      const envelope = response.json<{ status: string; message: string; data: CallAnswer<C> }>();
      if (envelope.status !== '0000') throw new Error(`${spec.path}: ${envelope.message}`);
      return envelope.data;
    };
    const { userId, projectNo, notes } = await seed(baseUrl, call, 'bench-admin-password', config.admin.email);

    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1360, height: 900 } });
    await context.addInitScript(() => window.localStorage.setItem('eln.language', 'en'));
    const page = await context.newPage();
    await page.goto('/signin');
    await page.getByTestId('signin-userId').fill(userId);
    await page.getByTestId('signin-password').fill(PASSWORD);
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('dashboard').waitFor();

    const rows: Array<Record<string, string | number>> = [];
    for (const note of notes) {
      const times: number[] = [];
      for (let i = 0; i <= OPENS; i += 1) {
        await page.goto(`/project/${projectNo}`);
        await page.getByTestId(`note-open-${note.labNoteNo}`).waitFor();
        const elapsed = await timedOpen(page, note);
        if (i > 0) times.push(elapsed);
        else
          rows.push({
            note: note.label,
            opens: 1,
            'p50 ms': Number(elapsed.toFixed(1)),
            'p99 ms': '',
            'max ms': '',
            measure: 'first open (chunks not cached)',
          });
      }
      const sorted = times.sort((a, b) => a - b);
      rows.push({
        note: note.label,
        opens: times.length,
        'p50 ms': Number(percentile(sorted, 50).toFixed(1)),
        'p99 ms': Number(percentile(sorted, 99).toFixed(1)),
        'max ms': Number(sorted[sorted.length - 1]!.toFixed(1)),
        measure: 'click in note list → editable editor',
      });
    }
    printTable('Opening a note in chromium (click in the project note list → editable editor with the content)', rows);
  } finally {
    await browser.close();
    await app.close();
    await database.close();
    await target.drop();
  }
}
