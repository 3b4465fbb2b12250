import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import * as Y from 'yjs';
import {
  ADMIN_LEVEL,
  api,
  ERR,
  errorMessage,
  noteDocumentName,
  templateDocumentName,
  textOf,
  type ErrorCode,
  type PmNode,
} from '@eln/shared';
import { auditLog, documentUpdates, files, templateDrafts, templateRevisions, templateWriters } from '../db/schema.js';
import { DatabaseDocumentStore } from '../collab/persistence/documentStore.js';
import { startTestServer, type TestPerson, type TestServer } from '../testing/harness.js';
import { appendParagraph, connectLive, connectWriter, eventually, paragraphTexts, type LiveClient } from '../testing/live.js';

/**
 * Templates through the API and the live layer: the lifecycle draft → checked in → approved → new
 * draft, the two-person rule, versions, the database's refusal to change an approved version, notes
 * made from templates, and every refusal, on each database the suite runs against.
 */

let server: TestServer;
let url: string;
type Person = TestPerson;
let author: Person;
let coAuthor: Person;
let approver: Person;
let secondApprover: Person;
let researcher: Person;
let administrator: Person;
const clients: LiveClient[] = [];
const TEMPLATE_FLAGS = { project: 'Y', schema: 'N', dropbox: 'N', template: 'Y' } as const;

const person = (name: string, templateFlag: boolean, level = 1): Promise<Person> =>
  server.person({ name, level, auth: templateFlag ? TEMPLATE_FLAGS : { ...TEMPLATE_FLAGS, template: 'N' } });

beforeAll(async () => {
  server = await startTestServer();
  url = await server.listen();
  author = await person('Author Ahn', true);
  coAuthor = await person('Coauthor Cho', true);
  approver = await person('Approver Bae', true);
  secondApprover = await person('Approver Seo', true);
  researcher = await person('Researcher Ryu', false);
  // An administrator without the template flag: administrators manage templates all the same.
  administrator = await person('Admin Kang', false, ADMIN_LEVEL);
});
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});
afterAll(async () => {
  await server?.stop();
});

let titles = 0;
const uniqueTitle = () => `Synthesis ${++titles}`;

async function create(who: Person = author, title = uniqueTitle()) {
  const answer = await who.call(api.templates.create, { title });
  expect(answer.body.status).toBe('0000');
  return answer.body.data.templateNo;
}

async function connect(who: Person, templateNo: number): Promise<LiveClient> {
  const client = await connectWriter(url, templateDocumentName(templateNo), who.token);
  clients.push(client);
  return client;
}

async function write(who: Person, templateNo: number, ...texts: string[]) {
  const client = await connect(who, templateNo);
  for (const text of texts) appendParagraph(client.doc, text);
  await eventually(() => client.allDurable(), 'the template edits to be stored');
  return client;
}

const detail = async (who: Person, templateNo: number) => (await who.call(api.templates.editor, { templateNo })).body.data.template;
const checkIn = (who: Person, templateNo: number, version: number) =>
  who.call(api.templates.checkIn, { templateNo, version, blockList: [] });
const approve = (who: Person, templateNo: number, version: string, revision: number, password = who.user.password) =>
  who.call(api.templates.approve, { templateNo, version, revision, password });

/** A template with the given paragraphs, checked in by its author and approved as `version`. */
async function approvedTemplate(version = '1.1', texts = ['Weigh the reagents', 'Record the yield']) {
  const templateNo = await create();
  const client = await write(author, templateNo, ...texts);
  client.destroy();
  expect((await checkIn(author, templateNo, 0)).body.status).toBe('0000');
  expect((await approve(approver, templateNo, version, 1)).body.status).toBe('0000');
  return templateNo;
}

const storedTexts = async (documentName: string) => {
  const doc = new Y.Doc();
  const state = await new DatabaseDocumentStore(server.database).load(documentName);
  if (state) Y.applyUpdate(doc, state);
  return paragraphTexts(doc);
};
const updateCount = async (documentName: string) =>
  Number(
    (await server.database.db.select({ n: count() }).from(documentUpdates).where(eq(documentUpdates.documentName, documentName)))[0]?.n ??
      0,
  );
/** The text of each block (a block's content is its ProseMirror JSON). */
const textsOf = (blocks: ReadonlyArray<{ content: string }>) => blocks.map((b) => textOf(JSON.parse(b.content) as PmNode));
const lastAudit = async (action: string) =>
  (await server.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.seq)).limit(1))[0];

async function newProject(): Promise<number> {
  const answer = await author.call(api.projects.create, {
    title: `Templates ${++titles}`,
    signatureList: { department: '', user: [author, researcher].map((p) => p.user.userId).join(',') },
  });
  return answer.body.data.projectNo;
}

describe(`${api.templates.create.path} and ${api.templates.rename.path}`, () => {
  it('creates a template with a trimmed title, audited, and counts it on the dashboard', async () => {
    const before = (await author.call(api.dashboard.counts, {})).body.data.templates;
    const answer = await author.call(api.templates.create, { title: '  Cell culture log  ' });
    expect(answer.body.status).toBe('0000');
    const template = await detail(author, answer.body.data.templateNo);
    expect(template).toMatchObject({ title: 'Cell culture log', state: 'D', version: null, revision: 0, authorId: author.user.userId });
    expect(template.abilities).toMatchObject({ write: true, checkIn: true, approve: false, use: false, delete: true });
    expect((await lastAudit('template.created'))?.targetId).toBe(String(answer.body.data.templateNo));
    expect((await author.call(api.dashboard.counts, {})).body.data.templates).toBe((before ?? 0) + 1);
  });

  it('refuses an empty, blank, too long or duplicate title, and callers without the template flag', async () => {
    const title = uniqueTitle();
    await create(author, title);
    for (const bad of ['', '   ', 'x'.repeat(26)]) {
      expect((await author.call(api.templates.create, { title: bad })).body.status).toBe(ERR.validation);
    }
    expect((await author.call(api.templates.create, { title: 'x'.repeat(25) })).body.status).toBe('0000');
    expect((await coAuthor.call(api.templates.create, { title: ` ${title} ` })).body.status).toBe(ERR.templateDuplicate);
    expect((await researcher.call(api.templates.create, { title: uniqueTitle() })).body.status).toBe(ERR.forbidden);
  });

  it('renames with the same rules, audited with the old and new title', async () => {
    const templateNo = await create();
    const taken = uniqueTitle();
    await create(author, taken);
    expect((await author.call(api.templates.rename, { templateNo, title: taken })).body.status).toBe(ERR.templateDuplicate);
    expect((await researcher.call(api.templates.rename, { templateNo, title: 'Mine now' })).body.status).toBe(ERR.forbidden);
    const before = (await detail(author, templateNo)).title;
    expect(
      (await author.call(api.templates.rename, { templateNo, title: 'Renamed log', description: 'For HEK293 cells' })).body.status,
    ).toBe('0000');
    expect(await detail(author, templateNo)).toMatchObject({ title: 'Renamed log', description: 'For HEK293 cells' });
    const record = await lastAudit('template.renamed');
    expect(record).toMatchObject({ actorUserNo: author.user.userNo, before: { title: before }, after: { title: 'Renamed log' } });
  });

  it('renames an approved template only by its author or an administrator, audited with the titles before and after', async () => {
    const templateNo = await approvedTemplate();
    const { title } = await detail(author, templateNo);
    // Another template manager, and the one who approved it, see no rename and are refused.
    for (const other of [coAuthor, approver]) {
      expect((await detail(other, templateNo)).abilities.rename).toBe(false);
      expect((await other.call(api.templates.rename, { templateNo, title: 'Taken over' })).body.status).toBe(ERR.templateNotAuthor);
    }
    expect((await detail(author, templateNo)).title).toBe(title);
    expect((await detail(author, templateNo)).abilities.rename).toBe(true);
    expect((await detail(administrator, templateNo)).abilities.rename).toBe(true);
    expect((await author.call(api.templates.rename, { templateNo, title: 'Yield log v2' })).body.status).toBe('0000');
    expect(await lastAudit('template.renamed')).toMatchObject({
      actorUserNo: author.user.userNo,
      targetId: String(templateNo),
      before: { title },
      after: { title: 'Yield log v2' },
    });
    expect((await administrator.call(api.templates.rename, { templateNo, title: 'Yield log (lab)' })).body.status).toBe('0000');
    expect(await lastAudit('template.renamed')).toMatchObject({
      actorUserNo: administrator.user.userNo,
      before: { title: 'Yield log v2' },
      after: { title: 'Yield log (lab)' },
    });
    // The list carries the same verdict.
    const listed = (await coAuthor.call(api.templates.list, { pageSize: 100 })).body.data.list.find((t) => t.templateNo === templateNo);
    expect(listed?.abilities.rename).toBe(false);
  });
});

describe('the lifecycle: draft, check-in, approval, new draft', () => {
  it('checks in the live draft, locks it for everyone, and answers 7003 when it is opened for editing', async () => {
    const templateNo = await create();
    const editor = await write(author, templateNo, 'Step 1: dissolve', 'Step 2: stir');
    // An administrator carries on the author's draft: they may, and are recorded as a writer of it.
    const coEditor = await connect(administrator, templateNo);
    await eventually(() => paragraphTexts(coEditor.doc).length === 2, 'the administrator to see the draft');
    appendParagraph(coEditor.doc, 'Step 3: filter');
    await eventually(() => coEditor.allDurable(), 'the administrator edit to be stored');

    expect((await checkIn(author, templateNo, 5)).body.status).toBe(ERR.conflict);
    const checked = await checkIn(author, templateNo, 0);
    expect(checked.body.status).toBe('0000');
    expect(checked.body.data.revision).toBe(1);
    const [revision] = await server.database.db.select().from(templateRevisions).where(eq(templateRevisions.templateNo, templateNo));
    expect(revision?.blocksHash).toBe(checked.body.data.blocksHash);
    expect(textsOf(revision?.blocks as Array<{ content: string }>)).toEqual(['Step 1: dissolve', 'Step 2: stir', 'Step 3: filter']);
    expect((await lastAudit('template.checked'))?.after).toMatchObject({ revision: 1, blocksHash: checked.body.data.blocksHash });
    // Each block is marked with who wrote it, as the live history knows it.
    const viewed = (await approver.call(api.templates.viewer, { templateNo, revision: 1 })).body.data;
    const writersOf = (text: string) => viewed.authors[viewed.blockList[textsOf(viewed.blockList).indexOf(text)]!.blockUid];
    expect(writersOf('Step 1: dissolve')).toEqual([author.user.name]);
    expect(writersOf('Step 3: filter')).toEqual([administrator.user.name]);
    expect(viewed.revision.writtenBy).toEqual([administrator.user.name, author.user.name].sort());

    // Read-only now: a raw Yjs client's edit is not stored, nor is a second check-in or a temp save accepted.
    const documentName = templateDocumentName(templateNo);
    const stored = await updateCount(documentName);
    appendParagraph(editor.doc, 'sneaked in after the check-in');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server.services.live.persistence.flushDocument(documentName);
    expect(await updateCount(documentName)).toBe(stored);
    expect(await storedTexts(documentName)).not.toContain('sneaked in after the check-in');
    expect((await checkIn(author, templateNo, 1)).body.status).toBe(ERR.templateNotDraft);
    expect((await author.call(api.templates.tempSave, { templateNo, blockList: [] })).body.status).toBe(ERR.templateNotDraft);
    expect((await author.call(api.templates.editCheck, { templateNo })).body.status).toBe(ERR.templateReady);
    expect((await detail(approver, templateNo)).abilities).toMatchObject({ approve: true, write: false });
    // Who wrote in it may not approve it, nor send it back: the administrator included.
    expect((await detail(administrator, templateNo)).abilities.approve).toBe(false);
    expect((await approve(administrator, templateNo, '1.1', 1)).body.status).toBe(ERR.templateOwnApproval);
    expect((await administrator.call(api.templates.sendBack, { templateNo, revision: 1, reason: 'mine' })).body.status).toBe(
      ERR.templateOwnApproval,
    );
    expect((await detail(author, templateNo)).approvalExcluded.map((p) => p.userId).sort()).toEqual(
      [author.user.userId, administrator.user.userId].sort(),
    );
  });

  it("keeps a colleague's live connection to someone else's draft read-only: their updates are refused and they may approve", async () => {
    const templateNo = await create();
    const own = await write(author, templateNo, 'Jiwoo: weigh 2 g');
    const documentName = templateDocumentName(templateNo);
    const colleague = await connect(coAuthor, templateNo);
    await eventually(() => paragraphTexts(colleague.doc).length === 1, "the colleague to follow the author's draft");
    expect(colleague.provider.authorizedScope).toBe('readonly');
    const { abilities } = await detail(coAuthor, templateNo);
    expect(abilities).toMatchObject({ write: false, checkIn: false, rename: false, delete: false });
    const stored = await updateCount(documentName);
    // A raw Yjs client writes anyway: nothing of it is stored, applied, or passed on to the author.
    appendParagraph(colleague.doc, 'Emma: and add 5 ml acid');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server.services.live.persistence.flushDocument(documentName);
    expect(await updateCount(documentName)).toBe(stored);
    expect(await storedTexts(documentName)).toEqual(['Jiwoo: weigh 2 g']);
    expect(paragraphTexts(own.doc)).toEqual(['Jiwoo: weigh 2 g']);
    // Nor through the API: temp save, check-in and uploads are the author's (and administrators').
    expect((await coAuthor.call(api.templates.tempSave, { templateNo, blockList: [] })).body.status).toBe(ERR.templateNotAuthor);
    expect((await checkIn(coAuthor, templateNo, 0)).body.status).toBe(ERR.templateNotAuthor);
    expect(await server.database.db.select().from(templateWriters).where(eq(templateWriters.templateNo, templateNo))).toEqual([
      expect.objectContaining({ revision: 1, userNo: author.user.userNo }),
    ]);
    // Having written nothing, the colleague is the one who may approve it.
    expect((await checkIn(author, templateNo, 0)).body.status).toBe('0000');
    expect((await detail(coAuthor, templateNo)).abilities.approve).toBe(true);
    expect((await approve(coAuthor, templateNo, '1.1', 1)).body.status).toBe('0000');
  });

  it('refuses approval by anyone who wrote in the revision, or in one sent back since the last approval', async () => {
    const templateNo = await create();
    (await write(author, templateNo, 'Objective')).destroy();
    (await write(administrator, templateNo, 'Safety: goggles')).destroy();
    expect((await checkIn(author, templateNo, 0)).body.status).toBe('0000');
    // Sent back, the administrator's text goes on into revision 2 unapproved: they still may not approve it.
    expect((await approver.call(api.templates.sendBack, { templateNo, revision: 1, reason: 'Add the waste step' })).body.status).toBe(
      '0000',
    );
    (await write(author, templateNo, 'Waste: neutralise')).destroy();
    expect((await checkIn(author, templateNo, 1)).body.status).toBe('0000');
    const waiting = await detail(author, templateNo);
    expect(waiting.revisions.map((r) => [r.revision, r.writtenBy])).toEqual([
      [2, [author.user.name]],
      [1, [administrator.user.name, author.user.name].sort()],
    ]);
    expect(waiting.approvalExcluded.map((p) => p.name).sort()).toEqual([administrator.user.name, author.user.name].sort());
    expect((await approve(administrator, templateNo, '1.1', 2)).body.status).toBe(ERR.templateOwnApproval);
    expect((await approve(approver, templateNo, '1.1', 2)).body.status).toBe('0000');

    // After that approval, the next draft's writers are its own: the administrator, who wrote nothing in it, approves it.
    expect((await author.call(api.templates.reopen, { templateNo })).body.status).toBe('0000');
    (await write(author, templateNo, 'Record the yield')).destroy();
    expect((await checkIn(author, templateNo, 2)).body.status).toBe('0000');
    expect((await detail(author, templateNo)).approvalExcluded.map((p) => p.userId)).toEqual([author.user.userId]);
    expect((await approve(administrator, templateNo, '1.2', 3)).body.status).toBe('0000');
  });

  it('records a writer before storing their first update: while the record cannot be made, nothing of theirs is stored', async () => {
    const templateNo = await create();
    const documentName = templateDocumentName(templateNo);
    const client = await connect(author, templateNo);
    // The database refuses the author's writer record for now (on both databases, without holding a lock).
    const refuse = sql.raw(`alter table template_writers add constraint writers_held check (user_no <> ${author.user.userNo}) not valid`);
    await server.database.db.execute(refuse);
    try {
      appendParagraph(client.doc, 'Stored only once its writer is');
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await updateCount(documentName)).toBe(0);
      expect(client.allDurable()).toBe(false);
    } finally {
      await server.database.db.execute(sql.raw('alter table template_writers drop constraint writers_held'));
    }
    // Tried again, the record is made, and then the update is stored.
    await eventually(() => client.allDurable(), 'the edit to be stored once its writer is recorded');
    expect(await storedTexts(documentName)).toEqual(['Stored only once its writer is']);
    expect(await server.database.db.select().from(templateWriters).where(eq(templateWriters.templateNo, templateNo))).toEqual([
      expect.objectContaining({ revision: 1, userNo: author.user.userNo }),
    ]);
  });

  it('approves only a proper version greater than the last, by someone else who gives their password', async () => {
    const templateNo = await create();
    (await write(author, templateNo, 'Measure pH')).destroy();
    // Another manager neither writes nor checks in someone else's draft; an administrator may check it in.
    expect((await checkIn(coAuthor, templateNo, 0)).body.status).toBe(ERR.templateNotAuthor);
    expect((await checkIn(administrator, templateNo, 0)).body.status).toBe('0000');

    expect((await approve(author, templateNo, '1.1', 1)).body.status).toBe(ERR.templateOwnApproval);
    expect((await approve(administrator, templateNo, '1.1', 1)).body.status).toBe(ERR.templateOwnApproval);
    // Without the flag a template never approved is not even visible.
    expect((await approve(researcher, templateNo, '1.1', 1)).body.status).toBe(ERR.notFound);
    // Each refusal names the rule the text broke: 01.5 is not 0 and not whole, so it is not told it is.
    const refusals: Array<[string, ErrorCode]> = [
      ['0', ERR.templateVersionInvalid],
      ['1', ERR.templateVersionInvalid],
      ['1.0', ERR.templateVersionInvalid],
      ['2.00', ERR.templateVersionInvalid],
      ['01.1', ERR.templateVersionForm],
      ['abc', ERR.templateVersionNotNumber],
      ['-1.1', ERR.templateVersionNotNumber],
      ['1.1.1', ERR.templateVersionNotNumber],
      ['', ERR.templateVersionNotNumber],
      ['1e1', ERR.templateVersionNotNumber],
      ['1.12345', ERR.templateVersionForm],
      ['01.5', ERR.templateVersionForm],
    ];
    for (const [bad, code] of refusals) {
      const refused = await approve(approver, templateNo, bad, 1);
      expect(refused.body.status, bad).toBe(code);
      expect(refused.body.message, bad).toBe(errorMessage(code, 'en'));
    }
    expect((await approve(approver, templateNo, '01.5', 1)).body.message).not.toMatch(/whole number/);
    expect((await approve(approver, templateNo, '1.1', 2)).body.status).toBe(ERR.conflict);
    expect((await approve(approver, templateNo, '1.1', 1, 'not my password')).body.status).toBe(ERR.badCredentials);
    expect((await lastAudit('template.approvalFailed'))?.targetId).toBe(String(templateNo));

    const approved = await approve(approver, templateNo, '1.1', 1);
    expect(approved.body).toMatchObject({ status: '0000', data: { version: '1.1' } });
    const template = await detail(author, templateNo);
    expect(template).toMatchObject({ state: 'A', version: '1.1', suggestedVersion: '1.2' });
    expect(template.revisions[0]).toMatchObject({
      revision: 1,
      version: '1.1',
      approvedBy: approver.user.name,
      checkedBy: administrator.user.name,
      supersededAt: null,
    });
    expect((await lastAudit('template.approved'))?.after).toMatchObject({
      version: '1.1',
      revision: 1,
      blocksHash: approved.body.data.blocksHash,
    });
    expect((await approve(secondApprover, templateNo, '1.2', 1)).body.status).toBe(ERR.templateNotChecking);
  });

  it('starts a new draft from an approved template; the next approval needs a greater version and supersedes the last', async () => {
    const templateNo = await approvedTemplate('1.9');
    // Approved: nothing changes it through the API, nor through a raw Yjs client.
    expect((await checkIn(author, templateNo, 1)).body.status).toBe(ERR.templateNotDraft);
    expect((await author.call(api.templates.tempSave, { templateNo, blockList: [] })).body.status).toBe(ERR.templateNotDraft);
    const documentName = templateDocumentName(templateNo);
    const raw = await connect(author, templateNo);
    const stored = await updateCount(documentName);
    appendParagraph(raw.doc, 'edited after approval');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server.services.live.persistence.flushDocument(documentName);
    expect(await updateCount(documentName)).toBe(stored);
    raw.destroy();
    const reopened = await author.call(api.templates.reopen, { templateNo });
    expect(reopened.body.data).toMatchObject({ state: 'D', version: '1.9' });
    expect((await lastAudit('template.reopened'))?.before).toMatchObject({ version: '1.9' });
    (await write(author, templateNo, 'Added in the second draft')).destroy();
    expect((await checkIn(author, templateNo, 1)).body.status).toBe('0000');
    // Approved once, the template is visible to everyone; approving still needs the flag.
    expect((await approve(researcher, templateNo, '2.1', 2)).body.status).toBe(ERR.forbidden);
    expect((await researcher.call(api.templates.sendBack, { templateNo, revision: 2, reason: 'no' })).body.status).toBe(ERR.forbidden);
    // Versions are decimals (spec): 1.10 is 1.1 and 1.90 is 1.9, neither greater than 1.9.
    for (const notGreater of ['1.9', '1.8', '0.9', '1.10', '1.90', '1.09']) {
      const refused = await approve(approver, templateNo, notGreater, 2);
      expect(refused.body.status, notGreater).toBe(ERR.templateVersionNotGreater);
      expect(refused.body.message).toContain('1.9');
    }
    expect((await detail(author, templateNo)).suggestedVersion).toBe('2.1');
    // Greater as a decimal, and kept exactly as typed.
    expect((await approve(approver, templateNo, '1.91', 2)).body).toMatchObject({ status: '0000', data: { version: '1.91' } });
    expect((await author.call(api.templates.reopen, { templateNo })).body.status).toBe('0000');
    (await write(author, templateNo, 'A third draft')).destroy();
    expect((await checkIn(author, templateNo, 2)).body.status).toBe('0000');
    expect((await approve(approver, templateNo, '2.50', 3)).body).toMatchObject({ status: '0000', data: { version: '2.50' } });
    const template = await detail(author, templateNo);
    expect(template).toMatchObject({ version: '2.50', suggestedVersion: '2.51' });
    expect(template.revisions.map((r) => [r.revision, r.version, r.supersededAt !== null])).toEqual([
      [3, '2.50', false],
      [2, '1.91', true],
      [1, '1.9', true],
    ]);
    expect((await lastAudit('template.approved'))?.after).toMatchObject({ version: '2.50', superseded: '1.91' });
    const choices = (await researcher.call(api.templates.choices, {})).body.data.list;
    expect(choices.find((c) => c.templateNo === templateNo)?.version).toBe('2.50');
  });

  it('refuses 1.10 after 1.1 as not greater (the same decimal) and keeps a version such as 1.05 as written', async () => {
    const templateNo = await approvedTemplate('1.05');
    expect((await detail(author, templateNo)).version).toBe('1.05');
    expect((await author.call(api.templates.reopen, { templateNo })).body.status).toBe('0000');
    (await write(author, templateNo, 'Second draft')).destroy();
    expect((await checkIn(author, templateNo, 1)).body.status).toBe('0000');
    expect((await approve(approver, templateNo, '1.1', 2)).body.status).toBe('0000');
    expect((await author.call(api.templates.reopen, { templateNo })).body.status).toBe('0000');
    (await write(author, templateNo, 'Third draft')).destroy();
    expect((await checkIn(author, templateNo, 2)).body.status).toBe('0000');
    const refused = await approve(approver, templateNo, '1.10', 3);
    expect(refused.body.status).toBe(ERR.templateVersionNotGreater);
    expect(refused.body.message).toContain('1.1');
    expect((await approve(approver, templateNo, '1.100', 3)).body.status).toBe(ERR.templateVersionNotGreater);
    expect((await approve(approver, templateNo, '1.11', 3)).body.status).toBe('0000');
    const [stored] = await server.database.db
      .select({ version: templateRevisions.version })
      .from(templateRevisions)
      .where(and(eq(templateRevisions.templateNo, templateNo), eq(templateRevisions.revision, 1)));
    expect(stored?.version).toBe('1.05');
  });

  it('checks whether a template opens for editing without changing it; starting a new draft is its own command', async () => {
    const templateNo = await approvedTemplate('3.1');
    const reopenings = async () =>
      Number(
        (
          await server.database.db
            .select({ n: count() })
            .from(auditLog)
            .where(and(eq(auditLog.action, 'template.reopened'), eq(auditLog.targetId, String(templateNo))))
        )[0]?.n ?? 0,
      );
    // The check is a read: asked twice, the template stays approved, unwritable, and nothing is audited.
    for (let i = 0; i < 2; i++) {
      expect((await author.call(api.templates.editCheck, { templateNo })).body.data).toMatchObject({ state: 'A', version: '3.1' });
    }
    expect(await detail(author, templateNo)).toMatchObject({ state: 'A' });
    expect((await author.call(api.templates.tempSave, { templateNo, blockList: [] })).body.status).toBe(ERR.templateNotDraft);
    expect(await reopenings()).toBe(0);
    // Without the template flag, neither opens it.
    expect((await researcher.call(api.templates.editCheck, { templateNo })).body.status).toBe(ERR.forbidden);
    expect((await researcher.call(api.templates.reopen, { templateNo })).body.status).toBe(ERR.forbidden);

    // Reopening starts the draft, audited once; asked again, it finds a draft and changes nothing.
    expect((await author.call(api.templates.reopen, { templateNo })).body.data).toMatchObject({ state: 'D', version: '3.1' });
    // Another manager does not open someone else's template for writing (an administrator does).
    expect((await coAuthor.call(api.templates.reopen, { templateNo })).body.status).toBe(ERR.templateNotAuthor);
    expect((await coAuthor.call(api.templates.editCheck, { templateNo })).body.status).toBe(ERR.templateNotAuthor);
    expect((await administrator.call(api.templates.reopen, { templateNo })).body.data).toMatchObject({ state: 'D', version: '3.1' });
    expect(await reopenings()).toBe(1);
    expect((await author.call(api.templates.tempSave, { templateNo, blockList: [] })).body.status).toBe('0000');
    expect((await author.call(api.templates.editCheck, { templateNo })).body.data).toMatchObject({ state: 'D' });

    // Checked in, it waits for its approval: both answer 7003 (the client offers the approval instead).
    expect((await checkIn(author, templateNo, 1)).body.status).toBe('0000');
    expect((await author.call(api.templates.editCheck, { templateNo })).body.status).toBe(ERR.templateReady);
    expect((await author.call(api.templates.reopen, { templateNo })).body.status).toBe(ERR.templateReady);
    expect(await reopenings()).toBe(1);
  });

  it('sends a checked-in draft back to its author with a reason; it is writable again', async () => {
    const templateNo = await create();
    (await write(author, templateNo, 'Incomplete')).destroy();
    await checkIn(author, templateNo, 0);
    expect((await author.call(api.templates.sendBack, { templateNo, revision: 1, reason: 'Mine' })).body.status).toBe(
      ERR.templateOwnApproval,
    );
    expect((await approver.call(api.templates.sendBack, { templateNo, revision: 1, reason: '' })).body.status).toBe(ERR.validation);
    expect((await approver.call(api.templates.sendBack, { templateNo, revision: 1, reason: 'Add the safety step' })).body.status).toBe(
      '0000',
    );
    const template = await detail(author, templateNo);
    expect(template).toMatchObject({ state: 'D', revision: 1 });
    expect(template.revisions[0]).toMatchObject({ returnReason: 'Add the safety step' });
    (await write(author, templateNo, 'Safety: wear goggles')).destroy();
    expect((await checkIn(author, templateNo, 1)).body.status).toBe('0000');
    expect((await approve(approver, templateNo, '0.1', 2)).body.status).toBe('0000');
  });

  it('lets exactly one of two racing approvers win', async () => {
    const templateNo = await create();
    (await write(author, templateNo, 'Race')).destroy();
    await checkIn(author, templateNo, 0);
    const answers = await Promise.all([approve(approver, templateNo, '1.1', 1), approve(secondApprover, templateNo, '1.2', 1)]);
    expect(answers.map((a) => a.body.status).sort()).toEqual(['0000', ERR.templateNotChecking].sort());
    const approved = await server.database.db
      .select()
      .from(templateRevisions)
      .where(and(eq(templateRevisions.templateNo, templateNo), sql`${templateRevisions.approvedAt} is not null`));
    expect(approved).toHaveLength(1);
  });

  it('keeps approved versions as they are: the database refuses to change or remove one', async () => {
    const templateNo = await approvedTemplate();
    const db = server.database.db;
    const where = and(eq(templateRevisions.templateNo, templateNo), eq(templateRevisions.revision, 1));
    await expect(db.update(templateRevisions).set({ blocks: [] }).where(where)).rejects.toThrow();
    await expect(db.update(templateRevisions).set({ version: '7.7' }).where(where)).rejects.toThrow();
    await expect(db.delete(templateRevisions).where(where)).rejects.toThrow();
    const [row] = await db.select().from(templateRevisions).where(where);
    expect(row?.version).toBe('1.1');
  });

  it('temp-saves the draft and discards it when the author leaves', async () => {
    const templateNo = await create();
    (await write(author, templateNo, 'Draft line')).destroy();
    const saved = await author.call(api.templates.tempSave, { templateNo, blockList: [] });
    expect(saved.body.status).toBe('0000');
    expect(saved.body.data.blockStatuses.map((b) => b.blockStatus)).toEqual(['ADD']);
    const [draft] = await server.database.db.select().from(templateDrafts).where(eq(templateDrafts.templateNo, templateNo));
    expect(textsOf(draft?.blocks as Array<{ content: string }>)).toEqual(['Draft line']);
    expect(saved.body.data.blockStatuses.map((b) => b.blockUid)).toEqual(
      (draft?.blocks as Array<{ blockUid: string }>).map((b) => b.blockUid),
    );
    expect((await detail(author, templateNo)).tempSavedAt).not.toBeNull();
    expect((await researcher.call(api.templates.tempSave, { templateNo, blockList: [] })).body.status).toBe(ERR.notFound);
    expect((await author.call(api.templates.leave, { templateNo })).body.status).toBe('0000');
    expect(await server.database.db.select().from(templateDrafts).where(eq(templateDrafts.templateNo, templateNo))).toEqual([]);
  });
});

describe('who sees what', () => {
  it('shows drafts to managers only; everyone reads and lists approved templates', async () => {
    const draftNo = await create();
    const approvedNo = await approvedTemplate('2.1');
    const forResearcher = (await researcher.call(api.templates.list, { pageSize: 100 })).body.data;
    expect(forResearcher.abilities.create).toBe(false);
    expect(forResearcher.list.map((t) => t.templateNo)).toContain(approvedNo);
    expect(forResearcher.list.map((t) => t.templateNo)).not.toContain(draftNo);
    const forAuthor = (await author.call(api.templates.list, { pageSize: 100, state: 'D' })).body.data;
    expect(forAuthor.list.map((t) => t.templateNo)).toContain(draftNo);
    expect(forAuthor.list.every((t) => t.state === 'D')).toBe(true);

    expect((await researcher.call(api.templates.viewer, { templateNo: draftNo })).body.status).toBe(ERR.notFound);
    expect((await researcher.call(api.templates.editor, { templateNo: approvedNo })).body.status).toBe(ERR.forbidden);
    const viewed = (await researcher.call(api.templates.viewer, { templateNo: approvedNo })).body.data;
    expect(viewed.revision.version).toBe('2.1');
    expect(textsOf(viewed.blockList)).toEqual(['Weigh the reagents', 'Record the yield']);

    const choices = (await researcher.call(api.templates.choices, {})).body.data.list;
    expect(choices.find((c) => c.templateNo === approvedNo)).toMatchObject({ version: '2.1' });
    expect(choices.some((c) => c.templateNo === draftNo)).toBe(false);

    // The live draft is not even readable without the flag.
    const refused = await connectLive(url, templateDocumentName(draftNo), researcher.token);
    expect(refused.kind).toBe('refused');
  });

  it('shows a revision waiting for approval to managers only, and answers for revisions that are not there', async () => {
    const templateNo = await approvedTemplate('4.1');
    expect((await author.call(api.templates.reopen, { templateNo })).body.status).toBe('0000');
    (await write(author, templateNo, 'Second draft')).destroy();
    expect((await checkIn(author, templateNo, 1)).body.status).toBe('0000');
    const waiting = await approver.call(api.templates.viewer, { templateNo, revision: 2 });
    expect(waiting.body.data.revision).toMatchObject({ revision: 2, version: null });
    expect((await researcher.call(api.templates.viewer, { templateNo, revision: 2 })).body.status).toBe(ERR.templateNotApproved);
    // Without a revision asked for: the latest approved one, for everyone.
    const latest = await researcher.call(api.templates.viewer, { templateNo });
    expect(latest.body.data.revision).toMatchObject({ revision: 1, version: '4.1' });
    expect((await approver.call(api.templates.viewer, { templateNo, revision: 3 })).body.status).toBe(ERR.notFound);
    // A draft never checked in has nothing to show yet.
    expect((await author.call(api.templates.viewer, { templateNo: await create() })).body.status).toBe(ERR.templateNotApproved);
  });

  it('filters the list by title and pages it', async () => {
    const stem = `Paged ${Date.now()}`;
    for (let i = 0; i < 3; i++) await create(author, `${stem} ${i}`.slice(0, 25));
    const page = (await author.call(api.templates.list, { type: 'title', value: stem.slice(0, 20), pageSize: 2, page: 2 })).body.data;
    expect(page.totalCount).toBe(3);
    expect(page.list).toHaveLength(1);
  });
});

describe('notes made from templates', () => {
  it('copy the latest approved version, record it, and keep it when the template changes later', async () => {
    const projectNo = await newProject();
    const templateNo = await approvedTemplate('1.1', ['Objective', 'Procedure']);
    const first = await researcher.call(api.notes.create, {
      projectNo,
      title: 'From template',
      templateNo,
    });
    expect(first.body.status).toBe('0000');
    const firstNo = first.body.data.labNoteNo;
    expect(await storedTexts(noteDocumentName(firstNo))).toEqual(['Objective', 'Procedure']);
    const blocks = (await researcher.call(api.notes.blockList, { labNoteNo: firstNo })).body.data;
    expect(blocks.note.template).toMatchObject({ templateNo, version: '1.1' });
    expect(blocks.blockList.every((b) => b.noteType === 'LABNOTE')).toBe(true);
    expect((await lastAudit('note.created'))?.after).toMatchObject({ template: { templateNo, version: '1.1', revision: 1 } });

    // The template moves on to 1.2; the earlier note still says 1.1 and keeps its content.
    await author.call(api.templates.reopen, { templateNo });
    (await write(author, templateNo, 'Waste disposal')).destroy();
    await checkIn(author, templateNo, 1);
    await approve(approver, templateNo, '1.2', 2);
    const second = await researcher.call(api.notes.create, {
      projectNo,
      title: 'From template 2',
      templateNo,
    });
    expect(await storedTexts(noteDocumentName(second.body.data.labNoteNo))).toEqual(['Objective', 'Procedure', 'Waste disposal']);
    const again = (await researcher.call(api.notes.blockList, { labNoteNo: firstNo })).body.data;
    expect(again.note.template).toMatchObject({ version: '1.1' });
    expect(await storedTexts(noteDocumentName(firstNo))).toEqual(['Objective', 'Procedure']);
    expect((await detail(author, templateNo)).noteCount).toBe(2);
  });

  it('refuse a draft that was never approved (7008), a deleted template (9002), and give no note number for it', async () => {
    const projectNo = await newProject();
    const draftNo = await create();
    expect((await author.call(api.notes.create, { projectNo, title: 'From a draft', templateNo: draftNo })).body.status).toBe(
      ERR.templateNotApproved,
    );
    // A researcher cannot see the draft at all.
    expect((await researcher.call(api.notes.create, { projectNo, title: 'From a draft', templateNo: draftNo })).body.status).toBe(
      ERR.notFound,
    );
    const deletedNo = await approvedTemplate();
    expect((await author.call(api.templates.delete, { templateNo: deletedNo })).body.status).toBe('0000');
    expect((await author.call(api.notes.create, { projectNo, title: 'From deleted', templateNo: deletedNo })).body.status).toBe(
      ERR.notFound,
    );
    expect((await author.call(api.notes.create, { projectNo, title: 'Blank' })).body.status).toBe('0000');
  });
});

describe(api.templates.delete.path, () => {
  it('retires a template its author or an administrator deletes; notes made from it keep their origin', async () => {
    const projectNo = await newProject();
    const templateNo = await approvedTemplate();
    const note = await researcher.call(api.notes.create, { projectNo, title: 'Kept', templateNo });
    expect((await approver.call(api.templates.delete, { templateNo })).body.status).toBe(ERR.templateDelete);
    expect((await researcher.call(api.templates.delete, { templateNo })).body.status).toBe(ERR.forbidden);
    expect((await author.call(api.templates.delete, { templateNo })).body.status).toBe('0000');
    expect((await author.call(api.templates.delete, { templateNo })).body.status).toBe(ERR.notFound);
    expect((await lastAudit('template.deleted'))?.before).toMatchObject({ version: '1.1' });
    const list = (await author.call(api.templates.list, { pageSize: 100 })).body.data;
    expect(list.list.some((t) => t.templateNo === templateNo)).toBe(false);
    const blocks = (await researcher.call(api.notes.blockList, { labNoteNo: note.body.data.labNoteNo })).body.data;
    expect(blocks.note.template).toMatchObject({ templateNo, version: '1.1' });
    const admin = await server.as(server.admin);
    const other = await create();
    expect((await admin(api.templates.delete, { templateNo: other })).body.status).toBe('0000');
  });
});

describe('files in templates', () => {
  /** A real 1x1 PNG. */
  const PNG = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cf00000301010018dd8db40000000049454e44ae426082',
    'hex',
  );

  async function upload(who: Person, fields: Record<string, string>) {
    const boundary = `----eln${Math.random().toString(16).slice(2)}`;
    const parts = Object.entries(fields).map(([name, value]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
    const payload = Buffer.concat([
      ...parts,
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gel.png"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await server.app.inject({
      method: 'POST',
      url: `/server${api.files.upload.path}`,
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${who.token}` },
    });
    return response.json<{ status: string; data: { fileId: string } }>();
  }

  function appendImage(doc: Y.Doc, fileId: string) {
    const image = new Y.XmlElement('image');
    image.setAttribute('blockUid', `i${fileId.replace(/-/g, '').slice(0, 15)}`);
    image.setAttribute('fileId', fileId);
    image.setAttribute('title', 'Gel, lane 3');
    const fragment = doc.getXmlFragment('default');
    fragment.insert(fragment.length, [image]);
  }

  it('takes uploads for a draft from those who write it; a note made from it gets its own copy of each file', async () => {
    const templateNo = await create();
    const uploaded = await upload(author, { templateNo: String(templateNo) });
    expect(uploaded.status).toBe('0000');
    const fileId = uploaded.data.fileId;
    expect((await upload(researcher, { templateNo: String(templateNo) })).status).toBe(ERR.notFound);
    expect((await upload(coAuthor, { templateNo: String(templateNo) })).status).toBe(ERR.templateNotAuthor);
    expect((await upload(author, { templateNo: String(templateNo), labNoteNo: '1' })).status).toBe(ERR.validation);
    // A draft's file is the template's readers' alone.
    expect((await researcher.call(api.files.link, { fileId })).body.status).toBe(ERR.notFound);
    expect((await coAuthor.call(api.files.link, { fileId })).body.status).toBe('0000');

    const client = await connect(author, templateNo);
    appendParagraph(client.doc, 'Gel image below');
    appendImage(client.doc, fileId);
    await eventually(() => client.allDurable(), 'the image block to be stored');
    client.destroy();
    expect((await checkIn(author, templateNo, 0)).body.status).toBe('0000');
    expect((await upload(author, { templateNo: String(templateNo) })).status).toBe(ERR.templateNotDraft);
    expect((await approve(approver, templateNo, '1.1', 1)).body.status).toBe('0000');
    expect((await researcher.call(api.files.link, { fileId })).body.status).toBe('0000');

    const projectNo = await newProject();
    const note = await researcher.call(api.notes.create, { projectNo, title: 'With the gel', templateNo });
    const labNoteNo = note.body.data.labNoteNo;
    const noteFiles = await server.database.db.select().from(files).where(eq(files.noteNo, labNoteNo));
    expect(noteFiles).toHaveLength(1);
    const [templateFile] = await server.database.db.select().from(files).where(eq(files.fileId, fileId));
    expect(noteFiles[0]).toMatchObject({ templateNo: null, sha256: templateFile?.sha256, storagePath: templateFile?.storagePath });
    expect(noteFiles[0]?.fileId).not.toBe(fileId);
    const noteDoc = new Y.Doc();
    Y.applyUpdate(noteDoc, (await new DatabaseDocumentStore(server.database).load(noteDocumentName(labNoteNo)))!);
    const images = noteDoc
      .getXmlFragment('default')
      .toArray()
      .filter((node): node is Y.XmlElement => node instanceof Y.XmlElement && node.nodeName === 'image');
    expect(images.map((image) => image.getAttribute('fileId'))).toEqual([noteFiles[0]?.fileId]);
    expect((await researcher.call(api.files.link, { fileId: noteFiles[0]!.fileId })).body.status).toBe('0000');

    // Deleting the template leaves the note's copy readable, and the template's own file unreadable to others.
    expect((await author.call(api.templates.delete, { templateNo })).body.status).toBe('0000');
    expect((await researcher.call(api.files.link, { fileId: noteFiles[0]!.fileId })).body.status).toBe('0000');
    expect((await researcher.call(api.files.link, { fileId })).body.status).toBe(ERR.notFound);
  });
});
