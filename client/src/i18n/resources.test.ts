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

  it('names a thumbnail button with its visible label in every language (WCAG 2.5.3, label in name)', () => {
    for (const strings of [en, ko, ja]) {
      const { change, changeOf } = strings.schema.thumbnail;
      expect(changeOf.replace('{{name}}', 'Balances')).toContain(change);
    }
  });

  it('picks the stored language, else the browser language, else English', () => {
    expect(detectLanguage('ja', ['ko-KR'])).toBe('ja');
    expect(detectLanguage(null, ['fr-FR', 'ko-KR', 'en'])).toBe('ko');
    expect(detectLanguage('xx', ['de-DE'])).toBe('en');
    expect(detectLanguage(null, undefined)).toBe('en');
  });
});
