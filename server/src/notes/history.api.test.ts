import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  api,
  ERR,
  noteDocumentName,
  templateDocumentName,
  type BlockChange,
  type NoteVersionListAnswer,
  type ValidationErrorData,
} from '@eln/shared';
import { noteVersions } from '../db/schema.js';
import { startTestServer, type Caller, type NewUser, type TestServer } from '../testing/harness.js';
import { appendParagraph, connectWriter, eventually, moveBlock, removeBlock, setParagraphText, type LiveClient } from '../testing/live.js';
import { fillMissingChanges } from './versionChanges.js';

/*
 * The note history's calls: versions listed with what changed in each, compared with each other and with
 * the live document, on whatever note the caller may read, and refused on any other.
 */

let server: TestServer;
let url: string;
type Person = { user: NewUser & { userNo: number }; call: Caller; token: string };
let leader: Person;
let writer: Person;
let colleague: Person;
let reviewer: Person;
let outsider: Person;
let projectNo: number;
const clients: LiveClient[] = [];

async function person(user: NewUser & { userNo: number }): Promise<Person> {
  const { accessToken } = await server.signIn(user.userId, user.password);
  return { user, token: accessToken, call: server.callerWith(accessToken) };
}

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
async function openNote(title: string): Promise<{ labNoteNo: number; editor: LiveClient }> {
  const { labNoteNo } = (await writer.call(api.notes.create, { projectNo, title })).body.data;
  const editor = await connectWriter(url, noteDocumentName(labNoteNo), writer.token);
  clients.push(editor);
  return { labNoteNo, editor };
}

async function save(labNoteNo: number, editor: LiveClient, version: number): Promise<string> {
  await eventually(() => editor.allDurable(), 'the edits to be stored');
  const saved = await writer.call(api.notes.saveVersion, { labNoteNo, version, blockList: [] });
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
async function noteWithThreeVersions(title: string) {
  const { labNoteNo, editor } = await openNote(title);
  const [a, b, c] = ['Aim: measure the rate.', 'Buffer at pH 7.0.', 'Conclusion pending.'].map((text) => appendParagraph(editor.doc, text));
  const hashes = [await save(labNoteNo, editor, 0)];
  setParagraphText(editor.doc, b!, 'Buffer at pH 7.4.');
  const d = appendParagraph(editor.doc, 'Dispose of waste.');
  hashes.push(await save(labNoteNo, editor, 1));
  removeBlock(editor.doc, a!);
  moveBlock(editor.doc, c!, 0);
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
    setParagraphText(editor.doc, uids.d, 'Dispose of waste in the red bin.');
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
