import { describe, expect, it } from 'vitest';
import { itTranslatesEveryKey } from '../translationCheck';
import en from './en';
import ja from './ja';
import ko from './ko';

describe('note history strings', () => {
  // Version labels, the hash's name and the signature line are the same words (or signs) in every language.
  itTranslatesEveryKey(
    en,
    { ko, ja },
    new Set(['list.version', 'list.hash', 'list.signedAs', 'compare.versionLabel', 'list.changes.separator']),
  );

  it('names every kind of change in every language', () => {
    for (const strings of [en, ko, ja])
      for (const kind of ['added', 'removed', 'changed', 'moved', 'unchanged'] as const) expect(strings.diff.kind[kind]).not.toBe('');
  });
});
