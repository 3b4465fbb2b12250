import { describe, expect, it } from 'vitest';
import { DEFAULT_DIGEST, DEFAULT_NOTIFICATION_CHOICES, NOTIFICATION_EVENTS, type AccountSettings } from '@eln/shared';
import {
  changesNothing,
  digestChange,
  displayChange,
  displayValuesOf,
  notificationChange,
  zoneMatches,
  zoneOptions,
} from './settingsForms';

const settings = (overrides: Partial<AccountSettings> = {}): AccountSettings => ({
  profile: { userId: 'a@lab.test', name: 'A', departmentName: null },
  language: null,
  theme: null,
  timeZone: null,
  notifications: { ...DEFAULT_NOTIFICATION_CHOICES },
  events: [...NOTIFICATION_EVENTS],
  digest: { ...DEFAULT_DIGEST },
  digestTimeZone: 'UTC',
  ...overrides,
});

describe('the account forms', () => {
  it('start from the server’s choices, else from what this browser shows, and send only what changed', () => {
    const never = displayValuesOf(settings(), { language: 'ja', theme: 'b' });
    expect(never).toEqual({ language: 'ja', theme: 'b', timeZone: null });
    // Saving untouched sends nothing: the browser's language is not stored as a choice.
    expect(changesNothing(displayChange(never, never))).toBe(true);
    expect(displayChange(never, { ...never, theme: 's', timeZone: 'Asia/Seoul' })).toEqual({ theme: 's', timeZone: 'Asia/Seoul' });
    const chosen = displayValuesOf(settings({ language: 'ko', timeZone: 'Europe/Paris' }), { language: 'ja', theme: 'b' });
    expect(chosen).toEqual({ language: 'ko', theme: 'b', timeZone: 'Europe/Paris' });
    // Back to the browser's own zone is a change to null.
    expect(displayChange(chosen, { ...chosen, timeZone: null })).toEqual({ timeZone: null });
  });

  it('send the events changed, whole, and none of the others', () => {
    const initial = { ...DEFAULT_NOTIFICATION_CHOICES };
    expect(notificationChange(initial, { ...initial })).toEqual({});
    const values = { ...initial, noteSigned: { app: false, email: true }, exportFailed: { app: true, email: true } };
    expect(notificationChange(initial, values)).toEqual({ notifications: { noteSigned: { app: false, email: true } } });
  });

  it('send the digest’s on/off and time apart', () => {
    expect(digestChange(DEFAULT_DIGEST, DEFAULT_DIGEST)).toEqual({});
    expect(digestChange(DEFAULT_DIGEST, { enabled: true, time: '08:00' })).toEqual({ digest: { enabled: true } });
    expect(digestChange(DEFAULT_DIGEST, { enabled: false, time: '21:30' })).toEqual({ digest: { time: '21:30' } });
  });

  it('list zones by name with their offset, a stored zone the browser does not list too, and none it does not know', () => {
    const january = new Date('2026-01-15T12:00:00Z');
    expect(zoneOptions(['Asia/Seoul', 'America/New_York', 'Mars/Olympus'], january, 'Etc/GMT+9')).toEqual([
      { id: 'America/New_York', text: 'America/New York (UTC-05:00)' },
      { id: 'Asia/Seoul', text: 'Asia/Seoul (UTC+09:00)' },
      { id: 'Etc/GMT+9', text: 'Etc/GMT+9 (UTC-09:00)' },
    ]);
    expect(zoneOptions(['Europe/London'], january)).toEqual([{ id: 'Europe/London', text: 'Europe/London (UTC+00:00)' }]);
  });

  it('find a zone by any part of its name, in any case, with spaces or underscores', () => {
    expect(zoneMatches('America/New York (UTC-05:00)', 'new_york')).toBe(true);
    expect(zoneMatches('America/New York (UTC-05:00)', 'NEW YORK')).toBe(true);
    expect(zoneMatches('Asia/Seoul (UTC+09:00)', 'seo')).toBe(true);
    expect(zoneMatches('Asia/Seoul (UTC+09:00)', 'tokyo')).toBe(false);
  });
});
