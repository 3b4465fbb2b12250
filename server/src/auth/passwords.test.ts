import { describe, expect, it } from 'vitest';
import { Argon2Pool, argon2Pool, hashPassword, verifyPassword } from './passwords.js';

/** A job that runs until released, to hold a slot of a pool. */
function blocker() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { job: () => released, release };
}

/** Lets every settled promise's handlers run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the argon2 pool', () => {
  it('runs at most its concurrency at once and starts a waiting sign-in before the resets queued ahead of it', async () => {
    const pool = new Argon2Pool(2);
    const holders = [blocker(), blocker()];
    const held = holders.map((holder) => pool.run('reset', holder.job));
    const started: string[] = [];
    const queued = (name: string, purpose: 'reset' | 'account' | 'signIn') =>
      pool.run(purpose, async () => {
        started.push(name);
        await settle();
      });
    const waiting = [queued('reset 1', 'reset'), queued('reset 2', 'reset'), queued('account', 'account'), queued('sign-in', 'signIn')];
    await settle();
    expect(pool.load).toEqual({ running: 2, waiting: 4 });
    expect(started).toEqual([]);
    // One slot frees: the sign-in, queued last, takes it; the other slot is still held.
    holders[0]?.release();
    await settle();
    expect(started).toEqual(['sign-in']);
    holders[1]?.release();
    await Promise.all([...held, ...waiting]);
    expect(started).toEqual(['sign-in', 'account', 'reset 1', 'reset 2']);
  });

  it('is what sign-in and reset hashing go through: a sign-in check waits for no queued reset hash', async () => {
    const stored = await hashPassword('correct horse battery staple', 'account');
    expect(argon2Pool.load).toEqual({ running: 0, waiting: 0 });
    // Every slot held, as a flood of resets would hold them, and reset hashes waiting behind.
    const holders = Array.from({ length: argon2Pool.concurrency }, blocker);
    const held = holders.map((holder) => argon2Pool.run('reset', holder.job));
    const resets = [0, 1, 2].map((n) => hashPassword(`new password number ${n}`, 'reset'));
    let resetsDone = 0;
    for (const reset of resets) void reset.then(() => (resetsDone += 1));
    const signIn = verifyPassword(stored, 'correct horse battery staple', 'signIn');
    await settle();
    expect(argon2Pool.load).toEqual({ running: argon2Pool.concurrency, waiting: 4 });
    // One slot frees: the sign-in check, queued last, takes it and answers while every reset hash waits.
    holders[0]?.release();
    await settle();
    expect(argon2Pool.load).toEqual({ running: argon2Pool.concurrency, waiting: 3 });
    expect(await signIn).toBe(true);
    expect(resetsDone).toBe(0);
    for (const holder of holders) holder.release();
    await Promise.all([...held, ...resets]);
    expect(resetsDone).toBe(3);
  });
});
