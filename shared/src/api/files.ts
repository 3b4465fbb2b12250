import { z } from 'zod';
import { ERR } from '../errors.js';
import { FILE_TYPES, IMAGE_TYPES, LIMITS } from '../limits.js';
import { defineCall } from './call.js';

/*
 * Uploads (`fileCalls.upload`): multipart, the owner's field first, then `file`. The owner
 * is `labNoteNo`, `templateNo`, or a schema thumbnail's `schemasTypeNo` (with `schemaNo` for a child
 * schema's). Images (jpg, jpeg, png, gif, under 3 MB) and files (xls, xlsx, pptx, pdf, docx, txt, zip,
 * rar, tar, odt, under 50 MB) are checked on their content, not only their name; a schema thumbnail is
 * an image only, and the server stores a small copy of it beside it.
 */

/** Files are fetched with a short-lived signed link, so that <img> tags need no Authorization header. */
export const FILE_LINK_SECONDS = 60 * 60;

export const UPLOAD_KINDS = ['image', 'file'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** A record number as a form's text field carries it. */
const formRecordNo = z.string().regex(/^[1-9][0-9]{0,9}$/);

/**
 * The upload form's text fields, before its `file`: exactly one owner, a note (`labNoteNo`), a template
 * (`templateNo`) or a schema thumbnail's type (`schemasTypeNo`, with `schemaNo` for a child schema's).
 * The server reads them as the form streams in (server/src/files/upload.ts), by these names.
 */
export const uploadFields = z.strictObject({
  labNoteNo: formRecordNo.optional(),
  templateNo: formRecordNo.optional(),
  schemasTypeNo: formRecordNo.optional(),
  schemaNo: formRecordNo.optional(),
});

export const uploadAnswer = z.strictObject({
  fileId: z.string(),
  /** A signed link valid for FILE_LINK_SECONDS; ask /v1/common/file/url for a fresh one later. */
  url: z.string(),
  /** The original file name. */
  origin: z.string(),
  kind: z.enum(UPLOAD_KINDS),
  extension: z.string(),
  size: z.number(),
});
export type UploadAnswer = z.infer<typeof uploadAnswer>;

export const fileUrlRequest = z.strictObject({ fileId: z.string().uuid() });
export const fileUrlAnswer = z.strictObject({ url: z.string(), origin: z.string() });
export type FileUrlAnswer = z.infer<typeof fileUrlAnswer>;

/** The file calls (server/src/files). */
export const fileCalls = {
  upload: defineCall({
    path: '/v1/common/file/add',
    auth: 'user',
    kind: 'command',
    summary: 'Stores an image or file for a note, a template draft or a schema thumbnail the caller may write, checked on its content.',
    body: 'multipart',
    request: uploadFields,
    answer: uploadAnswer,
    errors: [
      ERR.unsupportedMediaType,
      ERR.tooLarge,
      ERR.fileType,
      ERR.fileTooLarge,
      ERR.fileUpload,
      ERR.imageUpload,
      ERR.noteMissing,
      ERR.forbidden,
      ERR.notFound,
      ERR.templateNotDraft,
      ERR.templateNotAuthor,
      ERR.schemaCheck,
      ERR.schemaForeign,
      ERR.thumbnailType,
      ERR.thumbnailTooLarge,
      ERR.thumbnailUnreadable,
    ],
  }),
  link: defineCall({
    path: '/v1/common/file/url',
    auth: 'user',
    kind: 'query',
    summary: 'A fresh signed link to a stored file whose note, template or schema the caller may read.',
    request: fileUrlRequest,
    answer: fileUrlAnswer,
    errors: [ERR.notFound],
  }),
} as const;

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot >= 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

export function uploadKindOf(fileName: string): UploadKind | null {
  const ext = extensionOf(fileName);
  if ((IMAGE_TYPES as readonly string[]).includes(ext)) return 'image';
  if ((FILE_TYPES as readonly string[]).includes(ext)) return 'file';
  return null;
}

export const maxBytesOf = (kind: UploadKind) => (kind === 'image' ? LIMITS.imageBytes : LIMITS.fileBytes);
