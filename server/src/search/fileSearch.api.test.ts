import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_LEVEL,
  api,
  LIMITS,
  NOTE_STATUS,
  noteDocumentName,
  templateDocumentName,
  type ApiResponse,
  type SearchHit,
  type UploadAnswer,
} from '@eln/shared';
import { files, fileTextParts, fileTexts, labNotes, searchUnits } from '../db/schema.js';
import { multipartBody } from '../files/multipartBody.js';
import { startTestServer, type Caller, type TestServer } from '../testing/harness.js';
import { appendFileBlock, connectWriter, eventually, removeBlock, type LiveClient } from '../testing/live.js';
import { cjkPdf, docx, odt, pdf, pptx, xlsx, zipOf } from '../testing/officeFiles.js';

/**
 * Attachments' text in search (issue 46): each format's text found in the note's file block, a file that
 * cannot be read found by its name and saying so, uploads never failing for it, read exactly as its note,
 * gone with its block, and extraction resumed after a process died in it.
 */

const NO_FLAGS = { project: 'N', schema: 'N', dropbox: 'N', template: 'N' } as const;

let server: TestServer;
let leader: Caller;
let member: Caller;
let outsider: Caller;
let admin: Caller;
let author: Caller;
let approver: Caller;
let approverPassword: string;
let leaderToken: string;
let authorToken: string;
let projectNo: number;
let otherProjectNo: number;
let labNoteNo: number;
let writer: LiveClient;
let url: string;

type Owner = { labNoteNo: number } | { templateNo: number };

async function upload(token: string, owner: Owner, name: string, content: Buffer) {
  const fields = Object.fromEntries(Object.entries(owner).map(([key, value]) => [key, String(value)]));
  const { payload, contentType } = multipartBody(fields, { name, content });
  const response = await server.app.inject({
    method: 'POST',
    url: `/server${api.files.upload.path}`,
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
  });
  const body = response.json<ApiResponse<UploadAnswer>>();
  expect(body.status, JSON.stringify(body)).toBe('0000');
  return body.data;
}

/** Uploads a file to the note and shows it in a file block of its own; answers the block's uid. */
async function attach(name: string, content: Buffer, client = writer, owner: Owner = { labNoteNo }, token = leaderToken): Promise<string> {
  const file = await upload(token, owner, name, content);
  const blockUid = appendFileBlock(client.doc, { fileId: file.fileId, name: file.origin, size: file.size, extension: file.extension });
  await eventually(() => client.allDurable(), `the block of ${name} to be stored`);
  return blockUid;
}

async function hits(who: Caller, q: string, extra: Record<string, unknown> = {}): Promise<SearchHit[]> {
  const result = await who(api.search.search, { q, page: 1, pageSize: 50, ...extra });
  expect(result.body.status, JSON.stringify(result.body)).toBe('0000');
  return result.body.data.list;
}

const fileHits = async (who: Caller, q: string, extra: Record<string, unknown> = {}) =>
  (await hits(who, q, extra)).filter((hit) => hit.kind === 'file');

/** Waits until `q` finds exactly these file blocks (uid and text state), for `who`. */
async function foundFiles(who: Caller, q: string, expected: Array<{ uid: string; fileText: string }>): Promise<SearchHit[]> {
  const want = JSON.stringify(expected.map((e) => `${e.uid} ${e.fileText}`).sort());
  let last: SearchHit[] = [];
  await eventually(async () => {
    last = await fileHits(who, q);
    return JSON.stringify(last.map((hit) => `${hit.uid} ${hit.fileText}`).sort()) === want;
  }, `"${q}" to find ${want}`);
  return last;
}

const unitsOf = (blockUid: string) =>
  server.database.db
    .select({ blockUid: searchUnits.blockUid, fileText: searchUnits.fileText })
    .from(searchUnits)
    .where(and(eq(searchUnits.kind, 'file'), eq(searchUnits.recordNo, labNoteNo), like(searchUnits.blockUid, `${blockUid}#%`)));

const textOf = async (sha256: string) =>
  (await server.database.db.select({ status: fileTexts.status }).from(fileTexts).where(eq(fileTexts.sha256, sha256)))[0]?.status;

const shaOf = async (fileId: string) => (await server.database.db.select().from(files).where(eq(files.fileId, fileId)))[0]!.sha256;

beforeAll(async () => {
  server = await startTestServer();
  url = await server.listen();
  const leaderUser = await server.createUser({ name: 'Leader' });
  const memberUser = await server.createUser({ name: 'Member' });
  const authorUser = await server.createUser({ name: 'Author', auth: { ...NO_FLAGS, template: 'Y' } });
  const approverUser = await server.createUser({ name: 'Approver', auth: { ...NO_FLAGS, template: 'Y' } });
  approverPassword = approverUser.password;
  approver = await server.as(approverUser);
  leaderToken = (await server.signIn(leaderUser.userId, leaderUser.password)).accessToken;
  authorToken = (await server.signIn(authorUser.userId, authorUser.password)).accessToken;
  leader = await server.as(leaderUser);
  member = await server.as(memberUser);
  author = await server.as(authorUser);
  outsider = await server.as(await server.createUser({ name: 'Outsider' }));
  admin = await server.as(await server.createUser({ name: 'Admin', level: ADMIN_LEVEL, auth: NO_FLAGS }));
  const signatureList = { department: '', user: [leaderUser.userId, memberUser.userId].join(',') };
  projectNo = (await leader(api.projects.create, { title: 'Spectra', description: '', signatureList })).body.data.projectNo;
  otherProjectNo = (await leader(api.projects.create, { title: 'Other', description: '', signatureList })).body.data.projectNo;
  labNoteNo = (await leader(api.notes.create, { projectNo, title: 'Instrument exports' })).body.data.labNoteNo;
  // CSV is not among the spec's types: an administrator adds it as text (files/fileTypes.ts).
  const types = await admin(api.files.updateTypes, { types: [{ extension: 'csv', mimeType: 'text/csv', check: 'text' }] });
  expect(types.body.status).toBe('0000');
  writer = await connectWriter(url, noteDocumentName(labNoteNo), leaderToken);
});

afterAll(async () => {
  writer?.destroy();
  await server?.stop();
});

describe('search finds attachments', () => {
  const blocks: Record<string, string> = {};

  it("by each format's text, Korean and Japanese two-character terms inside longer words included", async () => {
    blocks.docx = await attach('protocol.docx', await docx(['Column packing at 10 mM', '묽은염산 처리 후 緩衝液を調製']));
    blocks.xlsx = await attach(
      'plate.xlsx',
      await xlsx([
        ['lot', 'absorbance'],
        ['24-117', 0.4321],
      ]),
    );
    blocks.pptx = await attach('meeting.pptx', await pptx([['Agenda'], ['Switch to 2-propanol wash']]));
    blocks.odt = await attach('report.odt', await odt(['Quinhydrone electrode calibration']));
    blocks.pdf = await attach('run.pdf', await pdf(['The pH drift was small', 'Turbidimeter reading']));
    blocks.koPdf = await attach('세척.pdf', await cjkPdf(['시료를 증류수로 세척하였다'], 'ko'));
    blocks.txt = await attach('log.txt', Buffer.from('Autoclave cycle 121 C for 15 min\n'));
    blocks.csv = await attach('export.csv', Buffer.from('wavelength,value\nnanometre,412\n'));
    const expectations: Array<[string, string]> = [
      ['염산', 'docx'],
      ['緩衝', 'docx'],
      ['"10 mM"', 'docx'],
      ['24-117', 'xlsx'],
      ['0.4321', 'xlsx'],
      ['propanol', 'pptx'],
      ['quinhydrone', 'odt'],
      ['"ph drift"', 'pdf'],
      ['증류', 'koPdf'],
      ['autoclave', 'txt'],
      ['nanometre', 'csv'],
    ];
    for (const [q, format] of expectations) await foundFiles(leader, q, [{ uid: blocks[format]!, fileText: 'extracted' }]);
    const [hit] = await fileHits(leader, 'quinhydrone');
    const [note] = await server.database.db.select().from(labNotes).where(eq(labNotes.noteNo, labNoteNo));
    expect(hit).toMatchObject({
      kind: 'file',
      no: labNoteNo,
      labNoteNo,
      labNoteNumber: note!.labNoteNumber,
      // Never saved: found in the live draft.
      version: null,
      title: 'report.odt',
      projectNo,
      projectTitle: 'Spectra',
      uid: blocks.odt,
      status: note!.status,
      fileText: 'extracted',
    });
    expect(hit!.snippet.text).toContain('Quinhydrone');
    expect(hit!.snippet.marks.length).toBeGreaterThan(0);
    // By its name too, as the note's block is.
    await foundFiles(leader, 'meeting', [{ uid: blocks.pptx, fileText: 'extracted' }]);
    expect((await hits(leader, 'meeting', { kinds: ['note'] })).map((h) => [h.kind, h.uid])).toEqual([['note', blocks.pptx]]);
    // Once saved, the attachment is found in that version.
    const saved = await leader(api.notes.saveVersion, { labNoteNo, version: note!.version, blockList: [] });
    expect(saved.body.status).toBe('0000');
    await eventually(
      async () => (await fileHits(leader, 'quinhydrone'))[0]?.version === saved.body.data.version,
      'the file to be found in the saved version',
    );
  });

  it('as its note is read: not by an outsider, by members and administrators, and within the note filters', async () => {
    for (const who of [member, admin]) expect((await fileHits(who, 'quinhydrone')).map((h) => h.uid)).toEqual([blocks.odt]);
    expect(await hits(outsider, 'quinhydrone')).toEqual([]);
    expect(await hits(outsider, 'report')).toEqual([]);
    expect((await hits(leader, 'quinhydrone', { kinds: ['file'] })).map((h) => h.kind)).toEqual(['file']);
    expect(await hits(leader, 'quinhydrone', { kinds: ['note', 'project'] })).toEqual([]);
    expect((await fileHits(leader, 'quinhydrone', { projectNo })).length).toBe(1);
    expect(await fileHits(leader, 'quinhydrone', { projectNo: otherProjectNo })).toEqual([]);
    expect((await fileHits(leader, 'quinhydrone', { status: NOTE_STATUS.writing })).length).toBe(1);
    expect(await fileHits(leader, 'quinhydrone', { status: NOTE_STATUS.signed })).toEqual([]);
  });

  it('by name when it cannot be read, saying so, the upload never failing for it', async () => {
    const broken = await docx(['never read']);
    const corrupt = {
      pdf: await attach(
        'damaged.pdf',
        Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >>\nendobj\ntrailer << /Root 1 0 R >>\n'),
      ),
      docx: await attach('damaged.docx', broken.subarray(0, broken.length - 40)),
    };
    await foundFiles(leader, 'damaged', [
      { uid: corrupt.pdf, fileText: 'unreadable' },
      { uid: corrupt.docx, fileText: 'unreadable' },
    ]);
    const [hit] = await fileHits(leader, 'damaged pdf');
    expect(hit).toMatchObject({ title: 'damaged.pdf', uid: corrupt.pdf, fileText: 'unreadable' });
  });

  it('by name when it is too large to be read, or of a format text is not read from', async () => {
    const large = Buffer.alloc(LIMITS.fileTextSourceBytes + 1, 'lorem ipsum ');
    const uid = await attach('huge-export.txt', large);
    await foundFiles(leader, 'huge', [{ uid, fileText: 'tooLarge' }]);
    expect(await fileHits(leader, 'lorem')).toEqual([]);
    const archive = await attach('raw-spectra.zip', await zipOf([['readme.txt', 'Archived interferogram']]));
    await foundFiles(leader, 'spectra', [{ uid: archive, fileText: 'notText' }]);
    expect(await fileHits(leader, 'interferogram')).toEqual([]);
  });

  it('in parts when its text is long, each block found once and opened at its block', async () => {
    const lines = Array.from({ length: 6_000 }, (_, i) => `Reading ${i} of the spectrometer at wavelength ${400 + (i % 300)} nm`);
    lines.push('Final reading flagged as Zwitterion artefact');
    const uid = await attach('long.txt', Buffer.from(lines.join('\n')));
    await foundFiles(leader, 'zwitterion', [{ uid, fileText: 'extracted' }]);
    const units = await unitsOf(uid);
    expect(units.length).toBeGreaterThan(2);
    // "spectrometer" is in every part: one hit, at the block.
    expect((await fileHits(leader, 'spectrometer')).map((h) => h.uid)).toEqual([uid]);
    const [hit] = await fileHits(leader, 'zwitterion');
    expect(hit!.snippet.text).toContain('Zwitterion');
  });

  it('no more once its block is removed, its units gone', async () => {
    const uid = blocks.odt!;
    expect((await unitsOf(uid)).length).toBe(1);
    removeBlock(writer.doc, uid);
    await eventually(() => writer.allDurable(), 'the removal to be stored');
    await foundFiles(leader, 'quinhydrone', []);
    expect(await unitsOf(uid)).toEqual([]);
    // The other attachments stay.
    expect((await fileHits(leader, 'propanol')).map((h) => h.uid)).toEqual([blocks.pptx]);
  });
});

describe('extraction', () => {
  it('says pending until a process reads the text, and a text left pending by a process that died is read by the next', async () => {
    await server.services.fileTexts.stop();
    let uid: string;
    let sha256: string;
    try {
      uid = await attach('pending.docx', await docx(['Ferrocyanide titration']));
      await foundFiles(leader, 'pending', [{ uid, fileText: 'pending' }]);
      const fileId = (await server.database.db.select().from(files).where(eq(files.originName, 'pending.docx')))[0]!.fileId;
      sha256 = await shaOf(fileId);
      // A process took it, counted its attempt, and died: its lease has run out.
      await server.database.db
        .update(fileTexts)
        .set({ attempts: 1, leaseUntil: sql`now() - interval '1 second'` })
        .where(eq(fileTexts.sha256, sha256));
      expect(await textOf(sha256)).toBe('pending');
    } finally {
      server.services.fileTexts.start();
    }
    await foundFiles(leader, 'ferrocyanide', [{ uid, fileText: 'extracted' }]);
    expect(await textOf(sha256)).toBe('extracted');
    expect((await fileHits(leader, 'pending')).map((h) => h.fileText)).toEqual(['extracted']);
  });

  it('gives up on a file whose extraction never ended three times, and leaves alone one another process holds', async () => {
    await server.services.fileTexts.stop();
    let killer: string;
    let held: string;
    try {
      killer = await attach('killer.pdf', await pdf(['never finished']));
      held = await attach('held.txt', Buffer.from('Held by another process'));
      const sha = async (name: string) =>
        shaOf((await server.database.db.select().from(files).where(eq(files.originName, name)))[0]!.fileId);
      await server.database.db
        .update(fileTexts)
        .set({ attempts: 3, leaseUntil: sql`now() - interval '1 second'` })
        .where(eq(fileTexts.sha256, await sha('killer.pdf')));
      await server.database.db
        .update(fileTexts)
        .set({ attempts: 1, leaseUntil: sql`now() + interval '1 hour'` })
        .where(eq(fileTexts.sha256, await sha('held.txt')));
    } finally {
      server.services.fileTexts.start();
    }
    await foundFiles(leader, 'killer', [{ uid: killer, fileText: 'unreadable' }]);
    expect(await fileHits(leader, 'never')).toEqual([]);
    await foundFiles(leader, 'held', [{ uid: held, fileText: 'pending' }]);
  });

  it("finds a template's attachment as the template, at its block, for those who read it, and in the notes made from it, its text read once", async () => {
    const templateNo = (await author(api.templates.create, { title: 'Assay template', description: '' })).body.data.templateNo;
    const client = await connectWriter(url, templateDocumentName(templateNo), authorToken);
    try {
      const uid = await attach('assay.docx', await docx(['Bradford assay with Coomassie dye']), client, { templateNo }, authorToken);
      await eventually(async () => {
        const found = (await hits(author, 'coomassie')).filter((h) => h.kind === 'template' && h.no === templateNo);
        return found.length === 1 && found[0]!.uid === uid && found[0]!.fileText === 'extracted';
      }, 'the template attachment to be found');
      expect((await hits(outsider, 'coomassie')).filter((h) => h.kind === 'template')).toEqual([]);
      const rows = await server.database.db.select().from(files).where(eq(files.originName, 'assay.docx'));
      expect(rows.length).toBe(1);
      const parts = await server.database.db.select().from(fileTextParts).where(eq(fileTextParts.sha256, rows[0]!.sha256));
      expect(parts.map((p) => p.text)).toEqual(['Bradford assay with Coomassie dye']);
      await eventually(() => client.allDurable(), 'the draft to be stored');
    } finally {
      client.destroy();
    }
    expect((await author(api.templates.checkIn, { templateNo, version: 0, blockList: [] })).body.status).toBe('0000');
    const approved = await approver(api.templates.approve, { templateNo, version: '1.1', revision: 1, password: approverPassword });
    expect(approved.body.status, JSON.stringify(approved.body)).toBe('0000');
    const made = await leader(api.notes.create, { projectNo, title: 'Assay run', templateNo });
    expect(made.body.status, JSON.stringify(made.body)).toBe('0000');
    const madeNo = made.body.data.labNoteNo;
    // The note has a file of its own with the same content: found in the note, its text not read again.
    await eventually(async () => {
      const found = (await fileHits(leader, 'coomassie')).filter((h) => h.labNoteNo === madeNo);
      return found.length === 1 && found[0]!.fileText === 'extracted';
    }, 'the note made from the template to find the attachment');
    const copies = await server.database.db.select().from(files).where(eq(files.originName, 'assay.docx'));
    expect(copies.map((f) => f.noteNo).sort()).toEqual([madeNo, null]);
    expect(new Set(copies.map((f) => f.sha256)).size).toBe(1);
    expect((await server.database.db.select().from(fileTexts).where(eq(fileTexts.sha256, copies[0]!.sha256)))[0]).toMatchObject({
      status: 'extracted',
      attempts: 1,
    });
  });
});
