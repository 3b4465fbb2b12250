import { describe, expect, it } from 'vitest';
import { knownZone, lastDigestMoment } from './digestTime.js';

const at = (iso: string) => new Date(iso);

describe('lastDigestMoment', () => {
  it('is today’s time in the zone once it has passed, else yesterday’s (Asia/Seoul, UTC+9)', () => {
    // 08:00 in Seoul is 23:00 UTC the day before.
    expect(lastDigestMoment(at('2026-03-09T23:00:00Z'), 'Asia/Seoul', '08:00').toISOString()).toBe('2026-03-09T23:00:00.000Z');
    expect(lastDigestMoment(at('2026-03-09T22:59:59Z'), 'Asia/Seoul', '08:00').toISOString()).toBe('2026-03-08T23:00:00.000Z');
    expect(lastDigestMoment(at('2026-03-10T14:30:00Z'), 'Asia/Seoul', '08:00').toISOString()).toBe('2026-03-09T23:00:00.000Z');
  });

  it('crosses months and years backwards', () => {
    expect(lastDigestMoment(at('2026-01-01T00:10:00Z'), 'UTC', '07:30').toISOString()).toBe('2025-12-31T07:30:00.000Z');
    expect(lastDigestMoment(at('2026-03-01T03:00:00Z'), 'UTC', '23:59').toISOString()).toBe('2026-02-28T23:59:00.000Z');
  });

  it('follows daylight-saving time (America/New_York moves from UTC-5 to UTC-4 on 8 March 2026)', () => {
    expect(lastDigestMoment(at('2026-03-07T18:00:00Z'), 'America/New_York', '08:00').toISOString()).toBe('2026-03-07T13:00:00.000Z');
    expect(lastDigestMoment(at('2026-03-09T18:00:00Z'), 'America/New_York', '08:00').toISOString()).toBe('2026-03-09T12:00:00.000Z');
    // 02:30 does not exist on the day of the change: the moment just after it is taken, once.
    const skipped = lastDigestMoment(at('2026-03-08T12:00:00Z'), 'America/New_York', '02:30');
    expect(skipped.toISOString()).toBe('2026-03-08T07:30:00.000Z');
  });
});

describe('knownZone', () => {
  it('keeps a zone Intl knows, and falls back to the server’s zone, then UTC', () => {
    expect(knownZone('Asia/Seoul', 'UTC')).toBe('Asia/Seoul');
    expect(knownZone('Mars/Olympus', 'Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(knownZone(null, 'Europe/Paris')).toBe('Europe/Paris');
    expect(knownZone('Mars/Olympus', 'Nowhere/Else')).toBe('UTC');
  });
});
