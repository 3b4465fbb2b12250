import { describe, expect, it } from 'vitest';
import { secondsLeft } from './lockout';

describe('sign-in lockout countdown', () => {
  it('rounds the seconds left up, and reaches 0 when the lock is over', () => {
    expect(secondsLeft(null, 0)).toBe(0);
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 12_000)).toBe(0);
  });
});
