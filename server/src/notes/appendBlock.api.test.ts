import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { api, ERR, NOTE_STATUS, PROJECT_STATUS, noteDocumentName, type ValidationErrorData } from '@eln/shared';
import { auditLog, labNotes, projects } from '../db/schema.js';
import { startTestServer, type Caller, type NewUser, type TestServer } from '../testing/harness.js';
import { appendParagraph, connectWriter, eventually, type LiveClient } from '../testing/live.js';

/*
 * Appending a block through the API (`/note/block/append`): a table from CSV text or a paragraph, written
 * into the live document server-side, seen by open editors, audited; refused as any write of the note is,
 * and on CSV that is not a table here, each refusal changing nothing.
 */

let server: TestServer;
let url: string;
type Person = { user: NewUser & { userNo: number }; call: Caller; token: string };
let leader: Person;
let writer: Person;
let reviewer: Person;
let outsider: Person;
let projectNo: number;
const clients: LiveClient[] = [];

async function person(user: NewUser & { userNo: number }): Promise<Person> {
  const { accessToken } = await server.signIn(user.userId, user.password);
  return { user, token: accessToken, call: server.callerWith(accessToken) };
}

beforeAll(async () => {
  server = await startTestServer();
  url = await server.listen();
  const users = await Promise.all(['Leader Lee', 'Writer Woo', 'Reviewer Ryu', 'Outsider Oh'].map((name) => server.createUser({ name })));
  [leader, writer, reviewer, outsider] = (await Promise.all(users.map(person))) as [Person, Person, Person, Person];
  const created = await leader.call(api.projects.create, {
    title: 'Instruments',
    signatureList: { department: '', user: [writer, reviewer].map((p) => p.user.userId).join(',') },
  });
  projectNo = created.body.data.projectNo;
});
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});
afterAll(async () => {
  await server?.stop();
});

async function newNote(title: string): Promise<number> {
  return (await writer.call(api.notes.create, { projectNo, title })).body.data.labNoteNo;
}

const liveBlocks = async (labNoteNo: number) => (await writer.call(api.notes.blockList, { labNoteNo })).body.data.blockList;
/** The live blocks without their status against the saved version (a save changes it). */
const liveContent = async (labNoteNo: number) => (await liveBlocks(labNoteNo)).map((b) => [b.blockUid, b.content, b.blockTable]);
const appendRecords = (labNoteNo: number) =>
  server.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'note.blockAppended'), eq(auditLog.targetId, String(labNoteNo))));
const cellTexts = (rows: ReadonlyArray<ReadonlyArray<{ text: string }>>) => rows.map((row) => row.map((cell) => cell.text));

describe('appending a block', () => {
  it('appends a CSV table at the end of the live document: an open editor sees it, it is audited and saved with the note', async () => {
    const labNoteNo = await newNote('Plate reader run');
    const editor = await connectWriter(url, noteDocumentName(labNoteNo), writer.token);
    clients.push(editor);
    appendParagraph(editor.doc, 'Absorbance at 450 nm.');
    await eventually(() => editor.allDurable(), 'the paragraph to be stored');

    const csv = '\uFEFFwell,OD450,note\r\nA1,0.512,"blank, buffer"\r\nA2,1.204,"two\nlines"\r\n\r\nA3,0.987\r\n';
    const answer = await writer.call(api.notes.appendBlock, { labNoteNo, table: csv });
    expect(answer.body.status).toBe('0000');
    const { blockUid } = answer.body.data;
    expect(answer.body.data).toEqual({ blockUid, type: 'table', rows: 4, columns: 3 });

    const blocks = await liveBlocks(labNoteNo);
    const last = blocks.at(-1)!;
    expect(blocks.map((b) => b.type)).toContain('table');
    expect([last.type, last.blockUid]).toEqual(['table', blockUid]);
    expect(cellTexts(last.blockTable!.header)).toEqual([['well', 'OD450', 'note']]);
    expect(cellTexts(last.blockTable!.body)).toEqual([
      ['A1', '0.512', 'blank, buffer'],
      ['A2', '1.204', 'two lines'],
      ['A3', '0.987', ''],
    ]);
    // The open editor has it in its own copy, after its paragraph.
    await eventually(
      () => editor.doc.getXmlFragment('default').toArray().length > 0 && JSON.stringify(editor.doc.toJSON()).includes('blank, buffer'),
      'the editor to see the table',
    );

    const [record, ...more] = await appendRecords(labNoteNo);
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      actorUserNo: writer.user.userNo,
      targetType: 'note',
      after: { blockUid, type: 'table', rows: 4, columns: 3 },
    });

    // Without a header row, and a paragraph (its line breaks kept), each after the one before.
    const plain = await writer.call(api.notes.appendBlock, { labNoteNo, table: 'x;y\n1;2', headerRow: false });
    expect(plain.body.data).toMatchObject({ type: 'table', rows: 2, columns: 2 });
    const paragraph = await writer.call(api.notes.appendBlock, { labNoteNo, paragraph: 'Run 7 done.\nNext: plate 8.' });
    expect(paragraph.body.data).toMatchObject({ type: 'paragraph', rows: 0, columns: 0 });
    const after = await liveBlocks(labNoteNo);
    expect(after.slice(-2).map((b) => b.blockUid)).toEqual([plain.body.data.blockUid, paragraph.body.data.blockUid]);
    expect(after.at(-2)!.blockTable!.header).toEqual([]);
    expect(cellTexts(after.at(-2)!.blockTable!.body)).toEqual([
      ['x', 'y'],
      ['1', '2'],
    ]);
    expect(after.at(-1)!.content).toContain('Next: plate 8.');
    expect(await appendRecords(labNoteNo)).toHaveLength(3);

    // Saved as any edit is; the saved version holds the table.
    const saved = await writer.call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
    expect(saved.body.status).toBe('0000');
    const version = (await reviewer.call(api.noteHistory.detail, { labNoteNo, version: 1 })).body.data;
    expect(version.blockList.map((b) => b.blockUid)).toContain(blockUid);
  });

  it('refuses other callers, locked notes, bad input and CSV that is no table here, and then changes nothing', async () => {
    const labNoteNo = await newNote('Not appended');
    expect((await writer.call(api.notes.appendBlock, { labNoteNo, paragraph: 'First.' })).body.status).toBe('0000');
    const before = await liveContent(labNoteNo);
    const unchanged = async () => {
      expect(await liveContent(labNoteNo)).toEqual(before);
      expect(await appendRecords(labNoteNo)).toHaveLength(1);
    };
    const append = (caller: Caller, body: Record<string, unknown>) =>
      caller<ValidationErrorData>(api.notes.appendBlock.path, { labNoteNo, table: 'a,b\n1,2', ...body });
    const refusal = async (caller: Caller, body: Record<string, unknown>) => {
      const answer = await append(caller, body);
      return [answer.http, answer.body.status];
    };

    expect(await refusal(outsider.call, {})).toEqual([404, ERR.noteMissing]);
    const admin = server.callerWith((await server.signIn(server.admin.userId, server.admin.password)).accessToken);
    // An administrator reads the note but does not take part in its project.
    expect(await refusal(admin, {})).toEqual([403, ERR.forbidden]);
    expect((await server.call(api.notes.appendBlock.path, { labNoteNo, paragraph: 'x' })).body.status).toBe(ERR.sessionEnded);

    for (const body of [
      { paragraph: 'both' },
      { table: undefined },
      { table: undefined, paragraph: '   ' },
      { table: 'x'.repeat(200_001) },
      { table: 'a\u0000b' },
      { headerRow: 'yes' },
      { labNoteNo: 0 },
      { extra: 1 },
    ]) {
      expect(await refusal(writer.call, body), JSON.stringify(body).slice(0, 80)).toEqual([400, ERR.validation]);
    }
    for (const table of ['', '\n\n', 'a,"b\n1,2'])
      expect(await refusal(writer.call, { table }), table).toEqual([422, ERR.appendCsvUnreadable]);
    const tooLong = await append(writer.call, { table: Array.from({ length: 31 }, (_, i) => `r${i}`).join('\n') });
    expect([tooLong.http, tooLong.body.status, tooLong.body.message]).toEqual([
      422,
      ERR.appendTableTooLarge,
      'The table is too large: at most 30 rows and at most as many columns.',
    ]);
    expect(await refusal(writer.call, { table: Array.from({ length: 31 }, (_, i) => `c${i}`).join(',') })).toEqual([
      422,
      ERR.appendTableTooLarge,
    ]);
    const ko = await server.call(api.notes.appendBlock, { labNoteNo, table: 'a,"b' }, { token: writer.token, language: 'ko' });
    expect(ko.body.message).toBe('CSV 텍스트를 표로 읽을 수 없습니다. 닫히지 않은 따옴표가 있거나 셀이 없습니다.');
    await unchanged();

    // A finished note, then a closed project, refused as a save is.
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
        expect(await refusal(writer.call, {})).toEqual([403, ERR.forbidden]);
      } finally {
        await unlock();
      }
    }
    await unchanged();

    // Signed: refused to the writer and the leader as any write.
    expect((await writer.call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] })).body.status).toBe('0000');
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
    const signed = await reviewer.call(api.signatures.respond, {
      labNoteNo,
      status: 'T',
      password: reviewer.user.password,
      name: 'R. Ryu',
      timeZone: 'UTC',
    });
    expect(signed.body.status).toBe('0000');
    expect(await refusal(writer.call, {})).toEqual([403, ERR.forbidden]);
    expect(await refusal(leader.call, { paragraph: 'x', table: undefined })).toEqual([403, ERR.forbidden]);
    await unchanged();
  });

  it("appends a file uploaded to the note as its block, and refuses another note's file (9002)", async () => {
    const labNoteNo = await newNote('With a file');
    const other = await newNote('Other');
    const upload = async (noteNo: number) => {
      const form = new FormData();
      form.append('labNoteNo', String(noteNo));
      form.append('file', new Blob(['well,OD450\nA1,0.5\n'], { type: 'text/plain' }), 'run7.txt');
      const response = await fetch(`${url}/server${api.files.upload.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writer.token}` },
        body: form,
      });
      return ((await response.json()) as { data: { fileId: string } }).data.fileId;
    };
    const fileId = await upload(labNoteNo);
    const answer = await writer.call(api.notes.appendBlock, { labNoteNo, file: fileId });
    expect(answer.body.data).toMatchObject({ type: 'file', rows: 0, columns: 0 });
    const last = (await liveBlocks(labNoteNo)).at(-1)!;
    expect([last.blockUid, last.content.includes(fileId), last.content.includes('run7.txt')]).toEqual([
      answer.body.data.blockUid,
      true,
      true,
    ]);

    const elsewhere = await upload(other);
    const refused = await writer.call(api.notes.appendBlock, { labNoteNo, file: elsewhere });
    expect([refused.http, refused.body.status]).toEqual([404, ERR.notFound]);
    expect((await liveBlocks(labNoteNo)).at(-1)!.blockUid).toBe(last.blockUid);
    expect(await appendRecords(labNoteNo)).toHaveLength(1);
  });

  it('refuses a deleted note (2014) and a note that would outgrow a live document (2052)', async () => {
    const deleted = await newNote('Deleted');
    expect((await writer.call(api.notes.delete, { labNoteNo: deleted })).body.status).toBe('0000');
    expect((await writer.call(api.notes.appendBlock, { labNoteNo: deleted, paragraph: 'x' })).body.status).toBe(ERR.noteDeleted);
    expect(await appendRecords(deleted)).toEqual([]);

    const labNoteNo = await newNote('Nearly full');
    const editor = await connectWriter(url, noteDocumentName(labNoteNo), writer.token);
    clients.push(editor);
    appendParagraph(editor.doc, 'x'.repeat(4 * 1024 * 1024 - 120_000));
    await eventually(() => editor.allDurable(), 'the long paragraph to be stored', 30_000);
    const before = await liveBlocks(labNoteNo);
    const csv = Array.from({ length: 30 }, (_, r) => Array.from({ length: 30 }, (_, c) => `${r}.${c}.${'y'.repeat(150)}`).join(',')).join(
      '\n',
    );
    const answer = await writer.call(api.notes.appendBlock, { labNoteNo, table: csv });
    expect([answer.http, answer.body.status]).toEqual([413, ERR.appendDocumentTooLarge]);
    expect(await liveBlocks(labNoteNo)).toEqual(before);
    expect(await appendRecords(labNoteNo)).toEqual([]);
  });
});
