import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import {
  API_BASE,
  ERR,
  extensionOf,
  FILE_UPLOAD_PATH,
  fileUrlRequest,
  LIMITS,
  maxBytesOf,
  uploadKindOf,
  type ErrorCode,
  type FileUrlAnswer,
  type UploadAnswer,
} from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import { files } from '../db/schema.js';
import { AppError, isAppError } from '../http/errors.js';
import { success } from '../http/envelope.js';
import { authenticate, defineRoute } from '../http/route.js';
import type { Services } from '../services.js';
import { cleanFileName } from './fileName.js';
import { isSchemaThumbnail, ownerReadable, requireWritableOwner, type NamedOwner } from './owners.js';
import { contentMatchesExtension, MAGIC_BYTES_NEEDED, MIME_TYPES } from './magic.js';
import { makeSmallCopy } from './thumbnail.js';

/** Room for the multipart framing around the file (boundaries, part headers, the labNoteNo field). */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** The body size the client declared, or null when it did not (chunked). */
function declaredLength(request: FastifyRequest): number | null {
  const header = request.headers['content-length'];
  const length = header === undefined ? Number.NaN : Number(header);
  return Number.isFinite(length) ? length : null;
}

/** Refuses, before a byte of the body is read, a request that says it is larger than `maxFileBytes` allows. */
function refuseDeclaredOversize(request: FastifyRequest, maxFileBytes: number, tooLarge: ErrorCode = ERR.fileTooLarge): void {
  const declared = declaredLength(request);
  if (declared !== null && declared > maxFileBytes + MULTIPART_OVERHEAD_BYTES) throw new AppError(tooLarge);
}

/** The refusals of an upload: a schema thumbnail's say what a thumbnail may be (an image, 3 MB). */
const NOTE_REFUSALS = { type: ERR.fileType, tooLarge: ERR.fileTooLarge } as const;
const THUMBNAIL_REFUSALS = { type: ERR.thumbnailType, tooLarge: ERR.thumbnailTooLarge } as const;

/**
 * Counts, hashes and keeps the first bytes of a stream as it passes to disk, and fails it as soon as
 * it passes `maxBytes`, so that no more than the kind's limit is ever written.
 */
function inspector(maxBytes: number, tooLarge: ErrorCode) {
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headBytes = 0;
  let size = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        callback(new AppError(tooLarge));
        return;
      }
      hash.update(chunk);
      if (headBytes < MAGIC_BYTES_NEEDED) {
        head.push(chunk.subarray(0, MAGIC_BYTES_NEEDED - headBytes));
        headBytes += Math.min(chunk.length, MAGIC_BYTES_NEEDED - headBytes);
      }
      callback(null, chunk);
    },
  });
  return { transform, result: () => ({ size, sha256: hash.digest('hex'), head: new Uint8Array(Buffer.concat(head)) }) };
}

/** Uploads (images and files tied to a note) and their signed download links. */
export async function registerFileRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { db, config, fileLinks } = services;
  await app.register(fastifyMultipart, { limits: { fileSize: LIMITS.fileBytes + 1, files: 1, fields: 4, parts: 5, fieldSize: 1024 } });

  app.post(`${API_BASE}${FILE_UPLOAD_PATH}`, async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await receiveUpload(request);
    } catch (error) {
      // A refused upload's unread body is not read to its end: the connection closes after the answer.
      reply.header('connection', 'close');
      throw error;
    }
  });

  async function receiveUpload(request: FastifyRequest) {
    refuseDeclaredOversize(request, LIMITS.fileBytes);
    const user = await authenticate(services, request, 'user');
    if (!user) throw new AppError(ERR.sessionEnded);
    if (!request.isMultipart()) throw new AppError(ERR.unsupportedMediaType);
    const named: NamedOwner = { labNoteNo: null, templateNo: null, schemasTypeNo: null, schemaNo: null };
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'labNoteNo') named.labNoteNo = Number(part.value);
        if (part.fieldname === 'templateNo') named.templateNo = Number(part.value);
        if (part.fieldname === 'schemasTypeNo') named.schemasTypeNo = Number(part.value);
        if (part.fieldname === 'schemaNo') named.schemaNo = Number(part.value);
        continue;
      }
      const owner = await requireWritableOwner(db, user, named);
      const thumbnail = isSchemaThumbnail(owner);
      const refusals = thumbnail ? THUMBNAIL_REFUSALS : NOTE_REFUSALS;
      const origin = cleanFileName(path.basename(part.filename || 'file'));
      const kind = uploadKindOf(origin);
      if (!kind || (thumbnail && kind !== 'image')) throw new AppError(refusals.type);
      // An image declared larger than an image may be is refused before anything is written.
      refuseDeclaredOversize(request, maxBytesOf(kind), refusals.tooLarge);
      const extension = extensionOf(origin);
      const fileId = randomUUID();
      const now = new Date();
      const relative = path.join(String(now.getUTCFullYear()), String(now.getUTCMonth() + 1).padStart(2, '0'), `${fileId}.${extension}`);
      const finalPath = path.join(config.filesDir, relative);
      const partialPath = `${finalPath}.partial`;
      await mkdir(path.dirname(finalPath), { recursive: true });
      const inspect = inspector(maxBytesOf(kind), refusals.tooLarge);
      try {
        await pipeline(part.file, inspect.transform, createWriteStream(partialPath));
      } catch (error) {
        await rm(partialPath, { force: true });
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(refusals.tooLarge);
        throw error;
      }
      const { size, sha256, head } = inspect.result();
      if (part.file.truncated) {
        await rm(partialPath, { force: true });
        throw new AppError(refusals.tooLarge);
      }
      if (size === 0 || !contentMatchesExtension(extension, head)) {
        await rm(partialPath, { force: true });
        throw new AppError(refusals.type);
      }
      // A schema thumbnail's small copy is made (and the image so decoded) before anything is kept.
      const small = thumbnail ? await smallCopyOf(partialPath, extension, origin, finalPath) : null;
      await rename(partialPath, finalPath);
      try {
        await db.transaction(async (tx) => {
          if (small) await tx.insert(files).values({ ...small.row, ...owner, uploadedByUserNo: user.userNo });
          await tx.insert(files).values({
            fileId,
            ...owner,
            smallFileId: small?.row.fileId ?? null,
            kind,
            originName: origin,
            extension,
            mimeType: MIME_TYPES[extension] ?? 'application/octet-stream',
            size,
            sha256,
            storagePath: relative,
            uploadedByUserNo: user.userNo,
          });
          await appendAudit(tx, {
            actor: user,
            action: 'file.uploaded',
            target: { type: 'file', id: fileId },
            after: {
              noteNo: owner.noteNo,
              templateNo: owner.templateNo,
              ...(thumbnail ? { schemasTypeNo: owner.schemasTypeNo, schemaNo: owner.schemaNo, smallFileId: small?.row.fileId } : {}),
              origin,
              kind,
              size,
              sha256,
            },
            clientAddress: request.ip,
          });
        });
      } catch (error) {
        // A file no row names would never be served nor cleaned up: it goes with the failed insert.
        await rm(finalPath, { force: true });
        if (small) await rm(small.path, { force: true });
        if (isAppError(error)) throw error;
        request.log.error({ err: error }, 'upload could not be recorded');
        throw new AppError(kind === 'image' ? ERR.imageUpload : ERR.fileUpload, { cause: error });
      }
      const answer: UploadAnswer = { fileId, url: fileLinks.make(fileId), origin, kind, extension, size };
      return success(request, answer);
    }
    throw new AppError(ERR.validation, { data: { fields: [{ field: 'file', reason: 'required' }] } });
  }

  /**
   * Makes and writes the small copy of a schema thumbnail beside the original (same folder), and the row
   * that will name it. Refused (4009) with the partial upload removed when the image cannot be decoded.
   */
  async function smallCopyOf(partialPath: string, extension: string, origin: string, finalPath: string) {
    let copy;
    try {
      copy = await makeSmallCopy(extension, await readFile(partialPath));
    } catch (error) {
      await rm(partialPath, { force: true });
      throw error;
    }
    const fileId = randomUUID();
    const smallPath = path.join(path.dirname(finalPath), `${fileId}.${copy.extension}`);
    await writeFile(smallPath, copy.content);
    const base = origin.slice(0, origin.length - extension.length - 1) || 'thumbnail';
    return {
      path: smallPath,
      row: {
        fileId,
        kind: 'image' as const,
        originName: cleanFileName(`${base} (small).${copy.extension}`),
        extension: copy.extension,
        mimeType: MIME_TYPES[copy.extension] ?? 'application/octet-stream',
        size: copy.content.length,
        sha256: createHash('sha256').update(copy.content).digest('hex'),
        storagePath: path.relative(config.filesDir, smallPath),
      },
    };
  }

  defineRoute(app, services, {
    path: '/v1/common/file/url',
    access: 'user',
    body: fileUrlRequest,
    async handler({ body, user }): Promise<FileUrlAnswer> {
      const [file] = await db.select().from(files).where(eq(files.fileId, body.fileId));
      if (!file || !(await ownerReadable(db, user, file))) throw new AppError(ERR.notFound);
      return { url: fileLinks.make(file.fileId), origin: file.originName };
    },
  });

  app.get<{ Params: { fileId: string }; Querystring: { e?: string; s?: string } }>('/files/:fileId', async (request, reply) => {
    const { fileId } = request.params;
    const valid = /^[0-9a-f-]{36}$/.test(fileId) && fileLinks.verify(fileId, Number(request.query.e), String(request.query.s ?? ''));
    const [file] = valid ? await db.select().from(files).where(eq(files.fileId, fileId)) : [];
    if (!file) return reply.code(404).type('text/plain').send('Not found');
    const fullPath = path.join(config.filesDir, file.storagePath);
    await stat(fullPath);
    const disposition = file.kind === 'image' ? 'inline' : 'attachment';
    return reply
      .header('content-type', file.mimeType)
      .header('content-length', String(file.size))
      .header('content-disposition', `${disposition}; filename*=UTF-8''${encodeURIComponent(file.originName)}`)
      .header('cache-control', 'private, max-age=3600')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(createReadStream(fullPath));
  });
}
