import {
  api,
  API_BASE,
  ERR,
  errorMessage,
  extensionOf,
  maxBytesOf,
  SUCCESS,
  uploadKindOf,
  type ApiResponse,
  type ExtraFileType,
  type Language,
  type UploadAnswer,
  type UploadKind,
} from '@eln/shared';

/** Codes of the shared catalogue for a refused upload: 3019 the type, 3020 the size. */
export const UPLOAD_TYPE_REFUSED = ERR.fileType;
export const UPLOAD_TOO_LARGE = ERR.fileTooLarge;

export type UploadCheck =
  { ok: true; kind: UploadKind; extension: string } | { ok: false; code: typeof UPLOAD_TYPE_REFUSED | typeof UPLOAD_TOO_LARGE };

/**
 * The client's check before sending (the server checks the content and has the last word): the type by
 * extension, the spec's or one administrators added (`addedTypes`, files only), the size under the kind's
 * limit. `wanted` restricts to images or files.
 */
export function checkUpload(name: string, size: number, wanted?: UploadKind, addedTypes: readonly ExtraFileType[] = []): UploadCheck {
  const kind = uploadKindOf(name, addedTypes);
  if (!kind || (wanted && kind !== wanted)) return { ok: false, code: UPLOAD_TYPE_REFUSED };
  if (size > maxBytesOf(kind)) return { ok: false, code: UPLOAD_TOO_LARGE };
  return { ok: true, kind, extension: extensionOf(name) };
}

export function uploadCheckMessage(check: UploadCheck, language: Language): string | null {
  return check.ok ? null : errorMessage(check.code, language);
}

/** What an <input accept> offers for a kind. */
export function acceptFor(kind: UploadKind, extensions: readonly string[]): string {
  return extensions.map((ext) => `.${ext}`).join(',') + (kind === 'image' ? ',image/*' : '');
}

export class UploadError extends Error {
  constructor(
    readonly status: string,
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
  }
}

/** What an upload is attached to: the lab note or the template draft being edited, or a schema thumbnail (a type's, or a child schema's). */
export type UploadOwner = { labNoteNo: number } | { templateNo: number } | { schemasTypeNo: number; schemaNo: number | null };

export interface UploadOptions {
  owner: UploadOwner;
  file: File;
  token: string | null;
  language: Language;
  onProgress(percent: number): void;
  signal?: AbortSignal;
}

/**
 * POSTs the file as multipart (the owner's fields first, then `file`) with XMLHttpRequest, whose upload events
 * give real progress (fetch has none), and resolves to the server's answer.
 */
export function uploadFile({ owner, file, token, language, onProgress, signal }: UploadOptions): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${api.files.upload.path}`);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', language);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress((event.loaded / event.total) * 100);
    };
    const fail = (status: string, httpStatus: number, message?: string) =>
      reject(new UploadError(status, message || errorMessage(status, language), httpStatus));
    xhr.onerror = () => fail(ERR.unavailable, 0);
    xhr.onabort = () => fail(ERR.unavailable, 0);
    xhr.onload = () => {
      let envelope: ApiResponse | null = null;
      try {
        envelope = JSON.parse(xhr.responseText) as ApiResponse;
      } catch {
        envelope = null;
      }
      if (envelope && envelope.status === SUCCESS && xhr.status < 400) {
        onProgress(100);
        resolve(envelope.data as UploadAnswer);
        return;
      }
      const status =
        envelope?.status ?? (xhr.status === 413 ? UPLOAD_TOO_LARGE : xhr.status === 415 ? UPLOAD_TYPE_REFUSED : ERR.unexpected);
      fail(status, xhr.status, envelope?.message);
    };
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    if ('templateNo' in owner) form.append('templateNo', String(owner.templateNo));
    else if ('schemasTypeNo' in owner) {
      form.append('schemasTypeNo', String(owner.schemasTypeNo));
      if (owner.schemaNo !== null) form.append('schemaNo', String(owner.schemaNo));
    } else form.append('labNoteNo', String(owner.labNoteNo));
    form.append('file', file, file.name);
    onProgress(0);
    xhr.send(form);
  });
}

/** Signed links live an hour; keep one for 50 minutes, then ask again. */
export const LINK_CACHE_MS = 50 * 60 * 1000;

export interface LinkCache {
  get(fileId: string, now?: number): string | null;
  put(fileId: string, url: string, now?: number): void;
}

export function createLinkCache(ttlMs: number = LINK_CACHE_MS): LinkCache {
  const links = new Map<string, { url: string; until: number }>();
  return {
    get(fileId, now = Date.now()) {
      const hit = links.get(fileId);
      if (!hit) return null;
      if (hit.until <= now) {
        links.delete(fileId);
        return null;
      }
      return hit.url;
    },
    put(fileId, url, now = Date.now()) {
      links.set(fileId, { url, until: now + ttlMs });
    },
  };
}
