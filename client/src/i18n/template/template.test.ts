import { describe, expect, it } from 'vitest';
import { TEMPLATE_STATE } from '@eln/shared';
import { itTranslatesEveryKey } from '../translationCheck';
import en from './en';
import ja from './ja';
import ko from './ko';

describe('template strings', () => {
  // The version label and the picker's option are the same words in every language.
  itTranslatesEveryKey(en, { ko, ja }, new Set(['editor.version', 'picker.option']));

  it('names every template state in every language', () => {
    for (const resource of [en, ko, ja]) {
      for (const state of Object.values(TEMPLATE_STATE)) expect(resource.state[state]).not.toBe('');
    }
  });
});
