import { describe, expect, it } from 'vitest';
import { formatZonedTime } from './format.js';

describe('a moment in a time zone', () => {
  const moment = new Date('2026-03-04T01:05:00Z');

  it('is written as date, 24-hour time and the zone’s short name, in the zone asked for', () => {
    expect(formatZonedTime(moment, 'Asia/Seoul', 'en')).toEqual({
      text: '2026-03-04 10:05 GMT+9',
      zone: 'Asia/Seoul',
      iso: '2026-03-04T01:05:00.000Z',
    });
    expect(formatZonedTime(moment, 'Asia/Tokyo', 'ja')?.text).toBe('2026-03-04 10:05 JST');
    expect(formatZonedTime('2026-01-10T23:30:00Z', 'America/New_York', 'en')?.text).toBe('2026-01-10 18:30 EST');
    expect(formatZonedTime(moment, 'UTC', 'ko')?.text).toBe('2026-03-04 01:05 UTC');
  });

  it('falls back to UTC, and says so, for a missing or unknown zone; answers null for no moment', () => {
    expect(formatZonedTime(moment, 'Mars/Olympus', 'en')).toMatchObject({ text: '2026-03-04 01:05 UTC', zone: 'UTC' });
    expect(formatZonedTime(moment, null, 'en')?.zone).toBe('UTC');
    expect(formatZonedTime(null, 'Asia/Seoul', 'en')).toBeNull();
    expect(formatZonedTime('not a date', 'Asia/Seoul', 'en')).toBeNull();
  });
});
