import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import * as Y from 'yjs';
import {
  api,
  CONTENT_FIELD,
  ERR,
  NOTE_STATUS,
  PROJECT_STATUS,
  noteDocumentName,
  templateDocumentName,
  type BlockChange,
  type NoteVersionListAnswer,
  type ValidationErrorData,
} from '@eln/shared';
import { auditLog, labNotes, noteVersions, projects } from '../db/schema.js';
import { startTestServer, type Caller, type NewUser, type TestServer, type TestPerson } from '../testing/harness.js';
import { appendParagraph, connectWriter, eventually, paragraphTexts, tagsOfState, type LiveClient } from '../testing/live.js';
import { DatabaseDocumentStore } from '../collab/persistence/documentStore.js';
import { fillMissingChanges } from './versionChanges.js';

/*
 * The note history's calls: versions listed with what changed in each, compared with each other and with
 * the live document, on whatever note the caller may read, and refused on any other.
 */

let server: TestServer;
let url: string;
type Person = TestPerson;
let leader: Person;
let writer: Person;
let colleague: Person;
let reviewer: Person;
let outsider: Person;
let projectNo: number;
const clients: LiveClient[] = [];

const person = (user: NewUser & { userNo: number }): Promise<Person> => server.signedIn(user);

const ISO_IN_SEOUL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+09:00$/;

beforeAll(async () => {
  server = await startTestServer({ config: { timeZone: 'Asia/Seoul' } });
  url = await server.listen();
  const users = await Promise.all(
    ['Leader Lee', 'Writer Woo', 'Colleague Cho', 'Reviewer Ryu', 'Outsider Oh'].map((name) => server.createUser({ name })),
  );
  [leader, writer, colleague, reviewer, outsider] = (await Promise.all(users.map(person))) as [Person, Person, Person, Person, Person];
  const created = await leader.call(api.projects.create, {
    title: 'History',
    signatureList: { department: '', user: [writer, colleague, reviewer].map((p) => p.user.userId).join(',') },
  });
  projectNo = created.body.data.projectNo;
});
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});
afterAll(async () => {
  await server?.stop();
});

/** A note with a writer connected to its live document. */
async function openNote(title: string, inProject = projectNo): Promise<{ labNoteNo: number; editor: LiveClient }> {
  const { labNoteNo } = (await writer.call(api.notes.create, { projectNo: inProject, title })).body.data;
  return { labNoteNo, editor: await connect(writer, labNoteNo) };
}

/** Another editor (or tab) on a note's live document, closed after the test. */
async function connect(who: Person, labNoteNo: number): Promise<LiveClient> {
  const editor = await connectWriter(url, noteDocumentName(labNoteNo), who.token);
  clients.push(editor);
  return editor;
}

const fragment = (editor: LiveClient) => editor.doc.getXmlFragment(CONTENT_FIELD);
const indexOf = (editor: LiveClient, uid: string) =>
  fragment(editor)
    .toArray()
    .findIndex((node) => node instanceof Y.XmlElement && node.getAttribute('blockUid') === uid);

function setText(editor: LiveClient, uid: string, text: string): void {
  const paragraph = fragment(editor).get(indexOf(editor, uid)) as Y.XmlElement;
  editor.doc.transact(() => {
    paragraph.delete(0, paragraph.length);
    paragraph.insert(0, [new Y.XmlText(text)]);
  });
}

function removeBlock(editor: LiveClient, uid: string): void {
  fragment(editor).delete(indexOf(editor, uid), 1);
}

/** Moves a block as the editor does: the same node, with its ID, deleted and inserted elsewhere. */
function moveBlock(editor: LiveClient, uid: string, to: number): void {
  const from = indexOf(editor, uid);
  const copy = (fragment(editor).get(from) as Y.XmlElement).clone();
  editor.doc.transact(() => {
    fragment(editor).delete(from, 1);
    fragment(editor).insert(to, [copy]);
  });
}

async function save(labNoteNo: number, editor: LiveClient, version: number, who: Person = writer): Promise<string> {
  await eventually(() => editor.allDurable(), 'the edits to be stored');
  const saved = await who.call(api.notes.saveVersion, { labNoteNo, version, blockList: [] });
  expect(saved.body.status).toBe('0000');
  return saved.body.data.blocksHash;
}

const listOf = async (who: Person, labNoteNo: number): Promise<NoteVersionListAnswer> => {
  const answer = await who.call(api.noteHistory.list, { labNoteNo });
  expect(answer.body.status).toBe('0000');
  return answer.body.data;
};

const kinds = (changes: BlockChange[]) => changes.map((c) => `${c.kind}${c.moved && c.kind !== 'moved' ? '+moved' : ''}:${c.blockUid}`);

/** A note saved three times: v1 three paragraphs; v2 one edited, one added; v3 one removed, one moved to the top. */
async function noteWithThreeVersions(title: string, inProject = projectNo) {
  const { labNoteNo, editor } = await openNote(title, inProject);
  const [a, b, c] = ['Aim: measure the rate.', 'Buffer at pH 7.0.', 'Conclusion pending.'].map((text) => appendParagraph(editor.doc, text));
  const hashes = [await save(labNoteNo, editor, 0)];
  setText(editor, b!, 'Buffer at pH 7.4.');
  const d = appendParagraph(editor.doc, 'Dispose of waste.');
  hashes.push(await save(labNoteNo, editor, 1));
  removeBlock(editor, a!);
  moveBlock(editor, c!, 0);
  hashes.push(await save(labNoteNo, editor, 2));
  return { labNoteNo, editor, hashes, uids: { a: a!, b: b!, c: c!, d } };
}

describe('the version list', () => {
  it('lists every version newest first, with who saved it when (with offset), its SHA-256 and what changed', async () => {
    const { labNoteNo, hashes } = await noteWithThreeVersions('Three saves');
    const answer = await listOf(colleague, labNoteNo);
    expect(answer).toMatchObject({ labNoteNo, template: null, totalCount: 3 });
    expect(answer.list.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(answer.list.map((v) => v.blocksHash)).toEqual([...hashes].reverse());
    for (const entry of answer.list) {
      expect(entry.savedBy).toEqual({ userId: writer.user.userId, name: 'Writer Woo' });
      expect(entry.savedAt).toMatch(ISO_IN_SEOUL);
      expect(entry.signatures).toEqual([]);
    }
    expect(answer.list.map((v) => v.changes)).toEqual([
      { added: 0, changed: 0, removed: 1, moved: 1, unchanged: 2 },
      { added: 1, changed: 1, removed: 0, moved: 0, unchanged: 2 },
      { added: 3, changed: 0, removed: 0, moved: 0, unchanged: 0 },
    ]);
    const [stored] = await server.database.db
      .select({ savedAt: noteVersions.savedAt })
      .from(noteVersions)
      .where(and(eq(noteVersions.noteNo, labNoteNo), eq(noteVersions.version, 3)));
    expect(new Date(answer.list[0]!.savedAt).getTime()).toBe(stored!.savedAt.getTime());
  });

  it('works out the changes of versions stored without them, and the backfill stores the same', async () => {
    const { labNoteNo } = await noteWithThreeVersions('Stored before the column');
    const before = await listOf(writer, labNoteNo);
    await server.database.db.update(noteVersions).set({ changes: null }).where(eq(noteVersions.noteNo, labNoteNo));
    expect((await listOf(writer, labNoteNo)).list).toEqual(before.list);
    const detail = await writer.call(api.noteHistory.detail, { labNoteNo, version: 2 });
    expect(detail.body.data.changes).toEqual(before.list[1]!.changes);

    while ((await fillMissingChanges(server.database.db)) > 0);
    const stored = await server.database.db
      .select({ version: noteVersions.version, changes: noteVersions.changes })
      .from(noteVersions)
      .where(eq(noteVersions.noteNo, labNoteNo));
    expect(stored.sort((x, y) => y.version - x.version).map((row) => row.changes)).toEqual(before.list.map((v) => v.changes));
  });

  it('shows the signatures bound to each version, and a removed one as removed, with its reason', async () => {
    const { labNoteNo, editor } = await openNote('Signed twice');
    appendParagraph(editor.doc, 'Result: 42.');
    await save(labNoteNo, editor, 0);
    const request = await writer.call(api.signatures.request, {
      labNoteNo,
      signers: [{ userId: reviewer.user.userId, type: 'reviewer' }],
    });
    expect(request.body.status).toBe('0000');
    const signed = await reviewer.call(api.signatures.respond, {
      labNoteNo,
      status: 'T',
      password: reviewer.user.password,
      name: 'R. Ryu',
      timeZone: 'Asia/Tokyo',
    });
    expect(signed.body.status).toBe('0000');
    const [signature] = (await listOf(writer, labNoteNo)).list[0]!.signatures;
    expect(signature).toMatchObject({
      signer: { userId: reviewer.user.userId, name: 'Reviewer Ryu' },
      meaning: 'reviewer',
      signatureName: 'R. Ryu',
      timeZone: 'Asia/Tokyo',
      removed: false,
      removedAt: null,
      removedReason: null,
    });
    expect(signature!.signedAt).toMatch(/\+09:00$/);

    const removed = await leader.call(api.signatures.remove, { labNoteNo, signatureId: signature!.signatureId, reason: 'wrong sample' });
    expect(removed.body.status).toBe('0000');
    // Writable again (signing closed the editor): a second version, which the removed signature is not bound to.
    const again = await connectWriter(url, noteDocumentName(labNoteNo), writer.token);
    clients.push(again);
    appendParagraph(again.doc, 'Result corrected: 41.');
    await save(labNoteNo, again, 1);
    const list = (await listOf(colleague, labNoteNo)).list;
    expect(list.map((v) => v.signatures.length)).toEqual([0, 1]);
    expect(list[1]!.signatures[0]).toMatchObject({ removed: true, removedReason: 'wrong sample' });
    expect(list[1]!.signatures[0]!.removedAt).toMatch(/\+09:00$/);
  });

  it('names the template revision a note started from', async () => {
    const templateFlags = { project: 'Y', schema: 'N', dropbox: 'N', template: 'Y' } as const;
    const author = await person(await server.createUser({ name: 'Template Tak', auth: templateFlags }));
    const approver = await person(await server.createUser({ name: 'Approver Ahn', auth: templateFlags }));
    const templateNo = (await author.call(api.templates.create, { title: 'Assay template' })).body.data.templateNo;
    const draft = await connectWriter(url, templateDocumentName(templateNo), author.token);
    clients.push(draft);
    appendParagraph(draft.doc, 'Template step');
    await eventually(() => draft.allDurable(), 'the template to be stored');
    expect((await author.call(api.templates.checkIn, { templateNo, version: 0, blockList: [] })).body.status).toBe('0000');
    const approved = await approver.call(api.templates.approve, {
      templateNo,
      version: '1.1',
      revision: 1,
      password: approver.user.password,
    });
    expect(approved.body.status).toBe('0000');
    const { labNoteNo } = (await writer.call(api.notes.create, { projectNo, title: 'From template', templateNo })).body.data;
    const answer = await listOf(writer, labNoteNo);
    expect(answer.template).toMatchObject({ templateNo, title: 'Assay template', revision: 1, version: '1.1' });
    expect(answer.template?.blocksHash).toMatch(/^[0-9a-f]{64}$/);
    expect(answer.list).toEqual([]);
  });
});

describe('comparing versions', () => {
  it('compares two saved versions block by block and word by word, in either order, and a version with itself', async () => {
    const { labNoteNo, uids } = await noteWithThreeVersions('Compared');
    const answer = await colleague.call(api.noteHistory.compare, { labNoteNo, from: 1, to: 3 });
    expect(answer.body.status).toBe('0000');
    const { from, to, changes, summary } = answer.body.data;
    expect(from).toMatchObject({ version: 1, savedBy: { name: 'Writer Woo' } });
    expect(to).toMatchObject({ version: 3, savedBy: { userId: writer.user.userId } });
    expect(to.savedAt).toMatch(ISO_IN_SEOUL);
    expect(kinds(changes)).toEqual([`moved:${uids.c}`, `removed:${uids.a}`, `changed:${uids.b}`, `added:${uids.d}`]);
    expect(summary).toEqual({ added: 1, changed: 1, removed: 1, moved: 1, unchanged: 0 });
    expect(changes[2]!.detail).toEqual({
      kind: 'text',
      parts: [
        { kind: 'same', text: 'Buffer at pH ' },
        { kind: 'removed', text: '7.0' },
        { kind: 'added', text: '7.4' },
        { kind: 'same', text: '.' },
      ],
      blockClass: null,
      formatting: false,
    });
    const backwards = (await colleague.call(api.noteHistory.compare, { labNoteNo, from: 3, to: 1 })).body.data;
    // Of the two blocks kept, one moved relative to the other: this way round, the edited one.
    expect(backwards.summary).toEqual({ added: 1, changed: 1, removed: 1, moved: 1, unchanged: 1 });
    expect(kinds(backwards.changes)).toContain(`added:${uids.a}`);
    const itself = (await colleague.call(api.noteHistory.compare, { labNoteNo, from: 2, to: 2 })).body.data;
    expect(itself.summary).toEqual({ added: 0, changed: 0, removed: 0, moved: 0, unchanged: 4 });
  });

  it('compares a version with the live document as the note screen derives it, unsaved edits included', async () => {
    const { labNoteNo, editor, uids } = await noteWithThreeVersions('Against live');
    setText(editor, uids.d, 'Dispose of waste in the red bin.');
    const e = appendParagraph(editor.doc, '결과: 용액이 노랗게 변했다.');
    await eventually(() => editor.allDurable(), 'the edits to be stored');
    const answer = (await writer.call(api.noteHistory.compare, { labNoteNo, from: 3, to: 'live' })).body.data;
    expect(answer.to).toEqual({ version: 'live', savedBy: null, savedAt: null, blocksHash: null });
    expect(kinds(answer.changes)).toEqual([`unchanged:${uids.c}`, `unchanged:${uids.b}`, `changed:${uids.d}`, `added:${e}`]);
    expect(answer.changes[2]!.detail).toMatchObject({
      kind: 'text',
      parts: [
        { kind: 'same', text: 'Dispose of waste' },
        { kind: 'added', text: ' in the red bin' },
        { kind: 'same', text: '.' },
      ],
    });
    // The live blocks are the note screen's own.
    const screen = (await writer.call(api.notes.blockList, { labNoteNo })).body.data.blockList;
    expect(answer.changes.map((c) => c.after?.content)).toEqual(screen.map((b) => b.content));
  });

  it('answers one version with its blocks, as the viewer shows the latest', async () => {
    const { labNoteNo, hashes } = await noteWithThreeVersions('Detail');
    const detail = (await colleague.call(api.noteHistory.detail, { labNoteNo, version: 3 })).body.data;
    expect(detail).toMatchObject({ version: 3, blocksHash: hashes[2], changes: { removed: 1, moved: 1 }, signatures: [] });
    const viewer = (await colleague.call(api.notes.viewer, { labNoteNo })).body.data;
    expect(detail.blockList).toEqual(viewer.blockList);
  });
});

describe('refusals', () => {
  it('refuses a version the note does not have (2040, 404), in every call that names one', async () => {
    const { labNoteNo } = await noteWithThreeVersions('Missing version');
    for (const [spec, body] of [
      [api.noteHistory.detail, { labNoteNo, version: 4 }],
      [api.noteHistory.compare, { labNoteNo, from: 4, to: 1 }],
      [api.noteHistory.compare, { labNoteNo, from: 1, to: 99 }],
      [api.noteHistory.compare, { labNoteNo, from: 9, to: 'live' }],
    ] as const) {
      const answer = await writer.call(spec, body);
      expect([answer.http, answer.body.status], JSON.stringify(body)).toEqual([404, ERR.versionMissing]);
    }
    const ko = await server.call(api.noteHistory.detail, { labNoteNo, version: 4 }, { token: writer.token, language: 'ko' });
    expect(ko.body.message).toBe('노트에 해당 저장 버전이 없습니다.');
    const ja = await server.call(api.noteHistory.detail, { labNoteNo, version: 4 }, { token: writer.token, language: 'ja' });
    expect(ja.body.message).toBe('このノートにその保存バージョンはありません。');
    // A note never saved has no versions at all.
    const { labNoteNo: unsaved } = await openNote('Never saved');
    expect((await listOf(writer, unsaved)).list).toEqual([]);
    expect((await writer.call(api.noteHistory.compare, { labNoteNo: unsaved, from: 1, to: 'live' })).body.status).toBe(ERR.versionMissing);
  });

  it('refuses bad input (9001): a version 0 or not a number, a `to` other than a number or "live", a missing note number', async () => {
    const { labNoteNo } = await openNote('Bad input');
    for (const [spec, body, field] of [
      [api.noteHistory.detail, { labNoteNo, version: 0 }, 'version'],
      [api.noteHistory.detail, { labNoteNo, version: '2' }, 'version'],
      [api.noteHistory.compare, { labNoteNo, from: 1, to: 'draft' }, 'to'],
      [api.noteHistory.compare, { labNoteNo, from: 1.5, to: 2 }, 'from'],
      [api.noteHistory.list, {}, 'labNoteNo'],
      [api.noteHistory.list, { labNoteNo, extra: 1 }, null],
    ] as const) {
      const answer = await writer.call<ValidationErrorData>(spec.path, body);
      expect([answer.http, answer.body.status], JSON.stringify(body)).toEqual([400, ERR.validation]);
      if (field) expect(answer.body.data.fields.map((f) => f.field)).toContain(field);
    }
  });

  it('refuses a note the caller cannot read as the note calls do: an outsider, a removed member, a deleted note', async () => {
    const { labNoteNo } = await noteWithThreeVersions('Who may read');
    const calls = [
      [api.noteHistory.list, { labNoteNo }],
      [api.noteHistory.detail, { labNoteNo, version: 1 }],
      [api.noteHistory.compare, { labNoteNo, from: 1, to: 'live' }],
    ] as const;
    const statuses = async (who: Person) => Promise.all(calls.map(async ([spec, body]) => (await who.call(spec, body)).body.status));
    expect(await statuses(colleague)).toEqual(['0000', '0000', '0000']);
    // The leader reads it without being listed.
    expect(await statuses(leader)).toEqual(['0000', '0000', '0000']);
    expect(await statuses(outsider)).toEqual([ERR.noteMissing, ERR.noteMissing, ERR.noteMissing]);
    expect((await outsider.call(api.noteHistory.list, { labNoteNo })).http).toBe(404);

    const remaining = { department: '', user: [writer, reviewer].map((p) => p.user.userId).join(',') };
    expect((await leader.call(api.projects.update, { projectNo, signatureList: remaining })).body.status).toBe('0000');
    try {
      expect(await statuses(colleague)).toEqual([ERR.noteMissing, ERR.noteMissing, ERR.noteMissing]);
    } finally {
      const everyone = { department: '', user: [writer, colleague, reviewer].map((p) => p.user.userId).join(',') };
      expect((await leader.call(api.projects.update, { projectNo, signatureList: everyone })).body.status).toBe('0000');
    }

    expect((await writer.call(api.notes.delete, { labNoteNo })).body.status).toBe('0000');
    expect(await statuses(writer)).toEqual([ERR.noteDeleted, ERR.noteDeleted, ERR.noteDeleted]);
  });
});

describe('who wrote what', () => {
  /** Inserts text into a block at an offset, as an editor typing there. */
  function typeInto(editor: LiveClient, uid: string, at: number, text: string): void {
    const paragraph = fragment(editor).get(indexOf(editor, uid)) as Y.XmlElement;
    (paragraph.get(0) as Y.XmlText).insert(at, text);
  }

  it('names both writers of a block co-written over raw Yjs clients, in the version and in the comparison', async () => {
    const { labNoteNo, editor } = await openNote('Co-written');
    const shared = appendParagraph(editor.doc, 'Yield: ');
    const own = appendParagraph(editor.doc, 'Written by Woo alone.');
    await save(labNoteNo, editor, 0);
    const other = await connect(colleague, labNoteNo);
    await eventually(() => paragraphTexts(other.doc).length === 2, 'the colleague to see the note');
    typeInto(other, shared, 'Yield: '.length, '82%');
    typeInto(editor, shared, 0, 'Final ');
    await eventually(() => other.allDurable(), "the colleague's edit to be stored");
    await eventually(() => paragraphTexts(editor.doc)[0] === 'Final Yield: 82%', 'both edits to reach the writer');
    await save(labNoteNo, editor, 1);

    const woo = { userId: writer.user.userId, name: 'Writer Woo' };
    const cho = { userId: colleague.user.userId, name: 'Colleague Cho' };
    const detail = (await reviewer.call(api.noteHistory.detail, { labNoteNo, version: 2 })).body.data;
    expect(detail.authors).toEqual({ [shared]: [cho, woo], [own]: [woo] });
    expect((await reviewer.call(api.noteHistory.detail, { labNoteNo, version: 1 })).body.data.authors).toEqual({
      [shared]: [woo],
      [own]: [woo],
    });

    const compared = (await reviewer.call(api.noteHistory.compare, { labNoteNo, from: 1, to: 2 })).body.data;
    expect(kinds(compared.changes)).toEqual([`changed:${shared}`, `unchanged:${own}`]);
    expect(compared.changedBy).toEqual({ [shared]: [cho, woo] });

    // Against the live draft: only the colleague has typed since, in the block Woo wrote alone.
    typeInto(other, own, 0, 'Checked. ');
    const added = appendParagraph(other.doc, 'Note by Cho.');
    await eventually(() => other.allDurable(), "the colleague's edits to be stored");
    const live = (await writer.call(api.noteHistory.compare, { labNoteNo, from: 2, to: 'live' })).body.data;
    expect(kinds(live.changes)).toEqual([`unchanged:${shared}`, `changed:${own}`, `added:${added}`]);
    expect(live.changedBy).toEqual({ [own]: [cho], [added]: [cho] });
    // Backwards, the older side's blocks hold nothing written after the newer one.
    expect((await writer.call(api.noteHistory.compare, { labNoteNo, from: 2, to: 1 })).body.data.changedBy).toEqual({ [shared]: [] });
  });

  it('names whoever typed in a block between two versions even if it was deleted again', async () => {
    const { labNoteNo, editor } = await openNote('Typed and taken back');
    const uid = appendParagraph(editor.doc, 'Temperature 25 °C.');
    await save(labNoteNo, editor, 0);
    const other = await connect(colleague, labNoteNo);
    await eventually(() => paragraphTexts(other.doc).length === 1, 'the colleague to see the note');
    typeInto(other, uid, 'Temperature 25'.length, '.5');
    await eventually(() => other.allDurable(), "the colleague's edit to be stored");
    await eventually(() => paragraphTexts(editor.doc)[0] === 'Temperature 25.5 °C.', 'the edit to reach the writer');
    const text = (fragment(editor).get(indexOf(editor, uid)) as Y.XmlElement).get(0) as Y.XmlText;
    editor.doc.transact(() => {
      text.delete('Temperature 25'.length, '.5'.length);
      text.insert(0, 'Room ');
    });
    expect(paragraphTexts(editor.doc)).toEqual(['Room Temperature 25 °C.']);
    await save(labNoteNo, editor, 1);
    const compared = (await writer.call(api.noteHistory.compare, { labNoteNo, from: 1, to: 2 })).body.data;
    expect(compared.changedBy[uid]?.map((p) => p.name)).toEqual(['Colleague Cho', 'Writer Woo']);
  });

  it('finds a block deleted from the live draft as removed against the last version', async () => {
    const { labNoteNo, editor, uids } = await noteWithThreeVersions('Draft block deleted');
    removeBlock(editor, uids.b);
    await eventually(() => editor.allDurable(), 'the deletion to be stored');
    const answer = (await writer.call(api.noteHistory.compare, { labNoteNo, from: 3, to: 'live' })).body.data;
    expect(kinds(answer.changes)).toEqual([`unchanged:${uids.c}`, `removed:${uids.b}`, `unchanged:${uids.d}`]);
    expect(answer.changes[1]!.before?.content).toEqual(expect.stringContaining('Buffer at pH 7.4.'));
    expect(answer.summary).toMatchObject({ removed: 1, unchanged: 2 });
    // A removal is nobody's new writing: it is in the changes, not in changedBy.
    expect(answer.changedBy).toEqual({});
  });
});

describe('restoring a version', () => {
  const restoreRecords = async (labNoteNo: number) =>
    server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'note.restored'), eq(auditLog.targetId, String(labNoteNo))));

  it('makes the version the live content (a second editor sees it at once) and saves it as the next version, audited; earlier versions stay', async () => {
    const { labNoteNo, editor, hashes } = await noteWithThreeVersions('Restored');
    const other = await connect(colleague, labNoteNo);
    appendParagraph(other.doc, 'Unsaved line.');
    await eventually(() => other.allDurable(), "the colleague's line to be stored");
    const before = await listOf(writer, labNoteNo);
    const v1 = (await writer.call(api.noteHistory.detail, { labNoteNo, version: 1 })).body.data;

    const answer = await writer.call(api.noteHistory.restore, { labNoteNo, version: 1, reason: '  Wrong buffer recorded in v2.  ' });
    expect(answer.body.status).toBe('0000');
    const entry = answer.body.data;
    expect(entry).toMatchObject({
      version: 4,
      savedBy: { userId: writer.user.userId, name: 'Writer Woo' },
      blocksHash: hashes[0],
      restoredFrom: 1,
      reason: 'Wrong buffer recorded in v2.',
      signatures: [],
    });
    expect(entry.savedAt).toMatch(ISO_IN_SEOUL);

    // Stored before the call answered; both editors hold version 1's content, the colleague's unsaved line gone with the rest.
    const v1Texts = ['Aim: measure the rate.', 'Buffer at pH 7.0.', 'Conclusion pending.'];
    expect([...tagsOfState(await new DatabaseDocumentStore(server.database).load(noteDocumentName(labNoteNo)))]).toEqual(v1Texts);
    await eventually(() => JSON.stringify(paragraphTexts(other.doc)) === JSON.stringify(v1Texts), 'the second editor to see the restore');
    await eventually(() => JSON.stringify(paragraphTexts(editor.doc)) === JSON.stringify(v1Texts), 'the writer to see the restore');

    const after = await listOf(colleague, labNoteNo);
    expect(after.list.map((v) => v.version)).toEqual([4, 3, 2, 1]);
    expect(after.list[0]).toEqual(entry);
    expect(after.list.slice(1)).toEqual(before.list);
    expect(after.list.slice(1).map((v) => [v.restoredFrom, v.reason])).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ]);
    const v4 = (await writer.call(api.noteHistory.detail, { labNoteNo, version: 4 })).body.data;
    expect(v4.blockList.map((b) => [b.blockUid, b.content])).toEqual(v1.blockList.map((b) => [b.blockUid, b.content]));
    // The server wrote the restored blocks: nobody's live edits.
    expect(Object.values(v4.authors)).toEqual([[], [], []]);
    const compared = (await writer.call(api.noteHistory.compare, { labNoteNo, from: 1, to: 4 })).body.data;
    expect(compared.summary).toEqual({ added: 0, changed: 0, removed: 0, moved: 0, unchanged: 3 });
    expect((await writer.call(api.noteHistory.compare, { labNoteNo, from: 4, to: 'live' })).body.data.summary).toMatchObject({
      added: 0,
      changed: 0,
      removed: 0,
    });

    const [record, ...more] = await restoreRecords(labNoteNo);
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      actorUserNo: writer.user.userNo,
      targetType: 'note',
      before: { version: 3 },
      after: { fromVersion: 1, version: 4, reason: 'Wrong buffer recorded in v2.', blocksHash: hashes[0], blocks: 3 },
      reason: 'Wrong buffer recorded in v2.',
    });
    // The restored content stays editable and savable as usual.
    appendParagraph(other.doc, 'After the restore.');
    await save(labNoteNo, other, 4, colleague);
  });

  it('refuses every caller and state a save refuses, a missing version and a bad reason, and then changes nothing', async () => {
    const { labNoteNo, editor } = await noteWithThreeVersions('Not restored');
    const admin = await server.signIn(server.admin.userId, server.admin.password);
    const asAdmin = server.callerWith(admin.accessToken);
    const unchanged = async () => {
      expect((await listOf(writer, labNoteNo)).list.map((v) => v.version)).toEqual([3, 2, 1]);
      expect(paragraphTexts(editor.doc)).toEqual(['Conclusion pending.', 'Buffer at pH 7.4.', 'Dispose of waste.']);
      expect(await restoreRecords(labNoteNo)).toEqual([]);
    };
    const restore = (caller: Caller, body: Record<string, unknown>) =>
      caller<ValidationErrorData>(api.noteHistory.restore.path, { labNoteNo, version: 1, reason: 'Go back.', ...body });

    expect([(await restore(outsider.call, {})).http, (await restore(outsider.call, {})).body.status]).toEqual([404, ERR.noteMissing]);
    // An administrator reads the note but does not take part in its project.
    expect((await restore(asAdmin, {})).body.status).toBe(ERR.forbidden);
    const missing = await restore(writer.call, { version: 9 });
    expect([missing.http, missing.body.status]).toEqual([404, ERR.versionMissing]);
    for (const [body, message] of [
      [{ reason: '' }, 'This field is required.'],
      [{ reason: '   \n ' }, 'This field is required.'],
      [{ reason: 'x'.repeat(501) }, null],
      [{ reason: undefined }, null],
      [{ version: 0 }, null],
    ] as const) {
      const answer = await restore(writer.call, body);
      expect([answer.http, answer.body.status], JSON.stringify(body)).toEqual([400, ERR.validation]);
      const field = 'reason' in body ? 'reason' : 'version';
      expect(answer.body.data.fields.map((f) => f.field)).toContain(field);
      if (message) expect(answer.body.data.fields.find((f) => f.field === field)?.message).toBe(message);
    }
    const ko = await server.call(api.noteHistory.restore, { labNoteNo, version: 9, reason: 'x' }, { token: writer.token, language: 'ko' });
    expect(ko.body.message).toBe('노트에 해당 저장 버전이 없습니다.');
    await unchanged();

    // A finished note, then a closed project, refused as a save is (2011 as every write).
    for (const [lock, unlock] of [
      [
        () => server.database.db.update(labNotes).set({ status: NOTE_STATUS.finished }).where(eq(labNotes.noteNo, labNoteNo)),
        () => server.database.db.update(labNotes).set({ status: NOTE_STATUS.writing }).where(eq(labNotes.noteNo, labNoteNo)),
      ],
      [
        () => server.database.db.update(projects).set({ status: PROJECT_STATUS.completed }).where(eq(projects.projectNo, projectNo)),
        () => server.database.db.update(projects).set({ status: PROJECT_STATUS.inProgress }).where(eq(projects.projectNo, projectNo)),
      ],
    ] as const) {
      await lock();
      try {
        const saveAnswer = await writer.call(api.notes.saveVersion, { labNoteNo, version: 3, blockList: [] });
        const answer = await restore(writer.call, {});
        expect([answer.http, answer.body.status]).toEqual([403, ERR.forbidden]);
        expect(answer.body.status).toBe(saveAnswer.body.status);
      } finally {
        await unlock();
      }
    }
    await unchanged();

    // Signed: refused to the writer as any write.
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
    const signed = await reviewer.call(api.signatures.respond, {
      labNoteNo,
      status: 'T',
      password: reviewer.user.password,
      name: 'R. Ryu',
      timeZone: 'Asia/Seoul',
    });
    expect(signed.body.status).toBe('0000');
    expect((await restore(writer.call, {})).body.status).toBe(ERR.forbidden);
    expect((await restore(leader.call, {})).body.status).toBe(ERR.forbidden);
    await unchanged();
  });

  it('refuses a deleted note (2014) and leaves its versions as they were', async () => {
    const { labNoteNo } = await noteWithThreeVersions('Deleted, not restored');
    const stored = await server.database.db.select().from(noteVersions).where(eq(noteVersions.noteNo, labNoteNo));
    expect((await writer.call(api.notes.delete, { labNoteNo })).body.status).toBe('0000');
    const answer = await writer.call(api.noteHistory.restore, { labNoteNo, version: 1, reason: 'Bring it back.' });
    expect(answer.body.status).toBe(ERR.noteDeleted);
    expect(await server.database.db.select().from(noteVersions).where(eq(noteVersions.noteNo, labNoteNo))).toEqual(stored);
    expect(await restoreRecords(labNoteNo)).toEqual([]);
  });
});

describe('a deleted note in the audit detail', () => {
  it('shows administrators the deleted note with its last saved version and who wrote it; nobody else, and no note not deleted', async () => {
    const { labNoteNo, uids } = await noteWithThreeVersions('Deleted, kept');
    const admin = server.callerWith((await server.signIn(server.admin.userId, server.admin.password)).accessToken);
    const recordOf = async (action: string) => {
      const list = await admin(api.audit.list, { action, targetType: 'note', targetId: String(labNoteNo) });
      expect(list.body.status).toBe('0000');
      return list.body.data.list[0]!.seq;
    };
    const saved = await admin(api.audit.detail, { seq: await recordOf('note.saved') });
    expect(saved.body.data).toMatchObject({ action: 'note.saved', deletedNote: null });
    const v3 = (await writer.call(api.noteHistory.detail, { labNoteNo, version: 3 })).body.data;

    expect((await writer.call(api.notes.delete, { labNoteNo })).body.status).toBe('0000');
    expect((await writer.call(api.noteHistory.detail, { labNoteNo, version: 3 })).body.status).toBe(ERR.noteDeleted);
    const seq = await recordOf('note.deleted');
    const detail = await admin(api.audit.detail, { seq });
    expect(detail.body.status).toBe('0000');
    const { deletedNote } = detail.body.data;
    expect(deletedNote).toMatchObject({ labNoteNo, title: 'Deleted, kept', projectNo });
    expect(deletedNote?.deletedAt).toMatch(ISO_IN_SEOUL);
    expect(deletedNote?.lastVersion).toEqual(v3);
    expect(deletedNote?.lastVersion?.blockList.map((b) => b.blockUid)).toEqual([uids.c, uids.b, uids.d]);
    expect(deletedNote?.lastVersion?.authors[uids.b]).toEqual([{ userId: writer.user.userId, name: 'Writer Woo' }]);
    // The earlier records of the note now show it too: it is deleted whichever record names it.
    expect((await admin(api.audit.detail, { seq: saved.body.data.seq })).body.data.deletedNote?.labNoteNo).toBe(labNoteNo);
    // The audit trail is the administrators' alone.
    const refused = await leader.call(api.audit.detail, { seq });
    expect([refused.http, refused.body.status]).toEqual([403, ERR.forbidden]);

    // A note deleted before it was ever saved has no version to show.
    const { labNoteNo: unsaved } = await openNote('Deleted unsaved');
    expect((await writer.call(api.notes.delete, { labNoteNo: unsaved })).body.status).toBe('0000');
    const list = await admin(api.audit.list, { action: 'note.deleted', targetType: 'note', targetId: String(unsaved) });
    const empty = await admin(api.audit.detail, { seq: list.body.data.list[0]!.seq });
    expect(empty.body.data.deletedNote).toMatchObject({ labNoteNo: unsaved, lastVersion: null });
  });
});
