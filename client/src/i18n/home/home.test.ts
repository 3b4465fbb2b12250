import { describe, expect, it } from 'vitest';
import { ACTIVITY_EVENTS, RECENT_KINDS } from '@eln/shared';
import { itTranslatesEveryKey } from '../translationCheck';
import en from './en';
import ja from './ja';
import ko from './ko';

describe('home strings', () => {
  itTranslatesEveryKey(en, { ko, ja }, new Set());

  it('says every event of the activity and names every kind of record opened, in every language', () => {
    for (const resource of [en, ko, ja]) {
      for (const event of ACTIVITY_EVENTS) expect(resource.activity.events[event]).toContain('{{actor}}');
      for (const kind of RECENT_KINDS) expect(resource.recent.kinds[kind]).toBeTruthy();
    }
  });
});
