import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ERR,
  errorMessage,
  httpStatusOf,
  pickLanguage,
  provideErrorMessages,
  SUCCESS,
  type ApiResponse,
  type ErrorCode,
  type Language,
} from '@eln/shared';
import japaneseErrors from '@eln/shared/errors/ja';
import koreanErrors from '@eln/shared/errors/ko';

// The server answers in every interface language, so it holds every language's messages.
provideErrorMessages('ko', koreanErrors);
provideErrorMessages('ja', japaneseErrors);

/** The language of the answer: the client sends its interface language as Accept-Language. */
export function languageOf(request: FastifyRequest): Language {
  return pickLanguage(request.headers['accept-language']);
}

export function success<T>(request: FastifyRequest, data: T): ApiResponse<T> {
  return { status: SUCCESS, message: successMessage[languageOf(request)], data };
}

const successMessage: Record<Language, string> = { en: 'OK', ko: '성공', ja: '成功' };

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  options: { params?: Record<string, string | number>; data?: unknown } = {},
): FastifyReply {
  const body: ApiResponse = {
    status: code,
    message: errorMessage(code, languageOf(request), options.params),
    data: options.data ?? null,
  };
  if ((code === ERR.tooManyAttempts || code === ERR.tokenRateLimited) && options.params?.seconds !== undefined)
    reply.header('retry-after', String(options.params.seconds));
  return reply.code(httpStatusOf(code)).type('application/json; charset=utf-8').send(body);
}
