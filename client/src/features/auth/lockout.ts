/** Seconds left of a sign-in lockout that ends at `until` (epoch ms), rounded up; 0 when over. */
export function secondsLeft(until: number | null, now: number): number {
  if (until === null) return 0;
  return Math.max(0, Math.ceil((until - now) / 1000));
}
