import {
  ERR,
  ERROR_CATALOGUE,
  errorMessage,
  isErrorCode,
  placeholdersOf,
  type FieldError,
  type Language,
  type StatusCode,
} from '@eln/shared';

/** A call that did not answer "0000". `status` is the four-character code, `message` the server's text. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: string;
  readonly httpStatus: number;
  readonly data: unknown;

  constructor(status: string, message: string, httpStatus: number, data: unknown = null) {
    super(message);
    this.status = status;
    this.httpStatus = httpStatus;
    this.data = data;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The status code to use when an answer is not the product's envelope (a proxy page, an empty body). */
export function statusForHttp(httpStatus: number): StatusCode {
  if (httpStatus >= 200 && httpStatus < 300) return ERR.unexpected;
  if (httpStatus === 0 || httpStatus === 502 || httpStatus === 503 || httpStatus === 504) return ERR.unavailable;
  if (httpStatus === 401) return ERR.sessionEnded;
  if (httpStatus === 403) return ERR.forbidden;
  if (httpStatus === 404) return ERR.unknownCall;
  if (httpStatus === 413) return ERR.tooLarge;
  if (httpStatus === 415) return ERR.unsupportedMediaType;
  if (httpStatus === 400) return ERR.malformed;
  return ERR.unexpected;
}

/** The field errors of a 400 answer (`data.fields`), or none. */
export function fieldErrorsOf(error: unknown): FieldError[] {
  if (!isApiError(error) || !isRecord(error.data) || !Array.isArray(error.data.fields)) return [];
  return error.data.fields.filter(
    (field): field is FieldError => isRecord(field) && typeof field.field === 'string' && typeof field.reason === 'string',
  );
}

/** Seconds to wait before trying again, from a 1004 answer's `data.retryAfter`. */
export function retryAfterOf(error: unknown): number | null {
  if (!isApiError(error) || !isRecord(error.data)) return null;
  const seconds = Number(error.data.retryAfter);
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : null;
}

/**
 * The localised text for a failed call, from the shared catalogue (unknown codes read as "unexpected").
 * A message that names values only the server knows (the last approved version, a file's name) is the
 * server's own, already in this language (the client asks for it as Accept-Language): the catalogue
 * alone would show its placeholders.
 */
export function apiErrorText(error: unknown, language: Language, retryAfterOverride?: number): string {
  if (!isApiError(error)) return errorMessage(ERR.unexpected, language);
  const code = isErrorCode(error.status) ? error.status : ERR.unexpected;
  if (code === ERR.tooManyAttempts) {
    const seconds = retryAfterOverride ?? retryAfterOf(error) ?? 60;
    return errorMessage(code, language, { seconds });
  }
  if (placeholdersOf(ERROR_CATALOGUE[code].en).length > 0 && error.message && placeholdersOf(error.message).length === 0)
    return error.message;
  return errorMessage(code, language);
}
