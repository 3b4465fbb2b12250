import { request as httpRequest, type IncomingMessage } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { api, ERR, LIMITS, type ApiResponse, type UploadAnswer } from '@eln/shared';
import { auditLog, files } from '../db/schema.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { storedFilesUnder } from '../testing/storedFiles.js';
import { serverSecret } from '../testing/jwt.js';
import { FileLinks } from './links.js';
import { multipartBody } from './multipartBody.js';

let server: TestServer;
let writerToken: string;
let outsiderToken: string;
let readerToken: string;
let labNoteNo: number;
let baseUrl: string;

/** A real 1x1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cf00000301010018dd8db40000000049454e44ae426082',
  'hex',
);

async function upload(token: string, name: string, content: Buffer, noteNo: number | null = labNoteNo) {
  const { payload, contentType } = multipartBody(noteNo === null ? {} : { labNoteNo: String(noteNo) }, { name, content });
  const response = await server.app.inject({
    method: 'POST',
    url: `/server${api.files.upload.path}`,
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
  });
  return { http: response.statusCode, body: response.json<ApiResponse<UploadAnswer>>() };
}

const storedFiles = () => storedFilesUnder(server.config.filesDir);

beforeAll(async () => {
  server = await startTestServer();
  server.config.filesDir = path.join(server.config.dataDir, `files-test-${Date.now()}`);
  const writer = await server.createUser();
  const reader = await server.createUser();
  const outsider = await server.createUser();
  writerToken = (await server.signIn(writer.userId, writer.password)).accessToken;
  readerToken = (await server.signIn(reader.userId, reader.password)).accessToken;
  outsiderToken = (await server.signIn(outsider.userId, outsider.password)).accessToken;
  const project = await server.call(
    api.projects.create,
    { title: 'Uploads', signatureList: { department: '', user: `${writer.userId},${reader.userId}` } },
    { token: writerToken },
  );
  const note = await server.call(
    api.notes.create,
    { projectNo: project.body.data.projectNo, title: 'With pictures' },
    { token: writerToken },
  );
  labNoteNo = note.body.data.labNoteNo;
  baseUrl = await server.listen();
});
afterAll(async () => {
  await server?.stop();
});

describe('uploads', () => {
  it('stores an image checked on its content, answers a signed link that serves it, and audits it', async () => {
    const result = await upload(writerToken, 'gel photo.png', PNG);
    expect(result.body.status).toBe('0000');
    expect(result.body.data).toMatchObject({ origin: 'gel photo.png', kind: 'image', extension: 'png', size: PNG.length });
    const served = await server.app.inject({ method: 'GET', url: result.body.data.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const [audit] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(audit).toMatchObject({ action: 'file.uploaded', after: { origin: 'gel photo.png', size: PNG.length } });
  });

  it('refuses forged, tampered and expired links', async () => {
    const { fileId, url } = (await upload(writerToken, 'a.png', PNG)).body.data;
    expect((await server.app.inject({ method: 'GET', url: url.replace(/s=[^&]+/, 's=forged') })).statusCode).toBe(404);
    expect((await server.app.inject({ method: 'GET', url: `/files/${fileId}` })).statusCode).toBe(404);
    const expired = new FileLinks(await serverSecret(server.database.db)).make(fileId, Date.now() - 2 * 3600 * 1000);
    expect((await server.app.inject({ method: 'GET', url: expired })).statusCode).toBe(404);
  });

  it('accepts every listed file type whose content matches', async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]);
    const tar = Buffer.alloc(1024);
    tar.write('ustar', 257);
    const accepted: Array<[string, Buffer]> = [
      ['notes.txt', Buffer.from('pH 7.4 — 완충액 準備\n')],
      ['report.docx', zip],
      ['data.xlsx', zip],
      ['slides.pptx', zip],
      ['paper.odt', zip],
      ['bundle.zip', zip],
      ['method.pdf', Buffer.from('%PDF-1.7\n...')],
      ['old.xls', Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(50)])],
      ['archive.rar', Buffer.concat([Buffer.from('Rar!\x1a\x07\x00', 'latin1'), Buffer.alloc(20)])],
      ['raw.tar', tar],
      ['photo.JPG', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(50)])],
      ['anim.gif', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')],
    ];
    for (const [name, content] of accepted) {
      const result = await upload(writerToken, name, content);
      expect(result.body.status, name).toBe('0000');
    }
  });

  it('refuses wrong types, disguised content, empty files and oversize uploads, storing nothing', async () => {
    const before = (await storedFiles()).length;
    const refusals: Array<[string, Buffer, number, string]> = [
      ['tool.exe', Buffer.from('MZ\x90\x00'), 415, ERR.fileType],
      ['photo.png', Buffer.from('MZ\x90\x00 this is not a png'), 415, ERR.fileType],
      ['notes.txt', Buffer.from([0x00, 0x01, 0x02, 0xff]), 415, ERR.fileType],
      ['report.docx', Buffer.from('%PDF-1.4 not a zip'), 415, ERR.fileType],
      ['empty.pdf', Buffer.alloc(0), 415, ERR.fileType],
      ['huge.png', Buffer.concat([PNG, Buffer.alloc(LIMITS.imageBytes)]), 413, ERR.fileTooLarge],
      ['huge.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(LIMITS.fileBytes)]), 413, ERR.fileTooLarge],
    ];
    for (const [name, content, http, status] of refusals) {
      const result = await upload(writerToken, name, content);
      expect([name, result.http, result.body.status]).toEqual([name, http, status]);
    }
    expect((await storedFiles()).length).toBe(before);
  });

  it('answers 3016 for an image and 3014 for a file whose upload cannot be recorded, keeping neither', async () => {
    const stored = async () => (await server.database.db.select({ id: files.fileId }).from(files)).length;
    const before = await stored();
    await server.database.db.execute(sql.raw('alter table files rename to files_away'));
    try {
      expect((await upload(writerToken, 'gel.png', PNG)).body.status).toBe(ERR.imageUpload);
      expect((await upload(writerToken, 'notes.txt', Buffer.from('pH 7.4\n'))).body.status).toBe(ERR.fileUpload);
    } finally {
      await server.database.db.execute(sql.raw('alter table files_away rename to files'));
    }
    expect(await stored()).toBe(before);
  });

  it('needs a note the uploader may write to', async () => {
    expect((await upload(writerToken, 'a.png', PNG, null)).http).toBe(400);
    expect((await upload(outsiderToken, 'a.png', PNG)).body.status).toBe(ERR.noteMissing);
    expect((await upload(writerToken, 'a.png', PNG, 999_999)).body.status).toBe(ERR.noteMissing);
    const body = multipartBody({ labNoteNo: String(labNoteNo) }, { name: 'a.png', content: PNG });
    const noToken = await server.app.inject({
      method: 'POST',
      url: `/server${api.files.upload.path}`,
      payload: body.payload,
      headers: { 'content-type': body.contentType },
    });
    expect(noToken.statusCode).toBe(401);
  });

  it('gives fresh links to those who see the note, and to nobody else', async () => {
    const { fileId } = (await upload(writerToken, 'b.png', PNG)).body.data;
    const fresh = await server.call(api.files.link, { fileId }, { token: readerToken });
    expect(fresh.body.data.origin).toBe('b.png');
    expect((await server.app.inject({ method: 'GET', url: fresh.body.data.url })).statusCode).toBe(200);
    expect((await server.call(api.files.link, { fileId }, { token: outsiderToken })).http).toBe(404);
  });
});

/**
 * Starts an upload over a real connection that declares `declaredBytes` (or sends chunked when null),
 * sends `sentBytes` of the file and then waits, without finishing the body, for the server's answer.
 */
function startUpload(name: string, head: Buffer, options: { declaredBytes: number | null; sentBytes: number }) {
  const boundary = `----eln${Math.random().toString(16).slice(2)}`;
  const opening = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="labNoteNo"\r\n\r\n${labNoteNo}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const headers: Record<string, string> = {
    'content-type': `multipart/form-data; boundary=${boundary}`,
    authorization: `Bearer ${writerToken}`,
  };
  if (options.declaredBytes !== null) headers['content-length'] = String(options.declaredBytes);
  return new Promise<{ status: number; body: ApiResponse<unknown>; sent: number }>((resolve, reject) => {
    let sent = 0;
    const req = httpRequest(`${baseUrl}/server${api.files.upload.path}`, { method: 'POST', headers }, (response: IncomingMessage) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        req.destroy();
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as ApiResponse<unknown>, sent });
      });
    });
    req.on('error', reject);
    req.write(opening);
    req.write(head);
    sent = head.length;
    const chunk = Buffer.alloc(64 * 1024);
    // Sends the rest chunk by chunk as the socket drains; a server that answered early stops it.
    const pump = () => {
      while (sent < options.sentBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (options.declaredBytes === null) req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}

describe('upload limits and names', () => {
  const rowCount = async () => (await server.database.db.select().from(files)).length;

  it('refuses a body declared larger than any file may be, before reading it', async () => {
    const [filesBefore, rowsBefore] = [(await storedFiles()).length, await rowCount()];
    const answer = await startUpload('big.pdf', Buffer.from('%PDF-1.7\n'), { declaredBytes: 120 * 1024 * 1024, sentBytes: 256 * 1024 });
    expect(answer.status).toBe(413);
    expect(answer.body.status).toBe(ERR.fileTooLarge);
    expect((await storedFiles()).length).toBe(filesBefore);
    expect(await rowCount()).toBe(rowsBefore);
  });

  it('refuses an image declared larger than the image limit before writing any of it', async () => {
    const [filesBefore, rowsBefore] = [(await storedFiles()).length, await rowCount()];
    // Well within the file limit, past the image limit: refused once the name says "image".
    const answer = await startUpload('huge.png', PNG, { declaredBytes: 10 * 1024 * 1024, sentBytes: 256 * 1024 });
    expect(answer.status).toBe(413);
    expect(answer.body.status).toBe(ERR.fileTooLarge);
    expect((await storedFiles()).length).toBe(filesBefore);
    expect(await rowCount()).toBe(rowsBefore);
  });

  it('stops an image sent without a declared length at the image limit, keeping nothing', async () => {
    const [filesBefore, rowsBefore] = [(await storedFiles()).length, await rowCount()];
    const answer = await startUpload('streamed.png', PNG, { declaredBytes: null, sentBytes: LIMITS.imageBytes + 1024 * 1024 });
    expect(answer.status).toBe(413);
    expect(answer.body.status).toBe(ERR.fileTooLarge);
    expect((await storedFiles()).length).toBe(filesBefore);
    expect(await rowCount()).toBe(rowsBefore);
  });

  it('stores a readable name without NUL, control characters or path separators, and leaves no orphan', async () => {
    const filesBefore = (await storedFiles()).length;
    const names: Array<[string, string]> = [
      ['gel\u0000photo.png', 'gelphoto.png'],
      ['..\\..\\evil\u202egnp.png', 'evilgnp.png'],
      ['\u0001\u0002.png', 'file.png'],
    ];
    for (const [sent, stored] of names) {
      const result = await upload(writerToken, sent, PNG);
      expect([sent, result.body.status, result.body.data?.origin]).toEqual([sent, '0000', stored]);
      const [row] = await server.database.db.select().from(files).where(eq(files.fileId, result.body.data.fileId));
      expect(row?.originName).toBe(stored);
    }
    expect((await storedFiles()).length).toBe(filesBefore + names.length);
  });

  it('removes the stored file when its database row cannot be written', async () => {
    const [filesBefore, rowsBefore] = [(await storedFiles()).length, await rowCount()];
    // A real failure of the insert, raised by the database itself.
    await server.database.db.execute(
      sql`CREATE FUNCTION refuse_file_rows() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$`,
    );
    await server.database.db.execute(
      sql`CREATE TRIGGER refuse_file_rows BEFORE INSERT ON files FOR EACH ROW EXECUTE FUNCTION refuse_file_rows()`,
    );
    try {
      const result = await upload(writerToken, 'doomed.png', PNG);
      expect(result.body.status).not.toBe('0000');
    } finally {
      await server.database.db.execute(sql`DROP TRIGGER refuse_file_rows ON files`);
      await server.database.db.execute(sql`DROP FUNCTION refuse_file_rows()`);
    }
    expect((await storedFiles()).length).toBe(filesBefore);
    expect(await rowCount()).toBe(rowsBefore);
    // And uploads work again once the database does.
    expect((await upload(writerToken, 'after.png', PNG)).body.status).toBe('0000');
  });
});
