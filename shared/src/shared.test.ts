import { describe, expect, it } from 'vitest';
import {
  EMAIL_PATTERN,
  ERR,
  errorMessage,
  provideErrorMessages,
  findIdRequest,
  maskEmail,
  PHONE_PATTERN,
  pickLanguage,
  rowNumber,
  safeParseInput,
  signInRequest,
  toFieldErrors,
  pagingRequest,
  fieldMessage,
} from './index.js';
import koreanErrors from './errorMessages/ko.js';

describe('pickLanguage', () => {
  it('takes the first supported candidate, else English', () => {
    expect(pickLanguage('ja', ['ko-KR'])).toBe('ja');
    expect(pickLanguage(null, ['fr-FR', 'ko-KR'])).toBe('ko');
    expect(pickLanguage('de-DE,de;q=0.9,ja;q=0.8')).toBe('ja');
    expect(pickLanguage(undefined, ['fr', 'de'])).toBe('en');
  });
});

describe('patterns of the specification', () => {
  it('email: non-space, @, non-space, dot, non-space', () => {
    expect(['a@b.cd', 'kim.jiwoo@lab.co.kr'].every((v) => EMAIL_PATTERN.test(v))).toBe(true);
    expect(['a@b', 'a b@c.d', '@b.cd', 'plain'].some((v) => EMAIL_PATTERN.test(v))).toBe(false);
  });
  it('phone: 2-3, 3-4 and 4 digits joined by hyphens', () => {
    expect(['02-123-4567', '010-1234-5678'].every((v) => PHONE_PATTERN.test(v))).toBe(true);
    expect(['0-123-4567', '010-12-5678', '010-1234-567', '01012345678', '010-1234-56789'].some((v) => PHONE_PATTERN.test(v))).toBe(false);
  });
});

describe('field errors', () => {
  it('names each bad field once with a reason and its parameters', () => {
    const result = safeParseInput(signInRequest, { userId: 'x'.repeat(300) + '@a.bc', password: '' });
    expect(result.success).toBe(false);
    const fields = toFieldErrors(result.error?.issues ?? []);
    expect(fields).toEqual([
      { field: 'userId', reason: 'tooLong', params: { max: 254 } },
      { field: 'password', reason: 'required' },
    ]);
    expect(fieldMessage(fields[0]!, 'ja')).toBe('254文字以内で入力してください。');
  });
  it('tells a missing field from one of the wrong type', () => {
    const result = safeParseInput(findIdRequest, { name: 5 });
    expect(toFieldErrors(result.error?.issues ?? []).map((f) => [f.field, f.reason])).toEqual([
      ['name', 'invalidType'],
      ['phone', 'required'],
    ]);
  });
  it('refuses paging with the dates in the wrong order or a page below 1', () => {
    const result = safeParseInput(pagingRequest, { startDate: '2026-05-02', endDate: '2026-05-01', page: 0 });
    expect(
      toFieldErrors(result.error?.issues ?? [])
        .map((f) => f.reason)
        .sort(),
    ).toEqual(['dateOrder', 'tooSmall']);
  });
});

describe('helpers', () => {
  it('masks an email so that its owner recognises it and others learn little', () => {
    expect(maskEmail('jiwoo.kim@lab.test')).toBe('ji***@l***.test');
    expect(maskEmail('a@b.co')).toBe('a***@b***.co');
  });
  it('numbers list rows as the total minus the offset', () => {
    expect(rowNumber(23, 1, 10, 0)).toBe(23);
    expect(rowNumber(23, 3, 10, 2)).toBe(1);
  });
  it('fills message parameters and falls back to the unexpected-error text for unknown codes', () => {
    provideErrorMessages('ko', koreanErrors);
    expect(errorMessage('1004', 'en', { seconds: 30 })).toBe('Too many failed attempts. Try again in 30 seconds.');
    expect(errorMessage('4242', 'ko')).toBe('예상치 못한 오류가 발생했습니다.');
  });
  it('says a moment in the reader’s language and the zone given with it', () => {
    provideErrorMessages('ko', koreanErrors);
    const params = { hours: 24, moment: '2026-01-15T14:30:00.000Z', zone: 'America/New_York' };
    expect(errorMessage(ERR.reminderTooSoon, 'en', params)).toContain('2026-01-15 09:30 EST');
    expect(errorMessage(ERR.reminderTooSoon, 'ko', params)).toContain('2026-01-15 09:30 GMT-5');
  });
});
