import { describe, expect, it } from 'vitest';
import { relativeTime } from './when';

const NOW = Date.parse('2026-12-07T09:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('relativeTime', () => {
  it('says how long ago in the unit that fits, in the language', () => {
    expect(relativeTime(ago(10), 'en', NOW)).toBe('now');
    expect(relativeTime(ago(5 * 60), 'en', NOW)).toBe('5 minutes ago');
    expect(relativeTime(ago(3 * 3600), 'en', NOW)).toBe('3 hours ago');
    expect(relativeTime(ago(86_400), 'en', NOW)).toBe('yesterday');
    expect(relativeTime(ago(60 * 86_400), 'en', NOW)).toBe('2 months ago');
    expect(relativeTime(ago(800 * 86_400), 'en', NOW)).toBe('2 years ago');
    expect(relativeTime(ago(3 * 3600), 'ko', NOW)).toBe('3시간 전');
    expect(relativeTime(ago(3 * 3600), 'ja', NOW)).toBe('3 時間前');
  });

  it('says a time ahead of the clock as to come, and an unreadable one as a dash', () => {
    expect(relativeTime(ago(-2 * 3600), 'en', NOW)).toBe('in 2 hours');
    expect(relativeTime('not a time', 'en', NOW)).toBe('—');
  });
});
