import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { Jimp } from 'jimp';
import { api, ERR, LIMITS, type ApiResponse, type CallSpec, type UploadAnswer } from '@eln/shared';
import { auditLog, files, schemas, schemaTypes } from '../db/schema.js';
import { multipartBody } from '../files/multipartBody.js';
import { png } from '../files/pngImage.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { storedFilesUnder } from '../testing/storedFiles.js';

let server: TestServer;
let curatorToken: string;
let memberToken: string;
let counter = 0;

/** A 600 × 400 picture with some detail, so its small copy is really smaller. */
const PICTURE = png(600, 400, (x, y) => [(x * 7 + y) % 256, (y * 5) % 256, (x ^ y) % 256]);

beforeAll(async () => {
  server = await startTestServer();
  server.config.filesDir = path.join(server.config.dataDir, `thumbnails-test-${Date.now()}`);
  const curator = await server.createUser({ name: 'Thumb Curator', auth: { project: 'Y', schema: 'Y', dropbox: 'N', template: 'N' } });
  const member = await server.createUser();
  curatorToken = (await server.signIn(curator.userId, curator.password)).accessToken;
  memberToken = (await server.signIn(member.userId, member.password)).accessToken;
});
afterAll(async () => {
  await server?.stop();
});

const call = <C extends CallSpec>(token: string, spec: C, body: unknown) => server.call(spec, body, { token });

async function createType(status: 'Y' | 'N' = 'Y') {
  const id = `${++counter}-${Date.now().toString(36)}`;
  const created = await call(curatorToken, api.schemas.create, {
    code: `THUMB-${id}`,
    title: `Thumbnails ${id}`,
    status,
    schemas: [
      { title: 'Sodium chloride', entries: [{ field: 'CAS', value: '7647-14-5' }] },
      { title: 'Retired reagent', status: 'N', entries: [{ field: 'CAS', value: '0-0-0' }] },
    ],
  });
  expect(created.body.status).toBe('0000');
  const detail = await call(curatorToken, api.schemas.detail, { schemasTypeNo: created.body.data.schemasTypeNo });
  return detail.body.data;
}

async function upload(token: string, owner: { schemasTypeNo: number; schemaNo?: number }, name: string, content: Buffer) {
  const fields: Record<string, string> = { schemasTypeNo: String(owner.schemasTypeNo) };
  if (owner.schemaNo !== undefined) fields.schemaNo = String(owner.schemaNo);
  const { payload, contentType } = multipartBody(fields, { name, content });
  const response = await server.app.inject({
    method: 'POST',
    url: `/server${api.files.upload.path}`,
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
  });
  return { http: response.statusCode, body: response.json<ApiResponse<UploadAnswer>>() };
}

const setThumbnail = (token: string, body: { schemasTypeNo: number; schemaNo?: number | null; fileId: string | null }) =>
  call(token, api.schemas.setThumbnail, body);

const fetchFile = async (url: string) => {
  const response = await server.app.inject({ method: 'GET', url });
  return { status: response.statusCode, type: response.headers['content-type'], bytes: response.rawPayload };
};

const storedFiles = () => storedFilesUnder(server.config.filesDir);
const fileRows = async () => (await server.database.db.select({ id: files.fileId }).from(files)).length;

describe('schema thumbnails', () => {
  it('lets a curator upload, set and read a type thumbnail; its small copy is made beside it; the revision stays', async () => {
    const type = await createType();
    const uploaded = await upload(curatorToken, { schemasTypeNo: type.schemasTypeNo }, 'reagents.png', PICTURE);
    expect(uploaded.body.status).toBe('0000');
    expect(uploaded.body.data).toMatchObject({ kind: 'image', extension: 'png', size: PICTURE.length });
    const [row] = await server.database.db.select().from(files).where(eq(files.fileId, uploaded.body.data.fileId));
    expect(row).toMatchObject({ schemasTypeNo: type.schemasTypeNo, schemaNo: null, noteNo: null, templateNo: null });
    expect(row?.smallFileId).toBeTruthy();

    const set = await setThumbnail(curatorToken, { schemasTypeNo: type.schemasTypeNo, fileId: uploaded.body.data.fileId });
    expect(set.body.status).toBe('0000');
    expect(set.body.data.thumbnail?.fileId).toBe(uploaded.body.data.fileId);

    const detail = (await call(curatorToken, api.schemas.detail, { schemasTypeNo: type.schemasTypeNo })).body.data;
    expect(detail.revision).toBe(type.revision);
    expect(detail.thumbnail?.fileId).toBe(uploaded.body.data.fileId);
    const original = await fetchFile(detail.thumbnail?.url ?? '');
    expect([original.status, original.type]).toEqual([200, 'image/png']);
    expect(original.bytes.equals(PICTURE)).toBe(true);
    const small = await fetchFile(detail.thumbnail?.smallUrl ?? '');
    expect([small.status, small.type]).toEqual([200, 'image/png']);
    expect(small.bytes.length).toBeLessThan(PICTURE.length);
    const decoded = await Jimp.read(small.bytes);
    expect([decoded.width, decoded.height]).toEqual([LIMITS.schemaThumbnailSide, Math.round((400 * LIMITS.schemaThumbnailSide) / 600)]);

    // Lists carry it: the curator's list, and a member's list and note picker (the type is used).
    const listed = (await call(memberToken, api.schemas.list, { value: type.title })).body.data.list[0];
    expect(listed?.thumbnail?.fileId).toBe(uploaded.body.data.fileId);
    expect((await fetchFile(listed?.thumbnail?.smallUrl ?? '')).status).toBe(200);
    const all = (await call(memberToken, api.schemas.usedTypes, {})).body.data.list.find((t) => t.schemasTypeNo === type.schemasTypeNo);
    expect(all?.thumbnail?.fileId).toBe(uploaded.body.data.fileId);
    expect((await call(memberToken, api.files.link, { fileId: uploaded.body.data.fileId })).body.status).toBe('0000');

    const [audit] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(audit).toMatchObject({
      action: 'schema.thumbnail',
      targetType: 'schemaType',
      before: { schemaNo: null, fileId: null },
      after: { schemaNo: null, fileId: uploaded.body.data.fileId },
    });

    // An update of the type keeps its thumbnail; clearing it is audited too.
    const cleared = await setThumbnail(curatorToken, { schemasTypeNo: type.schemasTypeNo, fileId: null });
    expect(cleared.body.data.thumbnail).toBeNull();
    const [clearAudit] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(clearAudit).toMatchObject({
      action: 'schema.thumbnail',
      before: { fileId: uploaded.body.data.fileId },
      after: { fileId: null },
    });
    const [stored] = await server.database.db.select().from(schemaTypes).where(eq(schemaTypes.schemasTypeNo, type.schemasTypeNo));
    expect([stored?.thumbnailFileId, stored?.thumbnailSmallFileId, stored?.revision]).toEqual([null, null, type.revision]);
  });

  it('sets a child schema’s thumbnail from a JPEG or a GIF (its first frame), kept by a later update', async () => {
    const type = await createType();
    const child = type.schemas[0];
    if (!child) throw new Error('no child');
    const jpeg = await new Jimp({ width: 900, height: 300, color: 0x3366ccff }).getBuffer('image/jpeg');
    const jpgUpload = await upload(curatorToken, { schemasTypeNo: type.schemasTypeNo, schemaNo: child.schemaNo }, 'salt.jpg', jpeg);
    expect(jpgUpload.body.status).toBe('0000');
    const set = await setThumbnail(curatorToken, {
      schemasTypeNo: type.schemasTypeNo,
      schemaNo: child.schemaNo,
      fileId: jpgUpload.body.data.fileId,
    });
    expect(set.body.status).toBe('0000');
    const small = await fetchFile(set.body.data.thumbnail?.smallUrl ?? '');
    expect(small.type).toBe('image/jpeg');
    expect((await Jimp.read(small.bytes)).width).toBe(LIMITS.schemaThumbnailSide);

    const gif = await new Jimp({ width: 40, height: 30, color: 0xff0000ff }).getBuffer('image/gif');
    const gifUpload = await upload(curatorToken, { schemasTypeNo: type.schemasTypeNo, schemaNo: child.schemaNo }, 'salt.gif', gif);
    expect(gifUpload.body.status).toBe('0000');
    const gifSet = await setThumbnail(curatorToken, {
      schemasTypeNo: type.schemasTypeNo,
      schemaNo: child.schemaNo,
      fileId: gifUpload.body.data.fileId,
    });
    const gifSmall = await fetchFile(gifSet.body.data.thumbnail?.smallUrl ?? '');
    expect(gifSmall.type).toBe('image/png');
    const frame = await Jimp.read(gifSmall.bytes);
    expect([frame.width, frame.height]).toEqual([40, 30]);

    const detail = (await call(curatorToken, api.schemas.detail, { schemasTypeNo: type.schemasTypeNo })).body.data;
    expect(detail.schemas[0]?.thumbnail?.fileId).toBe(gifUpload.body.data.fileId);
    expect(detail.schemas[0]?.revision).toBe(child.revision);
    expect(detail.thumbnail).toBeNull();
    const update = {
      schemasTypeNo: detail.schemasTypeNo,
      revision: detail.revision,
      code: detail.code,
      title: detail.title,
      description: 'Changed',
      status: detail.status,
      schemas: detail.schemas.map((s) => ({
        schemaNo: s.schemaNo,
        title: s.title,
        description: s.description,
        status: s.status,
        entries: s.entries,
      })),
    };
    expect((await call(curatorToken, api.schemas.update, update)).body.status).toBe('0000');
    const after = (await call(curatorToken, api.schemas.detail, { schemasTypeNo: type.schemasTypeNo })).body.data;
    expect(after.schemas[0]?.thumbnail?.fileId).toBe(gifUpload.body.data.fileId);
    // A schema removed by an update takes its thumbnail with it; the type's update still works.
    expect(
      (await call(curatorToken, api.schemas.update, { ...update, revision: after.revision, schemas: update.schemas.slice(1) })).body.status,
    ).toBe('0000');
    // Its pictures belong to nobody now: no longer readable, and not to be taken for the type's own.
    const orphan = gifUpload.body.data.fileId;
    expect((await setThumbnail(curatorToken, { schemasTypeNo: type.schemasTypeNo, fileId: orphan })).body.data).toMatchObject({
      fields: [{ field: 'fileId' }],
    });
    expect((await call(curatorToken, api.files.link, { fileId: orphan })).body.status).toBe(ERR.notFound);
  });

  it('refuses a member without the schema flag (403), storing nothing', async () => {
    const type = await createType();
    const [before, rows] = [(await storedFiles()).length, await fileRows()];
    const refused = await upload(memberToken, { schemasTypeNo: type.schemasTypeNo }, 'mine.png', PICTURE);
    expect([refused.http, refused.body.status]).toEqual([403, ERR.forbidden]);
    expect((await storedFiles()).length).toBe(before);
    expect(await fileRows()).toBe(rows);
    const own = await upload(curatorToken, { schemasTypeNo: type.schemasTypeNo }, 'ok.png', PICTURE);
    const set = await setThumbnail(memberToken, { schemasTypeNo: type.schemasTypeNo, fileId: own.body.data.fileId });
    expect([set.http, set.body.status]).toEqual([403, ERR.forbidden]);
    const [stored] = await server.database.db.select().from(schemaTypes).where(eq(schemaTypes.schemasTypeNo, type.schemasTypeNo));
    expect(stored?.thumbnailFileId).toBeNull();
  });

  it('refuses a PNG named .gif, a 3.1 MB image, a non-image, an undecodable image and a huge picture, each with its reason, storing nothing', async () => {
    const type = await createType();
    const [before, rows] = [(await storedFiles()).length, await fileRows()];
    const oversize = Buffer.concat([PICTURE, Buffer.alloc(Math.round(3.1 * 1024 * 1024) - PICTURE.length)]);
    const hugeHeader = png(1, 1, () => [0, 0, 0]);
    hugeHeader.writeUInt32BE(20_000, 16);
    hugeHeader.writeUInt32BE(20_000, 20);
    const refusals: Array<[string, Buffer, number, string]> = [
      ['disguised.gif', PICTURE, 415, ERR.thumbnailType],
      ['big.png', oversize, 413, ERR.thumbnailTooLarge],
      ['method.pdf', Buffer.from('%PDF-1.7\n...'), 415, ERR.thumbnailType],
      ['broken.png', PICTURE.subarray(0, 200), 422, ERR.thumbnailUnreadable],
      ['bomb.png', hugeHeader, 422, ERR.thumbnailUnreadable],
    ];
    for (const [name, content, http, status] of refusals) {
      const result = await upload(curatorToken, { schemasTypeNo: type.schemasTypeNo }, name, content);
      expect([name, result.http, result.body.status]).toEqual([name, http, status]);
    }
    // The message is the catalogue's, in the caller's language.
    const { payload, contentType } = multipartBody(
      { schemasTypeNo: String(type.schemasTypeNo) },
      { name: 'disguised.gif', content: PICTURE },
    );
    const korean = await server.app.inject({
      method: 'POST',
      url: `/server${api.files.upload.path}`,
      payload,
      headers: { 'content-type': contentType, authorization: `Bearer ${curatorToken}`, 'accept-language': 'ko' },
    });
    expect(korean.json<ApiResponse<unknown>>().message).toContain('썸네일');
    expect((await storedFiles()).length).toBe(before);
    expect(await fileRows()).toBe(rows);
  });

  it('refuses an owner that does not fit: another schema’s image, a schema of another type, a missing type', async () => {
    const type = await createType();
    const other = await createType();
    const child = type.schemas[0];
    const otherChild = other.schemas[0];
    if (!child || !otherChild) throw new Error('no child');
    const forChild = (await upload(curatorToken, { schemasTypeNo: type.schemasTypeNo, schemaNo: child.schemaNo }, 'c.png', PICTURE)).body
      .data;
    // Uploaded for the child: not the type's, nor another type's.
    const wrong = await setThumbnail(curatorToken, { schemasTypeNo: type.schemasTypeNo, fileId: forChild.fileId });
    expect([wrong.http, wrong.body.status]).toEqual([400, ERR.validation]);
    expect((wrong.body.data as unknown as { fields: Array<{ field: string }> }).fields[0]?.field).toBe('fileId');
    expect((await setThumbnail(curatorToken, { schemasTypeNo: other.schemasTypeNo, fileId: forChild.fileId })).body.status).toBe(
      ERR.validation,
    );
    expect(
      (await setThumbnail(curatorToken, { schemasTypeNo: type.schemasTypeNo, schemaNo: otherChild.schemaNo, fileId: null })).body.status,
    ).toBe(ERR.schemaForeign);
    expect(
      (await upload(curatorToken, { schemasTypeNo: type.schemasTypeNo, schemaNo: otherChild.schemaNo }, 'x.png', PICTURE)).body.status,
    ).toBe(ERR.schemaForeign);
    expect((await upload(curatorToken, { schemasTypeNo: 999_999 }, 'x.png', PICTURE)).body.status).toBe(ERR.schemaCheck);
    // The small copy is the server's own: it cannot be set itself.
    const [row] = await server.database.db.select().from(files).where(eq(files.fileId, forChild.fileId));
    expect(
      (await setThumbnail(curatorToken, { schemasTypeNo: type.schemasTypeNo, schemaNo: child.schemaNo, fileId: row?.smallFileId ?? '' }))
        .body.status,
    ).toBe(ERR.validation);
    const [stored] = await server.database.db.select().from(schemas).where(eq(schemas.schemaNo, child.schemaNo));
    expect(stored?.thumbnailFileId).toBeNull();
  });

  it('keeps an unused schema’s and an unused type’s thumbnails from plain members', async () => {
    const type = await createType();
    const retired = type.schemas[1];
    if (!retired) throw new Error('no child');
    const forRetired = (await upload(curatorToken, { schemasTypeNo: type.schemasTypeNo, schemaNo: retired.schemaNo }, 'r.png', PICTURE))
      .body.data;
    expect(
      (await setThumbnail(curatorToken, { schemasTypeNo: type.schemasTypeNo, schemaNo: retired.schemaNo, fileId: forRetired.fileId })).body
        .status,
    ).toBe('0000');
    expect((await call(memberToken, api.files.link, { fileId: forRetired.fileId })).http).toBe(404);
    expect((await call(curatorToken, api.files.link, { fileId: forRetired.fileId })).body.status).toBe('0000');
    // A member's view of the type leaves the unused schema out, its thumbnail with it.
    const seen = (await call(memberToken, api.schemas.detail, { schemasTypeNo: type.schemasTypeNo })).body.data;
    expect(seen.schemas.map((s) => s.schemaNo)).not.toContain(retired.schemaNo);

    const unused = await createType('N');
    const forUnused = (await upload(curatorToken, { schemasTypeNo: unused.schemasTypeNo }, 'u.png', PICTURE)).body.data;
    expect((await setThumbnail(curatorToken, { schemasTypeNo: unused.schemasTypeNo, fileId: forUnused.fileId })).body.status).toBe('0000');
    expect((await call(memberToken, api.files.link, { fileId: forUnused.fileId })).http).toBe(404);
    expect((await call(curatorToken, api.files.link, { fileId: forUnused.fileId })).body.status).toBe('0000');
  });
});
