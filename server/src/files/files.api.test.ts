import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc } from 'drizzle-orm';
import { ERR, LIMITS, type ApiResponse, type FileUrlAnswer, type UploadAnswer } from '@eln/shared';
import { auditLog } from '../db/schema.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { serverSecret } from '../testing/jwt.js';
import { FileLinks } from './links.js';

let server: TestServer;
let writerToken: string;
let outsiderToken: string;
let readerToken: string;
let labNoteNo: number;

/** A real 1x1 PNG. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cf00000301010018dd8db40000000049454e44ae426082', 'hex');

function multipart(fields: Record<string, string>, file?: { name: string; content: Buffer }) {
  const boundary = `----eln${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(token: string, name: string, content: Buffer, noteNo: number | null = labNoteNo) {
  const { payload, contentType } = multipart(noteNo === null ? {} : { labNoteNo: String(noteNo) }, { name, content });
  const response = await server.app.inject({
    method: 'POST',
    url: '/server/v1/common/file/add',
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
  });
  return { http: response.statusCode, body: response.json<ApiResponse<UploadAnswer>>() };
}

const storedFiles = async () => {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else found.push(full);
    }
  };
  await walk(server.config.filesDir);
  return found;
};

beforeAll(async () => {
  server = await startTestServer();
  server.config.filesDir = path.join(server.config.dataDir, `files-test-${Date.now()}`);
  const writer = await server.createUser();
  const reader = await server.createUser();
  const outsider = await server.createUser();
  writerToken = (await server.signIn(writer.userId, writer.password)).accessToken;
  readerToken = (await server.signIn(reader.userId, reader.password)).accessToken;
  outsiderToken = (await server.signIn(outsider.userId, outsider.password)).accessToken;
  const project = await server.call<{ projectNo: number }>('/v1/project/create', { title: 'Uploads', signatureList: { department: '', user: `${writer.userId},${reader.userId}` } }, { token: writerToken });
  const note = await server.call<{ labNoteNo: number }>('/v1/project/note/create', { projectNo: project.body.data.projectNo, title: 'With pictures' }, { token: writerToken });
  labNoteNo = note.body.data.labNoteNo;
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

  it('needs a note the uploader may write to', async () => {
    expect((await upload(writerToken, 'a.png', PNG, null)).http).toBe(400);
    expect((await upload(outsiderToken, 'a.png', PNG)).body.status).toBe(ERR.noteMissing);
    expect((await upload(writerToken, 'a.png', PNG, 999_999)).body.status).toBe(ERR.noteMissing);
    const body = multipart({ labNoteNo: String(labNoteNo) }, { name: 'a.png', content: PNG });
    const noToken = await server.app.inject({ method: 'POST', url: '/server/v1/common/file/add', payload: body.payload, headers: { 'content-type': body.contentType } });
    expect(noToken.statusCode).toBe(401);
  });

  it('gives fresh links to those who see the note, and to nobody else', async () => {
    const { fileId } = (await upload(writerToken, 'b.png', PNG)).body.data;
    const fresh = await server.call<FileUrlAnswer>('/v1/common/file/url', { fileId }, { token: readerToken });
    expect(fresh.body.data.origin).toBe('b.png');
    expect((await server.app.inject({ method: 'GET', url: fresh.body.data.url })).statusCode).toBe(200);
    expect((await server.call('/v1/common/file/url', { fileId }, { token: outsiderToken })).http).toBe(404);
  });
});
