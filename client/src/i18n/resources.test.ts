import { describe, expect, it } from 'vitest';
import { detectLanguage } from './detect';
import { itTranslatesEveryKey } from './translationCheck';
import en from './en';
import ja from './ja';
import ko from './ko';

describe('interface strings', () => {
  itTranslatesEveryKey(
    en,
    { ko, ja },
    new Set(['common.ok', 'signin.userIdPlaceholder', 'findId.phonePlaceholder', 'dropbox.import.encodings.utf-8']),
  );

  it('picks the stored language, else the browser language, else English', () => {
    expect(detectLanguage('ja', ['ko-KR'])).toBe('ja');
    expect(detectLanguage(null, ['fr-FR', 'ko-KR', 'en'])).toBe('ko');
    expect(detectLanguage('xx', ['de-DE'])).toBe('en');
    expect(detectLanguage(null, undefined)).toBe('en');
  });
});
