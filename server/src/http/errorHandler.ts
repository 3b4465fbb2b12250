import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { API_BASE, ERR, fieldMessage, toFieldErrors, type ErrorCode } from '@eln/shared';
import { isAppError } from './errors.js';
import { answerForDatabaseError } from '../db/errors.js';
import { languageOf, sendError } from './envelope.js';

/** Fastify's own request errors and the catalogue code each one answers with. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ERR.tooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ERR.unsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ERR.malformed,
  FST_ERR_CTP_EMPTY_JSON_BODY: ERR.malformed,
  FST_ERR_CTP_INVALID_JSON_BODY: ERR.malformed,
  FST_ERR_CTP_INVALID_TYPE: ERR.malformed,
  FST_REQ_FILE_TOO_LARGE: ERR.fileTooLarge,
  FST_FILES_LIMIT: ERR.tooLarge,
  FST_PARTS_LIMIT: ERR.tooLarge,
  FST_FIELDS_LIMIT: ERR.tooLarge,
  FST_INVALID_MULTIPART_CONTENT_TYPE: ERR.unsupportedMediaType,
};

/**
 * The one place where failures become answers. Nothing of an unexpected error (stack, SQL, driver
 * message) reaches the client: it is logged with the request id and answered as 9999.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (isAppError(error)) {
      return sendError(request, reply, error.code, { params: error.options.params, data: error.options.data });
    }
    if (error instanceof ZodError) {
      const language = languageOf(request);
      const fields = toFieldErrors(error.issues).map((field) => ({ ...field, message: fieldMessage(field, language) }));
      return sendError(request, reply, ERR.validation, { data: { fields } });
    }
    const databaseCode = answerForDatabaseError(error);
    if (databaseCode) {
      // Validation should have refused this first; the log says which call let it through.
      request.log.warn({ err: error }, 'database refused the request');
      return sendError(request, reply, databaseCode);
    }
    const fastifyCode = 'code' in error && typeof error.code === 'string' ? FASTIFY_CODES[error.code] : undefined;
    if (fastifyCode) return sendError(request, reply, fastifyCode);
    // JSON that does not parse, or carries __proto__/constructor keys, arrives as a 400 SyntaxError.
    const statusCode = 'statusCode' in error ? error.statusCode : undefined;
    if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
      return sendError(request, reply, statusCode === 413 ? ERR.tooLarge : statusCode === 415 ? ERR.unsupportedMediaType : ERR.malformed);
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendError(request, reply, ERR.unexpected);
  });
}

export const isApiPath = (url: string) => url === API_BASE || url.startsWith(`${API_BASE}/`);
