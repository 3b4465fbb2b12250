import { describe, expect, it } from 'vitest';
import { SIGNATURE_STATUS, SIGNATURE_TYPES } from '@eln/shared';
import { itTranslatesEveryKey } from '../translationCheck';
import en from './en';
import ja from './ja';
import ko from './ko';

describe('signature strings', () => {
  itTranslatesEveryKey(en, { ko, ja }, new Set(['entry.version']));

  it('names every meaning and every status in every language', () => {
    for (const resource of [en, ko, ja]) {
      for (const type of SIGNATURE_TYPES) expect(resource.meaning[type]).toBeTruthy();
      for (const status of Object.values(SIGNATURE_STATUS)) expect(resource.status[status]).toBeTruthy();
      for (const type of SIGNATURE_TYPES) expect(resource.dialog.meaningHelp[type]).toBeTruthy();
    }
  });
});
