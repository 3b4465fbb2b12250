import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ERR, extensionOf, maxBytesOf, uploadKindOf, type ErrorCode, type UploadAnswer } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { files } from '../../db/schema.js';
import { AppError, isAppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { cleanFileName } from '../fileName.js';
import { addedFileTypes } from '../fileTypes.js';
import { contentCheckFor, mimeTypeOf, type ContentCheck } from '../magic.js';
import { isSchemaThumbnail, requireWritableOwner, type NamedOwner } from '../owners.js';
import { makeSmallCopy } from '../thumbnail.js';
import { refuseDeclaredOversize } from '../uploadLimits.js';

/** The file part of an upload's form, as it streams in. */
export interface UploadInput {
  owner: NamedOwner;
  /** The name the client gave the file (only its last path part is kept, cleaned). */
  fileName: string;
  /** The file's bytes; `truncated` once the multipart parser stopped at its size limit. */
  content: Readable & { truncated: boolean };
  /** The whole body's declared size, or null when the client did not declare it. */
  declaredBytes: number | null;
}

/** The refusals of an upload: a schema thumbnail's say what a thumbnail may be (an image, 3 MB). */
const NOTE_REFUSALS = { type: ERR.fileType, tooLarge: ERR.fileTooLarge } as const;
const THUMBNAIL_REFUSALS = { type: ERR.thumbnailType, tooLarge: ERR.thumbnailTooLarge } as const;

/**
 * Counts, hashes and checks the content of a stream as it passes to disk, and fails it as soon as it
 * passes `maxBytes`, so that no more than the kind's limit is ever written.
 */
function inspector(maxBytes: number, tooLarge: ErrorCode, content: ContentCheck) {
  const hash = createHash('sha256');
  let size = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        callback(new AppError(tooLarge));
        return;
      }
      hash.update(chunk);
      content.update(chunk);
      callback(null, chunk);
    },
  });
  return { transform, result: () => ({ size, sha256: hash.digest('hex'), contentPasses: content.passes() }) };
}

/**
 * Stores an uploaded image or file for the owner its form names, if the caller may write that owner now
 * (the note's, template's or schemas' policy). The type is checked by name (the spec's and those
 * administrators added) and then by content, the size while it streams; a schema thumbnail is an image
 * only, and its small copy is made before anything is kept. The file and its row (audited) are kept together or not at all.
 */
export async function storeUpload(
  { db, config, fileLinks, log, fileTexts }: Services,
  actor: Actor,
  input: UploadInput,
): Promise<UploadAnswer> {
  const owner = await requireWritableOwner(db, actor.user, input.owner);
  const thumbnail = isSchemaThumbnail(owner);
  const refusals = thumbnail ? THUMBNAIL_REFUSALS : NOTE_REFUSALS;
  const origin = cleanFileName(path.basename(input.fileName || 'file'));
  const extension = extensionOf(origin);
  const extraTypes = await addedFileTypes(db);
  const kind = uploadKindOf(origin, extraTypes);
  const contentCheck = contentCheckFor(extension, extraTypes);
  if (!kind || !contentCheck || (thumbnail && kind !== 'image')) throw new AppError(refusals.type);
  // An image declared larger than an image may be is refused before anything is written.
  refuseDeclaredOversize(input.declaredBytes, maxBytesOf(kind), refusals.tooLarge);
  const fileId = randomUUID();
  const now = new Date();
  const relative = path.join(String(now.getUTCFullYear()), String(now.getUTCMonth() + 1).padStart(2, '0'), `${fileId}.${extension}`);
  const finalPath = path.join(config.filesDir, relative);
  const partialPath = `${finalPath}.partial`;
  await mkdir(path.dirname(finalPath), { recursive: true });
  const inspect = inspector(maxBytesOf(kind), refusals.tooLarge, contentCheck);
  try {
    await pipeline(input.content, inspect.transform, createWriteStream(partialPath));
  } catch (error) {
    await rm(partialPath, { force: true });
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(refusals.tooLarge);
    throw error;
  }
  const { size, sha256, contentPasses } = inspect.result();
  if (input.content.truncated) {
    await rm(partialPath, { force: true });
    throw new AppError(refusals.tooLarge);
  }
  if (size === 0 || !contentPasses) {
    await rm(partialPath, { force: true });
    throw new AppError(refusals.type);
  }
  // A schema thumbnail's small copy is made (and the image so decoded) before anything is kept.
  const small = thumbnail ? await smallCopyOf(config.filesDir, partialPath, extension, origin, finalPath) : null;
  await rename(partialPath, finalPath);
  try {
    await db.transaction(async (tx) => {
      if (small) await tx.insert(files).values({ ...small.row, ...owner, uploadedByUserNo: actor.user.userNo });
      await tx.insert(files).values({
        fileId,
        ...owner,
        smallFileId: small?.row.fileId ?? null,
        kind,
        originName: origin,
        extension,
        mimeType: mimeTypeOf(extension, extraTypes),
        size,
        sha256,
        storagePath: relative,
        uploadedByUserNo: actor.user.userNo,
      });
      await appendAudit(tx, {
        ...auditedActor(actor),
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
      });
    });
  } catch (error) {
    // A file no row names would never be served nor cleaned up: it goes with the failed insert.
    await rm(finalPath, { force: true });
    if (small) await rm(small.path, { force: true });
    if (isAppError(error)) throw error;
    log.error({ err: error }, 'upload could not be recorded');
    throw new AppError(kind === 'image' ? ERR.imageUpload : ERR.fileUpload, { cause: error });
  }
  // Its text is read in the background (its row made pending with it); the upload never waits for it.
  if (kind === 'file') fileTexts.kick();
  return { fileId, url: fileLinks.make(fileId), origin, kind, extension, size };
}

/**
 * Makes and writes the small copy of a schema thumbnail beside the original (same folder), and the row
 * that will name it. Refused (4009) with the partial upload removed when the image cannot be decoded.
 */
async function smallCopyOf(filesDir: string, partialPath: string, extension: string, origin: string, finalPath: string) {
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
      mimeType: mimeTypeOf(copy.extension),
      size: copy.content.length,
      sha256: createHash('sha256').update(copy.content).digest('hex'),
      storagePath: path.relative(filesDir, smallPath),
    },
  };
}
