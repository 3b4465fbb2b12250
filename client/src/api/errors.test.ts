import { beforeAll, describe, expect, it } from 'vitest';
import { errorMessage, provideErrorMessages } from '@eln/shared';
import japaneseErrors from '@eln/shared/errors/ja';
import koreanErrors from '@eln/shared/errors/ko';
import { ApiError, apiErrorText, fieldErrorsOf, retryAfterOf, statusForHttp } from './errors';

describe('API error texts', () => {
  // What the interface does as it loads its start language (i18n/index.ts).
  beforeAll(() => {
    provideErrorMessages('ko', koreanErrors);
    provideErrorMessages('ja', japaneseErrors);
  });

  it('uses the shared catalogue in the interface language', () => {
    const error = new ApiError('1001', 'server text', 422);
    expect(apiErrorText(error, 'en')).toBe('The ID or password is incorrect.');
    expect(apiErrorText(error, 'ko')).toBe('아이디 또는 비밀번호가 올바르지 않습니다.');
    expect(apiErrorText(error, 'ja')).toBe('IDまたはパスワードが正しくありません。');
  });

  it('says the wait of 1004 in minutes and seconds from data.retryAfter, or from a live countdown', () => {
    const error = new ApiError('1004', '', 429, { retryAfter: 896 });
    expect(retryAfterOf(error)).toBe(896);
    expect(apiErrorText(error, 'en')).toBe('Too many failed attempts. Try again in 14 minutes 56 seconds.');
    expect(apiErrorText(error, 'ko')).toBe('실패 횟수가 너무 많습니다. 14분 56초 후에 다시 시도해 주세요.');
    expect(apiErrorText(error, 'ja')).toBe('失敗回数が多すぎます。14分56秒後にもう一度お試しください。');
    expect(apiErrorText(error, 'ko', 12)).toBe('실패 횟수가 너무 많습니다. 12초 후에 다시 시도해 주세요.');
    expect(apiErrorText(error, 'en', 60)).toBe('Too many failed attempts. Try again in 1 minute.');
    expect(apiErrorText(error, 'en', 1)).toBe('Too many failed attempts. Try again in 1 second.');
  });

  it('takes the server’s text for a message naming values only the server knows, never showing a placeholder', () => {
    for (const language of ['en', 'ko', 'ja'] as const) {
      const server = errorMessage('7005', language, { last: '1.9' });
      expect(apiErrorText(new ApiError('7005', server, 422), language)).toBe(server);
      expect(server).toContain('1.9');
    }
    // Without parameters the catalogue's own text stays the one shown.
    expect(apiErrorText(new ApiError('2026', 'whatever the server said', 422), 'en')).toBe(errorMessage('2026', 'en'));
  });

  it('reads unknown codes and non-API errors as unexpected', () => {
    expect(apiErrorText(new ApiError('4242', '', 500), 'en')).toBe('An unexpected error occurred.');
    expect(apiErrorText(new Error('boom'), 'en')).toBe('An unexpected error occurred.');
  });

  it('lists the field errors of a 400 answer and ignores malformed ones', () => {
    const error = new ApiError('9001', '', 400, { fields: [{ field: 'userId', reason: 'invalidEmail' }, { nope: true }] });
    expect(fieldErrorsOf(error)).toEqual([{ field: 'userId', reason: 'invalidEmail' }]);
    expect(fieldErrorsOf(new ApiError('9001', '', 400, null))).toEqual([]);
  });

  it('maps bare HTTP statuses to catalogue codes', () => {
    expect(statusForHttp(404)).toBe('9005');
    expect(statusForHttp(502)).toBe('9008');
    expect(statusForHttp(401)).toBe('1002');
    expect(statusForHttp(500)).toBe('9999');
  });
});
