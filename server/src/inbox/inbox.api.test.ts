import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import {
  ADMIN_LEVEL,
  api,
  ERR,
  LIMITS,
  noteDocumentName,
  templateDocumentName,
  type InboxRequest,
  type InboxSection,
  type InboxSectionAnswer,
} from '@eln/shared';
import { recentOpens } from '../db/schema.js';
import { startTestServer, type TestServer, type TestPerson } from '../testing/harness.js';
import { appendParagraph, connectWriter, eventually, type LiveClient } from '../testing/live.js';

/**
 * The home's sections (`/v1/inbox`) through the API, on each database the suite runs against: what each
 * lists and in which order, its pages, and that it lists only what its caller may read now (someone
 * removed from a project stops seeing its items in every section; an administrator; nobody sees another's).
 */

let server: TestServer;
let url: string;
type Person = TestPerson;
let leader: Person;
let writer: Person;
let signer: Person;
let reviewer: Person;
let outsider: Person;
let author: Person;
let approver: Person;
let admin: Person;
let projectNo: number;
const clients: LiveClient[] = [];

const FLAGS = { project: 'Y', schema: 'Y', dropbox: 'N', template: 'N' } as const;

const person = (name: string, options: { template?: boolean; level?: number } = {}): Promise<Person> =>
  server.person({ name, level: options.level ?? 1, auth: { ...FLAGS, template: options.template ? 'Y' : 'N' } });

beforeAll(async () => {
  server = await startTestServer();
  url = await server.listen();
  leader = await person('Leader Lim');
  writer = await person('Writer Woo');
  signer = await person('Signer Seo');
  reviewer = await person('Reviewer Ryu');
  outsider = await person('Outsider Oh');
  author = await person('Author Ahn', { template: true });
  approver = await person('Approver Bae', { template: true });
  admin = await person('Admin Kang', { level: ADMIN_LEVEL });
  projectNo = await newProject('Home project', [writer, signer, reviewer]);
});
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});
afterAll(async () => {
  await server?.stop();
});

async function newProject(title: string, members: Person[], by: Person = leader): Promise<number> {
  const created = await by.call(api.projects.create, {
    title,
    signatureList: { department: '', user: [by, ...members].map((p) => p.user.userId).join(',') },
  });
  expect(created.body.status).toBe('0000');
  return created.body.data.projectNo;
}

async function section<S extends InboxSection>(
  who: Person,
  body: Extract<InboxRequest, { section: S }> | { section: S; [key: string]: unknown },
): Promise<InboxSectionAnswer<S>> {
  const answer = await who.call(api.inbox.section, body);
  expect(answer.body.status, JSON.stringify(answer.body)).toBe('0000');
  expect(answer.body.data.section).toBe(body.section);
  return answer.body.data as InboxSectionAnswer<S>;
}

/** Writes a paragraph into the note's live document as `who` and waits until it is stored. */
async function edit(who: Person, labNoteNo: number, text: string) {
  const editor = await connectWriter(url, noteDocumentName(labNoteNo), who.token);
  clients.push(editor);
  appendParagraph(editor.doc, text);
  await eventually(() => editor.allDurable(), 'the edit to be stored');
}

async function createNote(title: string, inProject = projectNo, by: Person = writer): Promise<number> {
  const created = await by.call(api.notes.create, { projectNo: inProject, title });
  expect(created.body.status).toBe('0000');
  return created.body.data.labNoteNo;
}

/** A note by `by` with one saved version. */
async function savedNote(title: string, inProject = projectNo, by: Person = writer): Promise<number> {
  const labNoteNo = await createNote(title, inProject, by);
  await edit(by, labNoteNo, `Result of ${title}`);
  const saved = await by.call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
  expect(saved.body.status).toBe('0000');
  return labNoteNo;
}

const tempSave = async (who: Person, labNoteNo: number) => {
  const blocks = (await who.call(api.notes.blockList, { labNoteNo })).body.data.blockList;
  expect((await who.call(api.notes.saveDraft, { labNoteNo, blockList: blocks })).body.status).toBe('0000');
};

const request = (by: Person, labNoteNo: number, signers: Array<[Person, 'reviewer' | 'participant']>) =>
  by.call(api.signatures.request, { labNoteNo, signers: signers.map(([p, type]) => ({ userId: p.user.userId, type })) });

const respond = (who: Person, labNoteNo: number, status: 'T' | 'F', description = '') =>
  who.call(api.signatures.respond, { labNoteNo, status, password: who.user.password, name: who.user.name, description });

const signatureIdOf = async (labNoteNo: number, of: Person) =>
  (await leader.call(api.notes.blockList, { labNoteNo })).body.data.note.signatureList.find((s) => s.userId === of.user.userId)
    ?.signatureId as number;

const noteNos = (answer: InboxSectionAnswer<'notes'>) => answer.list.map((item) => item.note.labNoteNo);

describe('signatures waiting for me', () => {
  it('lists the requests asked of the signer with the note, project, who asked, since when and the meaning, newest first', async () => {
    const first = await savedNote('Asked by the writer');
    const second = await savedNote('Asked by the leader');
    expect((await request(writer, first, [[signer, 'participant']])).body.status).toBe('0000');
    expect((await request(leader, second, [[signer, 'reviewer']])).body.status).toBe('0000');

    const mine = await section(signer, { section: 'signatures' });
    const shown = mine.list.filter((item) => [first, second].includes(item.note.labNoteNo));
    expect(shown.map((item) => [item.kind, item.note.labNoteNo, item.meaning, item.by.name, item.project.title, item.path])).toEqual([
      ['request', second, 'reviewer', 'Leader Lim', 'Home project', `/note/${second}`],
      ['request', first, 'participant', 'Writer Woo', 'Home project', `/note/${first}`],
    ]);
    expect(shown[0]!.note.title).toBe('Asked by the leader');
    expect(shown[0]!.note.labNoteNumber).toMatch(/^LN-\d{4}-\d+$/);
    expect(Date.parse(shown[0]!.at)).toBeGreaterThanOrEqual(Date.parse(shown[1]!.at));
    expect(mine.totalCount).toBe(mine.list.length);

    // Nobody else is asked: not the writer who asked, not the leader, not someone outside, not an administrator.
    for (const other of [writer, leader, outsider, admin]) {
      const theirs = await section(other, { section: 'signatures' });
      expect(theirs.list.filter((item) => item.kind === 'request' && [first, second].includes(item.note.labNoteNo))).toEqual([]);
    }
  });

  it('pages newest first with the count of every item', async () => {
    const all = await section(signer, { section: 'signatures', pageSize: 100 });
    expect(all.totalCount).toBeGreaterThanOrEqual(2);
    const pages = [];
    for (let page = 1; page <= all.totalCount; page += 1) {
      const one = await section(signer, { section: 'signatures', page, pageSize: 1 });
      expect(one.totalCount).toBe(all.totalCount);
      pages.push(...one.list);
    }
    expect(pages).toEqual(all.list);
    expect(await section(signer, { section: 'signatures', page: all.totalCount + 1, pageSize: 1 })).toMatchObject({
      list: [],
      totalCount: all.totalCount,
    });
  });

  it('leaves a request once it is answered, and returns a declined note to its writer with the reason until the leader removes it', async () => {
    const labNoteNo = await savedNote('To be declined');
    expect((await request(writer, labNoteNo, [[reviewer, 'reviewer']])).body.status).toBe('0000');
    expect((await section(reviewer, { section: 'signatures' })).list.map((item) => item.note.labNoteNo)).toContain(labNoteNo);
    expect((await respond(reviewer, labNoteNo, 'F', 'Add the controls')).body.status).toBe('0000');
    expect((await section(reviewer, { section: 'signatures' })).list.map((item) => item.note.labNoteNo)).not.toContain(labNoteNo);

    const returned = (await section(writer, { section: 'signatures' })).list.filter((item) => item.note.labNoteNo === labNoteNo);
    expect(returned).toMatchObject([{ kind: 'declined', meaning: 'reviewer', by: { name: 'Reviewer Ryu' }, reason: 'Add the controls' }]);
    // Only to those who write it.
    expect((await section(leader, { section: 'signatures' })).list.filter((item) => item.note.labNoteNo === labNoteNo)).toEqual([]);

    const removed = await leader.call(api.signatures.remove, {
      labNoteNo,
      signatureId: await signatureIdOf(labNoteNo, reviewer),
      reason: 'Asking someone else',
    });
    expect(removed.body.status).toBe('0000');
    expect((await section(writer, { section: 'signatures' })).list.filter((item) => item.note.labNoteNo === labNoteNo)).toEqual([]);
  });
});

describe('templates waiting for me', () => {
  const FLAGGED = () => [author, approver];
  let titles = 0;
  async function checkedIn(by: Person = author, writers: Person[] = [by]): Promise<number> {
    const created = await by.call(api.templates.create, { title: `Home template ${++titles}` });
    const templateNo = created.body.data.templateNo;
    for (const who of writers) {
      const client = await connectWriter(url, templateDocumentName(templateNo), who.token);
      clients.push(client);
      appendParagraph(client.doc, `Step by ${who.user.name}`);
      await eventually(() => client.allDurable(), 'the template edit to be stored');
    }
    expect((await by.call(api.templates.checkIn, { templateNo, version: 0, blockList: [] })).body.status).toBe('0000');
    return templateNo;
  }
  const approvals = async (who: Person) =>
    (await section(who, { section: 'templates', pageSize: 100 })).list.filter((item) => item.kind === 'approve').map((i) => i.templateNo);

  it('lists a checked-in template to those who may approve it, as the template list’s abilities say, and to nobody else', async () => {
    const templateNo = await checkedIn();
    const waiting = (await section(approver, { section: 'templates' })).list.find((item) => item.templateNo === templateNo);
    expect(waiting).toMatchObject({
      kind: 'approve',
      revision: 1,
      by: { name: 'Author Ahn' },
      reason: null,
      path: `/template/note/${templateNo}`,
    });
    expect(await approvals(admin)).toContain(templateNo);
    expect(await approvals(author)).not.toContain(templateNo);
    // Without the template flag there is nothing to approve.
    expect(await section(writer, { section: 'templates' })).toEqual({ section: 'templates', list: [], totalCount: 0 });
    for (const who of [...FLAGGED(), admin]) {
      const listed = (await who.call(api.templates.list, { pageSize: 100 })).body.data.list;
      expect((await approvals(who)).sort()).toEqual(
        listed
          .filter((t) => t.abilities.approve)
          .map((t) => t.templateNo)
          .sort(),
      );
    }
  });

  it('keeps a template from whoever wrote in its revision (the two-person rule)', async () => {
    const templateNo = await checkedIn(author, [author, admin]);
    expect(await approvals(admin)).not.toContain(templateNo);
    expect(await approvals(approver)).toContain(templateNo);
  });

  it('returns a sent-back template to its author with who sent it back and why, until it is checked in again', async () => {
    const templateNo = await checkedIn();
    const sentBack = await approver.call(api.templates.sendBack, { templateNo, revision: 1, reason: 'Add the waste step' });
    expect(sentBack.body.status).toBe('0000');
    expect(await approvals(approver)).not.toContain(templateNo);
    const returned = (await section(author, { section: 'templates' })).list.find((item) => item.templateNo === templateNo);
    expect(returned).toMatchObject({ kind: 'returned', revision: 1, by: { name: 'Approver Bae' }, reason: 'Add the waste step' });
    expect((await section(approver, { section: 'templates', pageSize: 100 })).list.map((i) => i.templateNo)).not.toContain(templateNo);

    expect((await author.call(api.templates.checkIn, { templateNo, version: 1, blockList: [] })).body.status).toBe('0000');
    expect((await section(author, { section: 'templates', pageSize: 100 })).list.map((i) => i.templateNo)).not.toContain(templateNo);
    expect(await approvals(approver)).toContain(templateNo);
  });
});

describe('my notes', () => {
  it('lists notes never saved and changed since their last version, with open requests, the last changed first', async () => {
    const fresh = await createNote('Never saved');
    const changed = await savedNote('Changed since');
    const done = await savedNote('Saved and done');
    const requested = await savedNote('Waiting for signatures');
    expect((await request(writer, requested, [[signer, 'participant']])).body.status).toBe('0000');
    await edit(writer, changed, 'One more result');
    await tempSave(writer, changed);

    const mine = await section(writer, { section: 'notes', pageSize: 100 });
    const byNo = new Map(mine.list.map((item) => [item.note.labNoteNo, item]));
    expect(byNo.get(fresh)).toMatchObject({ unsaved: 'neverSaved', version: 0, pendingSignatures: 0, status: 'W', path: `/note/${fresh}` });
    expect(byNo.get(changed)).toMatchObject({ unsaved: 'changedSinceSave', version: 1, pendingSignatures: 0 });
    expect(byNo.get(requested)).toMatchObject({ unsaved: null, pendingSignatures: 1, status: 'R' });
    expect(byNo.has(done)).toBe(false);
    expect(mine.totalCount).toBe(mine.list.length);
    const order = noteNos(mine).filter((no) => [fresh, changed, requested].includes(no));
    expect(order).toEqual([changed, requested, fresh]);
    const times = mine.list.map((item) => Date.parse(item.changedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // The leader reads them but writes none; nobody else writes them either.
    for (const other of [leader, outsider, admin]) expect(noteNos(await section(other, { section: 'notes' }))).not.toContain(fresh);

    // Saving the version ends "changed since"; answering the request ends "waiting".
    expect((await writer.call(api.notes.saveVersion, { labNoteNo: changed, version: 1, blockList: [] })).body.status).toBe('0000');
    expect((await respond(signer, requested, 'T')).body.status).toBe('0000');
    const after = noteNos(await section(writer, { section: 'notes', pageSize: 100 }));
    expect(after).toContain(fresh);
    expect(after).not.toContain(changed);
    expect(after).not.toContain(requested);
  });

  it('lists a note to a co-writer, whose live edits made them one of its writers', async () => {
    const labNoteNo = await savedNote('Written together');
    await edit(signer, labNoteNo, 'A paragraph by the co-writer');
    expect(noteNos(await section(signer, { section: 'notes', pageSize: 100 }))).not.toContain(labNoteNo);
    await tempSave(signer, labNoteNo);
    const theirs = (await section(signer, { section: 'notes', pageSize: 100 })).list.find((item) => item.note.labNoteNo === labNoteNo);
    expect(theirs).toMatchObject({ unsaved: 'changedSinceSave' });
    expect(noteNos(await section(writer, { section: 'notes', pageSize: 100 }))).toContain(labNoteNo);
  });

  it('pages, and leaves out deleted notes', async () => {
    const labNoteNo = await createNote('Deleted draft');
    const all = await section(writer, { section: 'notes', pageSize: 100 });
    expect(noteNos(all)).toContain(labNoteNo);
    const second = await section(writer, { section: 'notes', page: 2, pageSize: 2 });
    expect(second.list).toEqual(all.list.slice(2, 4));
    expect(second.totalCount).toBe(all.totalCount);
    // A page past the last still says how many there are.
    expect(await section(writer, { section: 'notes', page: all.totalCount + 1, pageSize: 1 })).toMatchObject({
      list: [],
      totalCount: all.totalCount,
    });
    expect((await writer.call(api.notes.delete, { labNoteNo })).body.status).toBe('0000');
    const left = await section(writer, { section: 'notes', pageSize: 100 });
    expect(noteNos(left)).not.toContain(labNoteNo);
    expect(left.totalCount).toBe(all.totalCount - 1);
  });
});

describe('recently opened', () => {
  let curatorType: number;

  beforeAll(async () => {
    const created = await writer.call(api.schemas.create, { code: 'HOME-REAGENT', title: 'Home reagents', schemas: [] });
    expect(created.body.status).toBe('0000');
    curatorType = created.body.data.schemasTypeNo;
  });

  it('lists the notes, templates and schema types opened, newest first, each with its place; opening again moves it up', async () => {
    const labNoteNo = await savedNote('Opened note');
    const templateNo = (await author.call(api.templates.create, { title: 'Opened template' })).body.data.templateNo;
    expect((await signer.call(api.notes.viewer, { labNoteNo })).body.status).toBe('0000');
    expect((await author.call(api.templates.editor, { templateNo })).body.status).toBe('0000');
    expect((await signer.call(api.schemas.detail, { schemasTypeNo: curatorType })).body.status).toBe('0000');

    const opened = await section(signer, { section: 'recent' });
    expect(opened.list.map((item) => [item.kind, item.no, item.title, item.path])).toEqual([
      ['schema', curatorType, 'Home reagents', `/schema/${curatorType}`],
      ['note', labNoteNo, 'Opened note', `/note/${labNoteNo}`],
    ]);
    expect(opened.list[1]).toMatchObject({ projectTitle: 'Home project', number: expect.stringMatching(/^LN-/) as string });
    expect((await section(author, { section: 'recent' })).list.map((item) => [item.kind, item.no, item.path])).toEqual([
      ['template', templateNo, `/template/note/${templateNo}`],
    ]);

    expect((await signer.call(api.notes.viewer, { labNoteNo })).body.status).toBe('0000');
    expect((await section(signer, { section: 'recent' })).list.map((item) => item.kind)).toEqual(['note', 'schema']);
    // A refused open records nothing.
    expect((await outsider.call(api.notes.viewer, { labNoteNo })).body.status).toBe(ERR.noteMissing);
    expect((await section(outsider, { section: 'recent' })).list).toEqual([]);
  });

  it('shows at most LIMITS.homeRecent and keeps at most LIMITS.recentOpensKept a person', async () => {
    const db = server.database.db;
    const long = Date.now() - 86_400_000;
    await db.insert(recentOpens).values(
      Array.from({ length: LIMITS.recentOpensKept + 10 }, (_, i) => ({
        userNo: reviewer.user.userNo,
        kind: 'schema' as const,
        recordNo: curatorType + 1000 + i,
        openedAt: new Date(long + i * 1000),
      })),
    );
    expect((await reviewer.call(api.schemas.detail, { schemasTypeNo: curatorType })).body.status).toBe('0000');
    const [kept] = await db.select({ n: count() }).from(recentOpens).where(eq(recentOpens.userNo, reviewer.user.userNo));
    expect(Number(kept?.n)).toBe(LIMITS.recentOpensKept);
    // Records that do not exist (or may no longer be read) are not listed.
    expect((await section(reviewer, { section: 'recent' })).list.map((item) => item.no)).toEqual([curatorType]);

    const notes: number[] = [];
    for (let i = 0; i < LIMITS.homeRecent + 2; i += 1) notes.push(await createNote(`Many ${i}`));
    for (const labNoteNo of notes) expect((await reviewer.call(api.notes.viewer, { labNoteNo })).body.status).toBe('0000');
    const shown = await section(reviewer, { section: 'recent' });
    expect(shown.list.map((item) => item.no)).toEqual(notes.slice(-LIMITS.homeRecent).reverse());
  });

  it('drops a deleted note and a template the reader may no longer see', async () => {
    const labNoteNo = await createNote('Opened then deleted');
    expect((await writer.call(api.notes.viewer, { labNoteNo })).body.status).toBe('0000');
    expect((await section(writer, { section: 'recent' })).list[0]).toMatchObject({ kind: 'note', no: labNoteNo });
    expect((await writer.call(api.notes.delete, { labNoteNo })).body.status).toBe('0000');
    expect((await section(writer, { section: 'recent' })).list.map((item) => item.no)).not.toContain(labNoteNo);

    const templateNo = (await author.call(api.templates.create, { title: 'Opened then deleted' })).body.data.templateNo;
    expect((await author.call(api.templates.editor, { templateNo })).body.status).toBe('0000');
    expect((await author.call(api.templates.delete, { templateNo })).body.status).toBe('0000');
    expect((await section(author, { section: 'recent' })).list.map((item) => item.no)).not.toContain(templateNo);
  });
});

describe('in my projects', () => {
  let closedProject: number;
  let signedNote: number;
  let removedNote: number;
  let approvedTemplate: number;

  beforeAll(async () => {
    closedProject = await newProject('Closed project', [writer, reviewer]);
    signedNote = await savedNote('Signed note', closedProject);
    removedNote = await savedNote('Removed signature', closedProject);
    await request(writer, signedNote, [[reviewer, 'reviewer']]);
    await request(writer, removedNote, [[reviewer, 'participant']]);
    expect((await respond(reviewer, signedNote, 'T')).body.status).toBe('0000');
    expect((await respond(reviewer, removedNote, 'T')).body.status).toBe('0000');
    const removal = await leader.call(api.signatures.remove, {
      labNoteNo: removedNote,
      signatureId: await signatureIdOf(removedNote, reviewer),
      reason: 'Signed the wrong version',
    });
    expect(removal.body.status).toBe('0000');
    expect((await leader.call(api.projects.finish, { projectNo: closedProject })).body.status).toBe('0000');
    approvedTemplate = (await author.call(api.templates.create, { title: 'Approved for the feed' })).body.data.templateNo;
    const client = await connectWriter(url, templateDocumentName(approvedTemplate), author.token);
    clients.push(client);
    appendParagraph(client.doc, 'Weigh');
    await eventually(() => client.allDurable(), 'stored');
    await author.call(api.templates.checkIn, { templateNo: approvedTemplate, version: 0, blockList: [] });
    const approved = await approver.call(api.templates.approve, {
      templateNo: approvedTemplate,
      version: '1.1',
      revision: 1,
      password: approver.user.password,
    });
    expect(approved.body.status).toBe('0000');
  });

  const feed = async (who: Person, pageSize = 100) => (await section(who, { section: 'activity', pageSize })).list;

  it('shows notes created, versions saved, signatures given and removed, the project closed and templates approved, newest first', async () => {
    const events = await feed(writer);
    const ofClosed = events.filter((item) => item.project?.projectNo === closedProject || item.template?.templateNo === approvedTemplate);
    expect(ofClosed.map((item) => [item.event, item.note?.title ?? item.project?.title ?? item.template?.title, item.actor])).toEqual([
      ['templateApproved', 'Approved for the feed', 'Approver Bae'],
      ['projectClosed', 'Closed project', 'Leader Lim'],
      ['signatureRemoved', 'Removed signature', 'Leader Lim'],
      ['signatureGiven', 'Removed signature', 'Reviewer Ryu'],
      ['signatureGiven', 'Signed note', 'Reviewer Ryu'],
      ['versionSaved', 'Removed signature', 'Writer Woo'],
      ['noteCreated', 'Removed signature', 'Writer Woo'],
      ['versionSaved', 'Signed note', 'Writer Woo'],
      ['noteCreated', 'Signed note', 'Writer Woo'],
    ]);
    const [approved, closed, removal, given] = ofClosed;
    expect(approved).toMatchObject({ version: '1.1', path: `/template/note/${approvedTemplate}` });
    expect(closed).toMatchObject({ path: `/project/${closedProject}`, note: null });
    expect(removal).toMatchObject({
      signer: 'Reviewer Ryu',
      meaning: 'participant',
      reason: 'Signed the wrong version',
      path: `/note/${removedNote}`,
    });
    expect(given).toMatchObject({ meaning: 'participant', version: '1', project: { projectNo: closedProject, title: 'Closed project' } });
    expect(ofClosed.find((item) => item.event === 'versionSaved')).toMatchObject({ version: '1' });
    const seqs = events.map((item) => item.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
  });

  it('pages by the cursor through the same events', async () => {
    const all = await feed(writer);
    const paged = [];
    let before: number | undefined;
    for (;;) {
      const page = await section(writer, { section: 'activity', pageSize: 3, ...(before ? { before } : {}) });
      paged.push(...page.list);
      if (page.next === null) break;
      expect(page.list).toHaveLength(3);
      before = page.next;
    }
    expect(paged).toEqual(all);
  });

  it('shows nobody the events of projects they do not read, but approved templates to everyone', async () => {
    const theirs = await feed(outsider);
    expect(theirs.filter((item) => item.project !== null)).toEqual([]);
    expect(theirs.map((item) => item.template?.templateNo)).toContain(approvedTemplate);
    // An administrator reads every project: the same events, found by reading the trail by action.
    const everything = await feed(admin);
    const mine = await feed(writer);
    expect(everything.filter((item) => mine.some((m) => m.seq === item.seq))).toEqual(mine);
    const otherProject = await newProject('Outsider project', [], outsider);
    const hidden = await savedNote('Outsider note', otherProject, outsider);
    expect((await feed(admin)).map((item) => item.note?.labNoteNo)).toContain(hidden);
    expect((await feed(writer)).map((item) => item.note?.labNoteNo)).not.toContain(hidden);
  });

  it('drops the events of a deleted note, for its readers and administrators alike', async () => {
    const labNoteNo = await savedNote('Deleted after saving');
    expect((await feed(writer)).filter((item) => item.note?.labNoteNo === labNoteNo)).toHaveLength(2);
    expect((await writer.call(api.notes.delete, { labNoteNo })).body.status).toBe('0000');
    for (const who of [writer, leader, admin]) expect((await feed(who)).filter((item) => item.note?.labNoteNo === labNoteNo)).toEqual([]);
  });
});

describe('someone removed from a project', () => {
  it('stops seeing its requests, notes, opened notes and events in every section at once', async () => {
    const member = await person('Member Moon');
    const shared = await newProject('Shared for a while', [writer, member]);
    const asked = await savedNote('Asked of the member', shared);
    expect((await request(writer, asked, [[member, 'participant']])).body.status).toBe('0000');
    const coWritten = await savedNote('Co-written by the member', shared);
    await edit(member, coWritten, 'The member wrote this');
    await tempSave(member, coWritten);
    expect((await member.call(api.notes.viewer, { labNoteNo: asked })).body.status).toBe('0000');

    const inShared = async () => ({
      signatures: (await section(member, { section: 'signatures' })).list.map((item) => item.note.labNoteNo),
      notes: noteNos(await section(member, { section: 'notes' })),
      recent: (await section(member, { section: 'recent' })).list.map((item) => item.no),
      activity: (await section(member, { section: 'activity', pageSize: 100 })).list.filter((item) => item.project?.projectNo === shared)
        .length,
    });
    expect(await inShared()).toEqual({ signatures: [asked], notes: [coWritten], recent: [asked], activity: 4 });

    const update = await leader.call(api.projects.update, {
      projectNo: shared,
      signatureList: { department: '', user: [leader, writer].map((p) => p.user.userId).join(',') },
    });
    expect(update.body.status).toBe('0000');
    expect(await inShared()).toEqual({ signatures: [], notes: [], recent: [], activity: 0 });
    // Those still in it see it all.
    expect(
      (await section(writer, { section: 'activity', pageSize: 100 })).list.filter((i) => i.project?.projectNo === shared),
    ).toHaveLength(4);
  });
});

describe('refusals', () => {
  it.each([
    ['no section', {}],
    ['an unknown section', { section: 'everything' }],
    ['an unknown field', { section: 'signatures', filter: 'x' }],
    ['a page size of 0', { section: 'notes', pageSize: 0 }],
    ['a page size over the limit', { section: 'templates', pageSize: 101 }],
    ['page 0', { section: 'signatures', page: 0 }],
    ['a page for the recent list', { section: 'recent', page: 2 }],
    ['a cursor of 0', { section: 'activity', before: 0 }],
    ['a cursor that is not a whole number', { section: 'activity', before: 1.5 }],
    ['a page for the activity (it takes a cursor)', { section: 'activity', page: 2 }],
  ])('refuses %s (9001)', async (_, body) => {
    const refused = await writer.call(api.inbox.section, body);
    expect(refused.http).toBe(400);
    expect(refused.body.status).toBe(ERR.validation);
  });

  it('answers nothing without a session (1002)', async () => {
    const refused = await server.call(api.inbox.section, { section: 'notes' });
    expect(refused.http).toBe(401);
    expect(refused.body.status).toBe(ERR.sessionEnded);
  });
});
