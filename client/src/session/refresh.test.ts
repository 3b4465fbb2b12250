import { describe, expect, it, vi } from 'vitest';
import { createRefresher, REFRESH_LOCK, type RefreshOutcome } from './refresh';
import { fakeAnswer, fakeLocks, fakeSession, sharedStore, tick } from './testing';

const NOW = 1_700_000_000_000;

function setup(options: { expiresAt?: number } = {}) {
  const store = sharedStore(fakeSession(1, options.expiresAt ?? NOW + 10_000));
  const withLock = fakeLocks();
  let issued = 1;
  const post = vi.fn(async (refreshToken: string): Promise<RefreshOutcome> => {
    await tick();
    // The server: each refresh token works once.
    if (refreshToken !== `refresh-${issued}`) return { kind: 'refused' };
    issued += 1;
    return { kind: 'rotated', answer: fakeAnswer(issued) };
  });
  const tab = () => createRefresher({ read: store.read, write: (s) => store.write(s), post, withLock, now: () => NOW });
  return { store, post, tab };
}

describe('token refresh', () => {
  it('sends one refresh for concurrent callers in a tab, and stores the rotated tokens', async () => {
    const { store, post, tab } = setup();
    const refresh = tab();
    const results = await Promise.all([refresh('refresh-1'), refresh('refresh-1'), refresh('refresh-1')]);
    expect(post).toHaveBeenCalledTimes(1);
    expect(results.map((s) => s?.accessToken)).toEqual(['access-2', 'access-2', 'access-2']);
    expect(store.read()?.refreshToken).toBe('refresh-2');
    expect(store.read()?.expiresAt).toBe(NOW + 900_000);
  });

  it('across tabs: the second tab finds the rotated tokens inside the lock and does not reuse the spent one', async () => {
    const { store, post, tab } = setup();
    const [a, b] = await Promise.all([tab()('refresh-1'), tab()('refresh-1')]);
    expect(post).toHaveBeenCalledTimes(1);
    expect(post).toHaveBeenCalledWith('refresh-1');
    expect(a?.accessToken).toBe('access-2');
    expect(b?.accessToken).toBe('access-2');
    expect(store.read()?.accessToken).toBe('access-2');
  });

  it('uses tokens another tab rotated earlier, without calling the server', async () => {
    const { store, post, tab } = setup();
    store.write(fakeSession(7, NOW + 600_000));
    const session = await tab()('refresh-1');
    expect(post).not.toHaveBeenCalled();
    expect(session?.accessToken).toBe('access-7');
  });

  it('recognises a rotation by the refresh token, even when the new access token is equal to the old one', async () => {
    const { store, post, tab } = setup();
    store.write({ ...fakeSession(7, NOW + 600_000), accessToken: 'access-1' });
    const session = await tab()('refresh-1');
    expect(post).not.toHaveBeenCalled();
    expect(session?.refreshToken).toBe('refresh-7');
  });

  it('still refreshes when the tokens another tab stored are themselves about to expire', async () => {
    const { store, post, tab } = setup();
    store.write(fakeSession(1, NOW + 5_000));
    await tab()('refresh-0');
    expect(post).toHaveBeenCalledTimes(1);
  });

  it('resolves to null when the server refuses, and leaves the stored session alone', async () => {
    const { store, tab } = setup();
    store.write({ ...fakeSession(1, NOW), refreshToken: 'spent' });
    expect(await tab()('refresh-1')).toBeNull();
    expect(store.read()?.refreshToken).toBe('spent');
  });

  it('rejects on a network failure (not a refusal) and lets the next call try again', async () => {
    const store = sharedStore(fakeSession(1, NOW));
    const post = vi
      .fn<(token: string) => Promise<RefreshOutcome>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ kind: 'rotated', answer: fakeAnswer(2) });
    const refresh = createRefresher({ read: store.read, write: store.write, post, withLock: fakeLocks(), now: () => NOW });
    await expect(refresh('refresh-1')).rejects.toThrow('offline');
    expect((await refresh('refresh-1'))?.accessToken).toBe('access-2');
  });

  it('does not bring a session back when the user signed out while the refresh was in flight', async () => {
    const store = sharedStore(fakeSession(1, NOW));
    const post = vi.fn(async (): Promise<RefreshOutcome> => {
      store.write(null);
      return { kind: 'rotated', answer: fakeAnswer(2) };
    });
    const refresh = createRefresher({ read: store.read, write: store.write, post, withLock: fakeLocks(), now: () => NOW });
    expect(await refresh('refresh-1')).toBeNull();
    expect(store.read()).toBeNull();
  });

  it('holds the named cross-tab lock while refreshing', async () => {
    const store = sharedStore(fakeSession(1, NOW));
    const names: string[] = [];
    const locks = fakeLocks();
    const refresh = createRefresher({
      read: store.read,
      write: store.write,
      post: async () => ({ kind: 'rotated', answer: fakeAnswer(2) }),
      withLock: (name, task) => {
        names.push(name);
        return locks(name, task);
      },
      now: () => NOW,
    });
    await refresh('refresh-1');
    expect(names).toEqual([REFRESH_LOCK]);
    expect(REFRESH_LOCK).toBe('eln-refresh');
  });
});
