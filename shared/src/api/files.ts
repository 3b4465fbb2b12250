import { z } from 'zod';
import { ERR } from '../errors.js';
import { EXTRA_FILE_TYPE_LIMITS, FILE_TYPES, IMAGE_TYPES, LIMITS } from '../limits.js';
import { text } from '../validation.js';
import { defineCall } from './call.js';

/*
 * Uploads (`fileCalls.upload`): multipart, the owner's field first, then `file`. The owner
 * is `labNoteNo`, `templateNo`, or a schema thumbnail's `schemasTypeNo` (with `schemaNo` for a child
 * schema's). Images (jpg, jpeg, png, gif, under 3 MB) and files (xls, xlsx, pptx, pdf, docx, txt, zip,
 * rar, tar, odt, under 50 MB) are checked on their content, not only their name; a schema thumbnail is
 * an image only, and the server stores a small copy of it beside it. Administrators add file types to
 * that list (`updateTypes`), each with the check its content must pass.
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

/**
 * How an added type's content is checked, as images' and the spec's files' are: `text` is text in UTF-8
 * or CP949 (Korean Excel's CSV) throughout, with no NUL or other control byte but tab, line and page
 * breaks and escape; `signature` is a file that starts with one of the type's `signatures` (hex bytes).
 */
export const FILE_TYPE_CHECKS = ['text', 'signature'] as const;
export type FileTypeCheck = (typeof FILE_TYPE_CHECKS)[number];

/**
 * Extensions no administrator may add: the spec's own (already allowed), and pages, scripts and programs
 * that a browser or a desktop runs when opened.
 */
const RUNNABLE_EXTENSIONS = new Set([
  ...['htm', 'html', 'xht', 'xhtml', 'svg', 'svgz', 'js', 'mjs', 'hta', 'jar'],
  ...['exe', 'dll', 'msi', 'com', 'scr', 'bat', 'cmd', 'ps1', 'vbs', 'sh'],
]);
const isSpecType = (extension: string) =>
  (IMAGE_TYPES as readonly string[]).includes(extension) || (FILE_TYPES as readonly string[]).includes(extension);

/** A MIME type without parameters (RFC 6838 names), lower-case. */
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,62}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,62}$/;
/** Types a browser would render as a page or run: never given to an upload, even one served as an attachment. */
const ACTIVE_MIME_TYPE = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml)$|script/;

const extension = text()
  .trim()
  .toLowerCase()
  .min(1, { error: 'required' })
  .max(EXTRA_FILE_TYPE_LIMITS.extension)
  .regex(/^[a-z0-9]+$/, { error: 'invalidFormat' })
  .refine((value) => !isSpecType(value), { error: 'alreadyAllowed' })
  .refine((value) => !RUNNABLE_EXTENSIONS.has(value), { error: 'invalidValue' });

/** Hex bytes, spaces allowed between them (`4D 4D 00 2A`), kept upper-case without spaces. */
const signature = text()
  .overwrite((value) => value.replace(/\s+/g, '').toUpperCase())
  .min(1, { error: 'required' })
  .max(EXTRA_FILE_TYPE_LIMITS.signatureBytes * 2)
  .regex(/^(?:[0-9A-F]{2})+$/, { error: 'invalidFormat' });

/** One added type as an administrator sends it. */
export const extraFileType = z
  .strictObject({
    extension,
    mimeType: text()
      .trim()
      .toLowerCase()
      .min(1, { error: 'required' })
      .max(EXTRA_FILE_TYPE_LIMITS.mimeType)
      .regex(MIME_TYPE, { error: 'invalidFormat' })
      .refine((value) => !ACTIVE_MIME_TYPE.test(value), { error: 'invalidValue' }),
    check: z.enum(FILE_TYPE_CHECKS),
    signatures: z.array(signature).max(EXTRA_FILE_TYPE_LIMITS.signatures).default([]),
  })
  .superRefine((type, ctx) => {
    if (type.check === 'signature' && type.signatures.length === 0)
      ctx.addIssue({ code: 'custom', message: 'required', path: ['signatures'], input: type.signatures });
    if (type.check === 'text' && type.signatures.length > 0)
      ctx.addIssue({ code: 'custom', message: 'invalidValue', path: ['signatures'], input: type.signatures });
  });
export type ExtraFileTypeInput = z.input<typeof extraFileType>;

/** An added type as stored and answered. */
export const extraFileTypeRecord = z.strictObject({
  extension: z.string(),
  mimeType: z.string(),
  check: z.enum(FILE_TYPE_CHECKS),
  signatures: z.array(z.string()),
});
export type ExtraFileType = z.infer<typeof extraFileTypeRecord>;

/** `/v1/admin/file/type/update { types }`: the added types, all of them (the list replaces the stored one). */
export const fileTypesUpdateRequest = z.strictObject({
  types: z
    .array(extraFileType)
    .max(EXTRA_FILE_TYPE_LIMITS.types)
    .superRefine((types, ctx) => {
      const seen = new Set<string>();
      types.forEach((type, index) => {
        if (seen.has(type.extension))
          ctx.addIssue({ code: 'custom', message: 'duplicateName', path: [index, 'extension'], input: type.extension });
        seen.add(type.extension);
      });
    }),
});
export type FileTypesUpdateRequest = z.input<typeof fileTypesUpdateRequest>;

/** The types added to the spec's list (the spec's own are IMAGE_TYPES and FILE_TYPES), in extension order. */
export const fileTypesAnswer = z.strictObject({
  extra: z.array(extraFileTypeRecord),
  abilities: z.strictObject({ update: z.boolean() }),
});
export type FileTypesAnswer = z.infer<typeof fileTypesAnswer>;

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
  types: defineCall({
    path: '/v1/common/file/type/list',
    auth: 'user',
    kind: 'query',
    summary: 'The file types administrators added to the spec’s list, which uploads accept besides the spec’s own.',
    request: z.strictObject({}),
    answer: fileTypesAnswer,
    errors: [],
  }),
  updateTypes: defineCall({
    path: '/v1/admin/file/type/update',
    auth: 'admin',
    kind: 'command',
    summary: 'Replaces the added file types (extension, MIME type, content check); audited with the list before and after.',
    request: fileTypesUpdateRequest,
    answer: fileTypesAnswer,
    errors: [ERR.forbidden],
  }),
} as const;

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot >= 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/**
 * What an upload of this name is by its extension: an image, a file (the spec's or a type an administrator
 * added, `extra`), or nothing accepted. Browser and server judge by this one rule; the server then checks
 * the content.
 */
export function uploadKindOf(fileName: string, extra: readonly Pick<ExtraFileType, 'extension'>[] = []): UploadKind | null {
  const ext = extensionOf(fileName);
  if ((IMAGE_TYPES as readonly string[]).includes(ext)) return 'image';
  if ((FILE_TYPES as readonly string[]).includes(ext)) return 'file';
  if (ext && extra.some((type) => type.extension === ext)) return 'file';
  return null;
}

/** The extensions a file (not image) upload may have: the spec's and the added ones. */
export const fileExtensions = (extra: readonly Pick<ExtraFileType, 'extension'>[]): string[] => [
  ...FILE_TYPES,
  ...extra.map((type) => type.extension),
];

export const maxBytesOf = (kind: UploadKind) => (kind === 'image' ? LIMITS.imageBytes : LIMITS.fileBytes);
