import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { ADMIN_LEVEL, api, ERR, type ApiResponse, type FileTypesUpdateRequest, type UploadAnswer } from '@eln/shared';
import { auditLog } from '../db/schema.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { storedFilesUnder } from '../testing/storedFiles.js';
import { multipartBody } from './multipartBody.js';

let server: TestServer;
let adminToken: string;
let adminId: string;
let writerToken: string;
let labNoteNo: number;

/** What instruments write: a header and rows, Korean in UTF-8 (with Excel's byte order mark) or in CP949. */
const CSV_UTF8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('시료,흡광도\r\nA1,0.512\r\nA2,0.498\r\n')]);
/** "시료,흡광도" and a row, as Korean Excel saves CSV (CP949). */
const CSV_CP949 = Buffer.concat([Buffer.from([0xbd, 0xc3, 0xb7, 0xe1]), Buffer.from(',OD\r\nA1,0.512\r\n')]);
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cf00000301010018dd8db40000000049454e44ae426082',
  'hex',
);
type TypeInput = FileTypesUpdateRequest['types'][number];
const CSV_TYPE: TypeInput = { extension: 'csv', mimeType: 'text/csv', check: 'text' };
const TIFF_TYPE: TypeInput = { extension: 'tif', mimeType: 'image/tiff', check: 'signature', signatures: ['49492A00', '4d 4d 00 2a'] };

async function upload(name: string, content: Buffer) {
  const { payload, contentType } = multipartBody({ labNoteNo: String(labNoteNo) }, { name, content });
  const response = await server.app.inject({
    method: 'POST',
    url: `/server${api.files.upload.path}`,
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${writerToken}` },
  });
  return { http: response.statusCode, body: response.json<ApiResponse<UploadAnswer>>() };
}

const setTypes = (types: TypeInput[], token = adminToken) => server.call(api.files.updateTypes, { types }, { token });
const lastAudit = async () => (await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1))[0];
const storedCount = async () => (await storedFilesUnder(server.config.filesDir)).length;

beforeAll(async () => {
  server = await startTestServer();
  server.config.filesDir = path.join(server.config.dataDir, `files-types-${Date.now()}`);
  const admin = await server.createUser({ level: ADMIN_LEVEL });
  const writer = await server.createUser();
  adminId = admin.userId;
  adminToken = (await server.signIn(admin.userId, admin.password)).accessToken;
  writerToken = (await server.signIn(writer.userId, writer.password)).accessToken;
  const project = await server.call(
    api.projects.create,
    { title: 'Instrument data', signatureList: { department: '', user: writer.userId } },
    { token: writerToken },
  );
  labNoteNo = (
    await server.call(api.notes.create, { projectNo: project.body.data.projectNo, title: 'Plate reader' }, { token: writerToken })
  ).body.data.labNoteNo;
});
afterAll(async () => {
  await server?.stop();
});

describe('file types added by an administrator', () => {
  it('refuses CSV by default, as the spec lists it not', async () => {
    expect((await server.call(api.files.types, {}, { token: writerToken })).body.data).toEqual({ extra: [], abilities: { update: false } });
    const result = await upload('plate.csv', CSV_UTF8);
    expect([result.http, result.body.status]).toEqual([415, ERR.fileType]);
  });

  it('refuses a member who tries to add a type, changing and recording nothing', async () => {
    const before = await lastAudit();
    const refused = await setTypes([CSV_TYPE], writerToken);
    expect([refused.http, refused.body.status]).toEqual([403, ERR.forbidden]);
    expect((await server.call(api.files.types, {}, { token: adminToken })).body.data.extra).toEqual([]);
    expect((await lastAudit())?.seq).toBe(before?.seq);
    expect((await upload('plate.csv', CSV_UTF8)).body.status).toBe(ERR.fileType);
  });

  it('refuses types that are not a plain extension and MIME type with a check, saying which field', async () => {
    const cases: Array<[TypeInput[], string, string]> = [
      [[{ ...CSV_TYPE, extension: 'pdf' }], 'types.0.extension', 'alreadyAllowed'],
      [[{ ...CSV_TYPE, extension: 'html' }], 'types.0.extension', 'invalidValue'],
      [[{ ...CSV_TYPE, extension: 'c.sv' }], 'types.0.extension', 'invalidFormat'],
      [[{ ...CSV_TYPE, extension: 'toolongext' }], 'types.0.extension', 'tooLong'],
      [[{ ...CSV_TYPE, mimeType: 'text/html' }], 'types.0.mimeType', 'invalidValue'],
      [[{ ...CSV_TYPE, mimeType: 'application/javascript' }], 'types.0.mimeType', 'invalidValue'],
      [[{ ...CSV_TYPE, mimeType: 'text/csv; charset=cp949' }], 'types.0.mimeType', 'invalidFormat'],
      [[{ ...TIFF_TYPE, signatures: [] }], 'types.0.signatures', 'required'],
      [[{ ...TIFF_TYPE, signatures: ['49 49 2'] }], 'types.0.signatures.0', 'invalidFormat'],
      [[{ ...CSV_TYPE, signatures: ['2C'] }], 'types.0.signatures', 'invalidValue'],
      [[CSV_TYPE, { ...CSV_TYPE, extension: 'CSV' }], 'types.1.extension', 'duplicateName'],
    ];
    for (const [types, field, reason] of cases) {
      const refused = await setTypes(types);
      expect([field, refused.http, refused.body.status]).toEqual([field, 400, ERR.validation]);
      expect((refused.body.data as unknown as { fields: unknown[] }).fields).toContainEqual(expect.objectContaining({ field, reason }));
    }
    expect((await server.call(api.files.types, {}, { token: adminToken })).body.data.extra).toEqual([]);
  });

  it('accepts CSV once an administrator adds it (audited before and after), in UTF-8 and in CP949, served as an attachment', async () => {
    const added = await setTypes([{ ...CSV_TYPE, extension: ' CSV ' }, TIFF_TYPE]);
    expect(added.body.status).toBe('0000');
    const expected = [
      { extension: 'csv', mimeType: 'text/csv', check: 'text', signatures: [] },
      { extension: 'tif', mimeType: 'image/tiff', check: 'signature', signatures: ['49492A00', '4D4D002A'] },
    ];
    expect(added.body.data).toEqual({ extra: expected, abilities: { update: true } });
    expect(await lastAudit()).toMatchObject({
      action: 'file.typesUpdated',
      targetType: 'fileTypes',
      before: { types: [] },
      after: { types: expected },
    });
    // Every signed-in user reads the list their uploads are judged by.
    expect((await server.call(api.files.types, {}, { token: writerToken })).body.data).toEqual({
      extra: expected,
      abilities: { update: false },
    });

    for (const [name, content] of [
      ['plate.csv', CSV_UTF8],
      ['plate-excel.CSV', CSV_CP949],
    ] as const) {
      const result = await upload(name, content);
      expect([name, result.body.status, result.body.data.kind]).toEqual([name, '0000', 'file']);
      const served = await server.app.inject({ method: 'GET', url: result.body.data.url });
      expect(served.headers['content-type']).toBe('text/csv');
      expect(served.headers['content-disposition']).toMatch(/^attachment;/);
      expect(served.rawPayload.equals(content)).toBe(true);
    }
    for (const head of ['49492a00', '4d4d002a']) {
      const tiff = Buffer.concat([Buffer.from(head, 'hex'), Buffer.alloc(64)]);
      expect((await upload(`scan-${head}.tif`, tiff)).body.status).toBe('0000');
    }
  });

  it('refuses binary content posing as CSV or as an added type, anywhere in the file, storing nothing', async () => {
    const before = await storedCount();
    const longText = Buffer.from('well,value\r\n'.repeat(20_000));
    const refusals: Array<[string, Buffer]> = [
      ['picture.csv', PNG],
      ['nul-late.csv', Buffer.concat([longText, Buffer.from([0x00]), Buffer.from('A3,0.1\r\n')])],
      ['control.csv', Buffer.concat([longText, Buffer.from([0x01, 0x02, 0x03])])],
      ['neither-utf8-nor-cp949.csv', Buffer.concat([longText, Buffer.from([0xff, 0xfe, 0xfd])])],
      ['cut-character.csv', Buffer.concat([Buffer.from('시료,'), Buffer.from('흡', 'utf8').subarray(0, 2)])],
      ['text.tif', Buffer.from('not a picture at all')],
    ];
    for (const [name, content] of refusals) {
      const result = await upload(name, content);
      expect([name, result.http, result.body.status]).toEqual([name, 415, ERR.fileType]);
    }
    expect(await storedCount()).toBe(before);
  });

  it('refuses CSV again once the type is removed, keeping the files already stored', async () => {
    const kept = (await upload('before-removal.csv', CSV_UTF8)).body.data;
    const removed = await setTypes([TIFF_TYPE]);
    expect(removed.body.data.extra.map((type) => type.extension)).toEqual(['tif']);
    expect(await lastAudit()).toMatchObject({
      action: 'file.typesUpdated',
      before: { types: [expect.objectContaining({ extension: 'csv' }), expect.objectContaining({ extension: 'tif' })] },
      after: { types: [expect.objectContaining({ extension: 'tif' })] },
    });
    expect((await upload('after-removal.csv', CSV_UTF8)).body.status).toBe(ERR.fileType);
    const link = await server.call(api.files.link, { fileId: kept.fileId }, { token: writerToken });
    expect((await server.app.inject({ method: 'GET', url: link.body.data.url })).statusCode).toBe(200);
    // Each change is its administrator's record.
    const records = await server.database.db.select().from(auditLog).where(eq(auditLog.action, 'file.typesUpdated'));
    expect(records.map((record) => record.actorUserId)).toEqual([adminId, adminId]);
  });
});
