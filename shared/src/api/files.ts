import { z } from 'zod';
import { FILE_TYPES, IMAGE_TYPES, LIMITS } from '../limits.js';

/**
 * Uploads: `POST /server/v1/common/file/add`, multipart, the owner's field first, then `file`. The owner
 * is `labNoteNo`, `templateNo`, or a schema thumbnail's `schemasTypeNo` (with `schemaNo` for a child
 * schema's). Images (jpg, jpeg, png, gif, under 3 MB) and files (xls, xlsx, pptx, pdf, docx, txt, zip,
 * rar, tar, odt, under 50 MB) are checked on their content, not only their name; a schema thumbnail is
 * an image only, and the server stores a small copy of it beside it.
 */
export const FILE_UPLOAD_PATH = '/v1/common/file/add';
/** Files are fetched with a short-lived signed link, so that <img> tags need no Authorization header. */
export const FILE_LINK_SECONDS = 60 * 60;

export type UploadKind = 'image' | 'file';

export interface UploadAnswer {
  fileId: string;
  /** A signed link valid for FILE_LINK_SECONDS; ask /v1/common/file/url for a fresh one later. */
  url: string;
  /** The original file name. */
  origin: string;
  kind: UploadKind;
  extension: string;
  size: number;
}

export const fileUrlRequest = z.strictObject({ fileId: z.string().uuid() });
export interface FileUrlAnswer {
  url: string;
  origin: string;
}

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
