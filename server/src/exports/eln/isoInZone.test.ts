import { describe, expect, it } from 'vitest';
import { isoInZone } from './crate.js';

describe('isoInZone', () => {
  it('writes the local time with its offset, across daylight saving changes and odd offsets', () => {
    expect(isoInZone(new Date('2026-05-04T00:30:00.042Z'), 'Asia/Seoul')).toBe('2026-05-04T09:30:00.042+09:00');
    expect(isoInZone(new Date('2026-05-04T00:30:00.042Z'), 'UTC')).toBe('2026-05-04T00:30:00.042+00:00');
    expect(isoInZone(new Date('2026-01-05T23:59:59.123Z'), 'America/St_Johns')).toBe('2026-01-05T20:29:59.123-03:30');
    expect(isoInZone(new Date('2026-07-05T23:59:59.123Z'), 'America/St_Johns')).toBe('2026-07-05T21:29:59.123-02:30');
    expect(isoInZone(new Date('2026-03-29T00:59:59.999Z'), 'Europe/Berlin')).toBe('2026-03-29T01:59:59.999+01:00');
    expect(isoInZone(new Date('2026-03-29T01:00:00.000Z'), 'Europe/Berlin')).toBe('2026-03-29T03:00:00.000+02:00');
    expect(isoInZone(new Date('2026-06-01T12:00:00.000Z'), 'Asia/Kathmandu')).toBe('2026-06-01T17:45:00.000+05:45');
  });

  it('names the same moment in every zone, and writes an unknown or missing zone in UTC', () => {
    const moment = new Date('2026-11-01T08:15:30.500Z');
    for (const zone of ['Asia/Tokyo', 'America/Los_Angeles', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Europe/London'])
      expect(new Date(isoInZone(moment, zone)).getTime(), zone).toBe(moment.getTime());
    expect(isoInZone(moment, 'Not/AZone')).toBe('2026-11-01T08:15:30.500+00:00');
    expect(isoInZone(moment, null)).toBe('2026-11-01T08:15:30.500+00:00');
  });
});
