import { writeFile } from 'node:fs/promises';
import { desc, sql } from 'drizzle-orm';
import { api, AUDIT_HEAD_HEADER } from '@eln/shared';
import { expect, test } from './test.js';
import { auditLog } from '../../server/src/db/schema.js';
import { auditChainHead } from '../../server/src/audit/audit.js';
import { startTestServer, type TestServer } from '../../server/src/testing/harness.js';
import { eachDisplay, openAs, showIn, shot, unique } from './support.js';

/**
 * The end of the audit chain, which the chain itself cannot vouch for: the newest records are removed
 * directly in the database (a server of this test's own, whose database it can reach), and the audit
 * screen shows that the head the server wrote outside the database, and the head an export names, are
 * compared with what is left.
 */
let server: TestServer;
let baseURL: string;

test.beforeAll(async () => {
  server = await startTestServer({ serveClient: true });
  baseURL = await server.listen();
});

test.afterAll(async () => {
  await server?.stop();
});

test('the newest audit records removed behind the triggers: verify compares the head the server wrote, and an export’s', async ({
  browser,
}, testInfo) => {
  const leader = await server.createUser({ name: 'Seo Leader' });
  const asLeader = await server.as(leader);
  const createProject = async () =>
    expect(
      (await asLeader(api.projects.create, { title: `Anchor ${unique()}`, signatureList: { department: '', user: leader.userId } })).body
        .status,
    ).toBe('0000');
  await createProject();

  // An export taken now names the head of that moment on its last line.
  const { accessToken } = await server.signIn(server.admin.userId, server.admin.password);
  const exported = await server.app.inject({
    method: 'POST',
    url: `/server${api.audit.exportCsv.path}`,
    payload: {},
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const exportHead = String(exported.headers[AUDIT_HEAD_HEADER]).split(' ')[0];
  const csv = testInfo.outputPath('audit-trail.csv');
  await writeFile(csv, exported.rawPayload);
  const headless = testInfo.outputPath('not-an-export.csv');
  await writeFile(headless, 'seq,at\r\n1,2026-01-01\r\n');

  // The reader signs in before the cut (a sign-in is itself a record), then three more records follow.
  const page = await openAs(browser, server.admin, { baseURL });
  await page.goto('/admin/audit');
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
  for (let n = 0; n < 3; n += 1) await createProject();
  await server.services.auditAnchor.settled();
  const anchored = await auditChainHead(server.database.db);
  const newest = await server.database.db.select({ seq: auditLog.seq }).from(auditLog).orderBy(desc(auditLog.seq)).limit(3);
  await server.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(
      sql`delete from audit_log where seq in (${sql.join(
        newest.map((r) => sql`${r.seq}`),
        sql`, `,
      )})`,
    );
  });

  const titles = {
    en: 'Chain cut or rewritten: a head kept outside the database is no longer in it',
    ko: '체인이 잘렸거나 다시 작성됨: 데이터베이스 밖에 보관한 헤드가 체인에 없습니다',
    ja: 'チェーンが切り詰められたか書き換えられました: データベースの外に保管したヘッドがチェーンにありません',
  };
  await eachDisplay(page, {
    displays: [
      ['en', 's'],
      ['en', 'b'],
      ['ko', 'b'],
      ['ja', 's'],
    ],
    visit: async ({ language }) => {
      await page.getByTestId('audit-verify').click();
      const verdict = page.getByTestId('audit-verify-result');
      await expect(verdict).toHaveAttribute('data-ok', 'false');
      await expect(verdict).toHaveAttribute('data-broken-count', '0');
      await expect(verdict).toHaveAttribute('role', 'alert');
      await expect(verdict.locator('.verify-title')).toHaveText(titles[language]);
      const written = verdict.getByTestId('audit-verify-anchor');
      await expect(written).toHaveAttribute('data-source', 'server');
      await expect(written).toHaveAttribute('data-result', 'beyondEnd');
      await expect(written).toContainText(`#${anchored?.seq}`);
      await expect(written).toContainText(`#${newest[2]!.seq - 1}`);
    },
    shot: 'audit-anchor-cut',
    fullPage: false,
  });

  // The export's head is still in the chain (it was taken before the cut): it matches, the server's does not.
  await showIn(page, 'en', 's');
  await page.getByTestId('audit-verify').click();
  await page.getByTestId('audit-verify-export-file').setInputFiles(csv);
  const verdict = page.getByTestId('audit-verify-result');
  const anchors = verdict.getByTestId('audit-verify-anchor');
  await expect(anchors).toHaveCount(2);
  await expect(anchors.nth(1)).toHaveAttribute('data-source', 'export');
  await expect(anchors.nth(1)).toHaveAttribute('data-result', 'matches');
  await expect(anchors.nth(1)).toContainText(`#${exportHead}`);
  await expect(anchors.nth(1)).toContainText('Still in the chain');
  await expect(anchors.nth(0)).toHaveAttribute('data-result', 'beyondEnd');
  await shot(page, 'audit-anchor-export-s-en', false);
  // A file whose last line names no head is said to be one, and nothing is verified with it.
  await page.getByTestId('audit-verify-export-file').setInputFiles(headless);
  await expect(page.getByTestId('audit-verify-no-head')).toHaveText(
    'This file names no audit chain head on its last line. Choose a CSV exported from the audit trail.',
  );
  await page.context().close();
});
