import { describe, expect, it } from 'vitest';
import { DEFAULT_THROTTLE } from '../config.js';
import { Throttle } from './throttle.js';

describe('Throttle.delayFor', () => {
  const throttle = new Throttle(DEFAULT_THROTTLE);
  it('does not slow the first few failures', () => {
    expect([0, 1, 2, 3].map((n) => throttle.delayFor(n))).toEqual([0, 0, 0, 0]);
  });
  it('grows by one step per further failure, up to the cap', () => {
    expect([4, 5, 6].map((n) => throttle.delayFor(n))).toEqual([500, 1000, 1500]);
    expect(throttle.delayFor(100)).toBe(DEFAULT_THROTTLE.maxDelayMs);
  });
});
