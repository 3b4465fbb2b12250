import { and, asc, eq, sql } from 'drizzle-orm';
import { api } from '@eln/shared';
import { expect, test } from './test.js';
import { noteDocumentName } from '../../shared/src/index.js';
import { auditLog, noteVersions } from '../../server/src/db/schema.js';
import { startTestServer, type NewUser, type TestServer } from '../../server/src/testing/harness.js';
import { appendParagraph, connectWriter, eventually } from '../../server/src/testing/live.js';
import { eachDisplay, openAs, shot, unique } from './support.js';
import { hangTimeout } from './fixtures.js';

/**
 * What an inspector relies on, shown in the browser against a server whose database this test can
 * reach: a server of its own (the shared one's embedded database lives in another process), with a
 * short signing lock. Nothing is faked: the lock is earned with wrong passwords, the broken signature
 * and the broken audit chain come from rows changed directly in the database.
 */
// Long enough for the checks made while it lasts, with another browser worker busy beside this one.
const LOCK_SECONDS = 12;
let server: TestServer;
let baseURL: string;

test.beforeAll(async () => {
  server = await startTestServer({ serveClient: true, throttle: { accountLockAfter: 3, lockMs: LOCK_SECONDS * 1000 } });
  baseURL = await server.listen();
});

test.afterAll(async () => {
  await server?.stop();
});

/** A project with a saved, written note whose writer has asked the reviewer to sign. */
async function noteAwaitingReview(): Promise<{ reviewer: NewUser; labNoteNo: number; writerToken: string }> {
  const leader = await server.createUser({ name: 'Han Leader' });
  const writer = await server.createUser({ name: 'Woo Writer', auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' } });
  const reviewer = await server.createUser({ name: 'Ryu Reviewer', auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' } });
  const asLeader = await server.as(leader);
  const writerToken = (await server.signIn(writer.userId, writer.password)).accessToken;
  const asWriter = server.callerWith(writerToken);
  const { projectNo } = (
    await asLeader(api.projects.create, {
      title: 'Stability 7',
      signatureList: { department: '', user: `${writer.userId},${reviewer.userId}` },
    })
  ).body.data;
  const { labNoteNo } = (await asWriter(api.notes.create, { projectNo, title: 'Assay of batch 7' })).body.data;
  const editor = await connectWriter(baseURL, noteDocumentName(labNoteNo), writerToken);
  try {
    appendParagraph(editor.doc, 'Result: batch 7 stable at 40 °C for 4 weeks.');
    await eventually(() => editor.allDurable(), 'the paragraph to be stored');
  } finally {
    editor.destroy();
  }
  expect((await asWriter(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] })).body.status).toBe('0000');
  const requested = await asWriter(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.userId, type: 'reviewer' }] });
  expect(requested.body.status).toBe('0000');
  return { reviewer, labNoteNo, writerToken };
}

test('wrong passwords lock signing with a countdown; after it the reviewer signs; a changed signed version shows as broken', async ({
  browser,
}) => {
  test.setTimeout(hangTimeout(90_000));
  const { reviewer, labNoteNo } = await noteAwaitingReview();

  // --- The reviewer (Korean, beauty theme) opens the note and the signature dialog.
  const ryu = await openAs(browser, reviewer, { theme: 'b', language: 'ko', baseURL });
  await ryu.goto(`/note/${labNoteNo}`);
  await ryu.getByTestId('signature-sign').click();
  const dialog = ryu.getByTestId('signature-dialog');
  await expect(dialog).toBeVisible();

  // Two wrong passwords are refused beside the field; the third locks signing for a while.
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    await dialog.getByTestId('signature-password').fill(`wrong-${attempt}`);
    await dialog.getByTestId('signature-submit').click();
    await expect(dialog.getByTestId('signature-password-error')).toHaveText('비밀번호가 올바르지 않습니다.');
  }
  await dialog.getByTestId('signature-password').fill('wrong-3');
  await dialog.getByTestId('signature-submit').click();
  const locked = dialog.getByTestId('signature-error');
  await expect(locked).toContainText('비밀번호를 여러 번 잘못 입력했습니다');
  await expect(dialog.getByTestId('signature-submit')).toBeDisabled();
  await expect(dialog.getByTestId('signature-decline')).toBeDisabled();
  const secondsShown = async () => Number(/(\d+)초/.exec((await locked.textContent()) ?? '')?.[1]);
  const first = await secondsShown();
  expect(first).toBeGreaterThan(0);
  expect(first).toBeLessThanOrEqual(LOCK_SECONDS);
  await shot(ryu, 'signature-locked-b-ko', false);
  // The countdown runs, and the server really refuses meanwhile (even the right password).
  await expect.poll(secondsShown).toBeLessThan(first);
  const refused = await server.call(
    api.signatures.respond,
    { labNoteNo, status: 'T', password: reviewer.password, name: reviewer.name },
    { token: (await server.signIn(reviewer.userId, reviewer.password)).accessToken },
  );
  expect(refused.body.status).toBe('1004');

  // When the lock ends the dialog opens up again, and the right password signs.
  await expect(locked).toHaveCount(0, { timeout: (LOCK_SECONDS + 3) * 1000 });
  await expect(dialog.getByTestId('signature-submit')).toBeEnabled();
  await dialog.getByTestId('signature-password').fill(reviewer.password);
  await dialog.getByTestId('signature-submit').click();
  await expect(dialog).toBeHidden();
  const entry = ryu.getByTestId('signatures').getByTestId('signature-entry');
  await expect(entry).toHaveAttribute('data-status', 'T');
  await expect(entry).toHaveAttribute('data-intact', 'true');

  // --- Someone edits the signed version's stored blocks directly in the database.
  const [version] = await server.database.db
    .select()
    .from(noteVersions)
    .where(and(eq(noteVersions.noteNo, labNoteNo), eq(noteVersions.version, 1)));
  const blocks = version!.blocks as Array<{ content: string }>;
  blocks[0]!.content = blocks[0]!.content.replace('stable', 'unstable');
  await server.database.db
    .update(noteVersions)
    .set({ blocks })
    .where(and(eq(noteVersions.noteNo, labNoteNo), eq(noteVersions.version, 1)));
  await ryu.reload();
  await expect(entry).toHaveAttribute('data-intact', 'false');
  await expect(entry.getByTestId('signature-entry-broken')).toHaveText('손상됨');
  await shot(ryu, 'signature-broken-real-b-ko');
  await ryu.context().close();
});

test('audit records changed behind the triggers are each named by verify on the audit screen', async ({ browser }) => {
  const db = server.database.db;
  const leader = await server.createUser({ name: 'Oh Leader' });
  const createProject = async (title: string) => {
    const { projectNo } = (
      await (
        await server.as(leader)
      )(api.projects.create, { title, signatureList: { department: '', user: leader.userId } })
    ).body.data;
    const [record] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'project.created'), eq(auditLog.targetId, String(projectNo))))
      .orderBy(asc(auditLog.seq));
    if (!record) throw new Error('the project’s creation was not audited');
    return record;
  };
  const victim = await createProject('Audit target');
  await createProject(`Between ${unique()}`);
  const laterVictim = await createProject(`Audit target ${unique()}`);
  // A superuser bypasses the append-only triggers, as an attacker with database access would. Two
  // records far apart are changed: verify names both, not only the first.
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`update audit_log set after = '{"title":"Another title"}'::jsonb where seq in (${victim.seq}, ${laterVictim.seq})`);
  });

  const admin = await openAs(browser, server.admin, { language: 'ja', baseURL });
  const verdict = admin.getByTestId('audit-verify-result');
  await eachDisplay(admin, {
    displays: [
      ['ja', 's'],
      ['ko', 'b'],
      ['en', 'b'],
    ],
    visit: async ({ name }) => {
      await admin.goto('/admin/audit');
      await expect(admin.getByTestId('audit-row').first()).toBeVisible();
      await admin.getByTestId('audit-verify').click();
      await expect(verdict).toHaveAttribute('data-ok', 'false');
      await expect(verdict).toHaveAttribute('data-first-broken', String(victim.seq));
      await expect(verdict).toHaveAttribute('data-broken-count', '2');
      await expect(verdict.getByTestId('audit-verify-broken-item')).toHaveText([`#${victim.seq}`, `#${laterVictim.seq}`]);
      await expect(verdict).toHaveAttribute('role', 'alert');
      await shot(admin, `audit-verify-broken-real-${name}`);
    },
    after: async ({ language }) => {
      if (language !== 'ja') return;
      await verdict.getByTestId('audit-verify-broken-item').nth(1).click();
      await expect(admin.getByTestId('audit-detail').getByTestId('audit-detail-seq')).toHaveText(`#${laterVictim.seq}`);
    },
  });
  await admin.context().close();
});
