import { api, API_BASE, errorMessage, type ApiResponse, type CallInput, type CallSpec, type Language } from '@eln/shared';
import { ApiError } from '../../api/errors';
import { statusForHttp } from '../../api/errors';
import type { AuditExportBody } from './auditQuery';
import { zonedDay } from '../../lib/timeZone';

/**
 * File downloads: calls that answer the file itself (`answerBody: 'file'`: the audit CSV, an export's file)
 * rather than the JSON envelope. They are fetched with XMLHttpRequest, whose progress events drive the
 * loading overlay, and saved through an object URL. A refusal still comes as the envelope, and is raised
 * as an ApiError.
 */

/** The part of XMLHttpRequest the download uses (a fake in tests). */
export interface XhrLike {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  getResponseHeader(name: string): string | null;
  send(body: string): void;
  abort(): void;
  responseType: XMLHttpRequestResponseType;
  readonly status: number;
  readonly response: unknown;
  onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null;
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

export interface ExportDeps {
  createXhr(): XhrLike;
  /** A usable access token (refreshed first when about to expire), or null when signed out. */
  accessToken(): Promise<string | null>;
  /** Rotates the tokens after a 401; false when the server refused (the session has then ended). */
  refresh(): Promise<boolean>;
  language(): Language;
  now(): Date;
}

export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

/** Percent done (0-100), or null when the size is unknown. */
export function progressPercent(loaded: number, total: number, lengthComputable: boolean): number | null {
  if (!lengthComputable || !(total > 0)) return null;
  return Math.max(0, Math.min(100, Math.floor((loaded / total) * 100)));
}

/** The file name a Content-Disposition header gives (RFC 6266, `filename*` first), or null. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return safeFilename(decodeURIComponent(extended[1].trim()));
    } catch {
      /* malformed escape: fall back to the plain name */
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header);
  if (quoted?.[1]) return safeFilename(quoted[1].replace(/\\(.)/g, '$1'));
  const bare = /filename\s*=\s*([^;\s]+)/.exec(header);
  return bare?.[1] ? safeFilename(bare[1]) : null;
}

/** No folders, no control characters; null when nothing is left. */
function safeFilename(name: string): string | null {
  const cleaned = name
    .replace(/[\\/]/g, '_')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : null;
}

/** The name to save under when the server gave none: `audit-trail-2026-11-22.csv` (the viewer's day). */
export function fallbackFilename(now: Date): string {
  return `audit-trail-${zonedDay(now).iso}.csv`;
}

function isEnvelope(value: unknown): value is ApiResponse {
  return typeof value === 'object' && value !== null && typeof (value as { status?: unknown }).status === 'string';
}

/** The error for a refused export: the envelope's code and message when the body is one, else by HTTP status. */
export function exportError(httpStatus: number, body: string, language: Language): ApiError {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = null;
  }
  if (isEnvelope(parsed))
    return new ApiError(
      parsed.status,
      parsed.message || errorMessage(statusForHttp(httpStatus), language),
      httpStatus,
      parsed.data ?? null,
    );
  const status = statusForHttp(httpStatus);
  return new ApiError(status, errorMessage(status, language), httpStatus);
}

interface Answer {
  status: number;
  body: Blob;
  disposition: string | null;
}

function send(
  deps: ExportDeps,
  path: string,
  body: unknown,
  token: string | null,
  onProgress: (percent: number | null) => void,
  signal?: AbortSignal,
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The download was cancelled.', 'AbortError'));
      return;
    }
    const xhr = deps.createXhr();
    xhr.open('POST', `${API_BASE}${path}`);
    xhr.responseType = 'blob';
    xhr.setRequestHeader('Content-Type', 'application/json');
    xhr.setRequestHeader('Accept', '*/*');
    xhr.setRequestHeader('Accept-Language', deps.language());
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.onprogress = (event) => onProgress(progressPercent(event.loaded, event.total, event.lengthComputable));
    xhr.onload = () => {
      done();
      const response = xhr.response;
      resolve({
        status: xhr.status,
        body: response instanceof Blob ? response : new Blob([typeof response === 'string' ? response : '']),
        disposition: xhr.getResponseHeader('Content-Disposition'),
      });
    };
    xhr.onerror = () => {
      done();
      const status = statusForHttp(0);
      reject(new ApiError(status, errorMessage(status, deps.language()), 0));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('The download was cancelled.', 'AbortError'));
    };
    xhr.send(JSON.stringify(body));
  });
}

/**
 * Downloads the file a call answers (the audit CSV, an export), reporting progress (0-100, or null while
 * the size is unknown). A 401 is retried once after rotating the tokens; a refusal rejects with an ApiError.
 */
export async function downloadFile<C extends CallSpec>(
  spec: C,
  body: CallInput<C>,
  onProgress: (percent: number | null) => void,
  deps: ExportDeps,
  fallbackName: (now: Date) => string,
  signal?: AbortSignal,
): Promise<DownloadedFile> {
  if (spec.answerBody !== 'file') throw new Error(`${spec.path} answers the envelope, not a file`);
  let answer = await send(deps, spec.path, body, await deps.accessToken(), onProgress, signal);
  if (answer.status === 401 && (await deps.refresh())) {
    answer = await send(deps, spec.path, body, await deps.accessToken(), onProgress, signal);
  }
  if (answer.status === 200) {
    return { blob: answer.body, filename: filenameFromDisposition(answer.disposition) ?? fallbackName(deps.now()) };
  }
  throw exportError(answer.status, await answer.body.text(), deps.language());
}

/** Downloads the audit CSV for `filter` (see downloadFile). */
export function downloadAuditCsv(
  filter: AuditExportBody,
  onProgress: (percent: number | null) => void,
  deps: ExportDeps,
  signal?: AbortSignal,
): Promise<DownloadedFile> {
  return downloadFile(api.audit.exportCsv, filter, onProgress, deps, fallbackFilename, signal);
}

/** "12.3 KB" in the language's digits. */
export function formatSize(bytes: number, language: Language): string {
  const units = ['B', 'KB', 'MB', 'GB'] as const;
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : value < 10 ? 1 : 0;
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}
