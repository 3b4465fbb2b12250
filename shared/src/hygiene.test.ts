import { describe, expect, it } from 'vitest';
import {
  adminUserUpdateRequest,
  asStoredJson,
  asStoredText,
  FIELD_REASONS,
  isCalendarDate,
  isStorableText,
  pagingRequest,
  safeParseInput,
  signInRequest,
  toFieldErrors,
} from './index.js';

describe('the one text rule', () => {
  it('accepts any valid Unicode text without NUL, astral and combining characters included', () => {
    for (const text of ['', 'plain', '한국어 日本語', '😀 𝄞', 'e\u0301', '\uFFFD', 'tab\tand\nnewline'])
      expect(isStorableText(text), text).toBe(true);
  });

  it('refuses NUL and lone surrogates, high or low, anywhere', () => {
    for (const text of ['\u0000', 'a\u0000', '\uD800', 'a\uD800b', '\uDC00', 'x\uDFFF', '\uD83D\uD83D', '\uDE00\uD83D'])
      expect(isStorableText(text), JSON.stringify(text)).toBe(false);
  });

  it('is checked first in every text field, with its own localised reason', () => {
    const result = safeParseInput(signInRequest, { userId: 'a\u0000@b.cd', password: '\uD800' });
    expect(result.success).toBe(false);
    expect(toFieldErrors(result.error!.issues).map((f) => `${f.field}:${f.reason}`)).toEqual([
      'userId:invalidCharacters',
      'password:invalidCharacters',
    ]);
    for (const language of ['en', 'ko', 'ja'] as const) expect(FIELD_REASONS.invalidCharacters[language].length).toBeGreaterThan(5);
  });
});

describe('the one date rule', () => {
  it('knows which days exist', () => {
    for (const date of ['2026-01-31', '2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31'])
      expect(isCalendarDate(date), date).toBe(true);
    for (const date of [
      '2026-02-30',
      '2025-02-29',
      '1900-02-29',
      '2026-04-31',
      '9999-99-99',
      '0000-01-01',
      '2026-00-10',
      '2026-01-00',
      '2026-1-1',
      '',
    ]) {
      expect(isCalendarDate(date), date).toBe(false);
    }
  });

  it('refuses impossible dates in list filters as invalidDate', () => {
    const result = safeParseInput(pagingRequest, { startDate: '2026-02-30', endDate: '2026-03-01' });
    expect(toFieldErrors(result.error!.issues)).toEqual([expect.objectContaining({ field: 'startDate', reason: 'invalidDate' })]);
    expect(safeParseInput(pagingRequest, { startDate: '', endDate: '2024-02-29' }).success).toBe(true);
  });
});

describe('stored forms', () => {
  it('replaces what PostgreSQL would not keep with U+FFFD, and nothing else', () => {
    expect(asStoredText('a\uD800b\u0000c😀e\u0301')).toBe('a\uFFFDb\uFFFDc😀e\u0301');
    expect(asStoredJson({ ['k\uDC00']: ['v\u0000', { at: new Date(0) }], n: 1, u: undefined })).toEqual({
      ['k\uFFFD']: ['v\uFFFD', { at: '1970-01-01T00:00:00.000Z' }],
      n: 1,
    });
    expect(asStoredJson(undefined)).toBeNull();
  });
});

describe('a user’s department code', () => {
  it('reads empty as none', () => {
    expect(adminUserUpdateRequest.parse({ userNo: 1, departmentCode: '' }).departmentCode).toBeNull();
    expect(adminUserUpdateRequest.parse({ userNo: 1, departmentCode: ' D1 ' }).departmentCode).toBe('D1');
    expect(adminUserUpdateRequest.parse({ userNo: 1 }).departmentCode).toBeUndefined();
  });
});
