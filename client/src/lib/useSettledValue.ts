import { useEffect, useState } from 'react';

/**
 * `value` once it has stayed the same for `delayMs`: what a live region should announce, so that a
 * state flickering while the user types ("Saving…", "Saved", "Saving…") is announced once it settles.
 */
export function useSettledValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
