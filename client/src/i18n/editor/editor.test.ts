import { describe } from 'vitest';
import { itTranslatesEveryKey } from '../translationCheck';
import en from './en';
import ja from './ja';
import ko from './ko';

describe('editor strings', () => {
  itTranslatesEveryKey(en, { ko, ja }, new Set(['table.size', 'projectNotes.nobody']));
});
