import { describe, expect, it, vi } from 'vitest';
import { createRefresher, REFRESH_LOCK, type RefreshOutcome } from './refresh';
import { fakeAnswer, fakeCookieServer, fakeLocks, fakeSession, tabStore } from './testing';

const NOW = 1_700_000_000_000;

/** Tabs of one browser: each its own session store (memory), one cookie, one lock manager. */
function browser() {
  const server = fakeCookieServer();
  const post = vi.fn(server.post);
  const withLock = fakeLocks();
  const tab = (session = fakeSession(1, NOW + 10_000)) => {
    const store = tabStore(session);
    return { store, refresh: createRefresher({ read: store.read, write: store.write, post, withLock, now: () => NOW }) };
  };
  return { server, post, tab };
}

describe('token refresh', () => {
  it('sends one refresh for concurrent callers in a tab, and keeps the new access token in the tab', async () => {
    const { post, tab } = browser();
    const { store, refresh } = tab();
    const seen = store.read()!;
    const results = await Promise.all([refresh(seen), refresh(seen), refresh(seen)]);
    expect(post).toHaveBeenCalledTimes(1);
    expect(results.map((s) => s?.accessToken)).toEqual(['access-2', 'access-2', 'access-2']);
    expect(store.read()?.expiresAt).toBe(NOW + 900_000);
  });

  it('across tabs: refreshes one after another under the lock, each with the cookie the last one set, so none is reused', async () => {
    const { server, post, tab } = browser();
    const [a, b, c] = [tab(), tab(), tab()];
    const results = await Promise.all([a, b, c].map(({ store, refresh }) => refresh(store.read()!)));
    expect(post).toHaveBeenCalledTimes(3);
    expect(server.sent).toEqual(['refresh-1', 'refresh-2', 'refresh-3']);
    expect(results.map((s) => s?.accessToken)).toEqual(['access-2', 'access-3', 'access-4']);
    expect(server.cookie()).toBe('refresh-4');
  });

  it('without the lock two tabs would send the same cookie and the second be refused (why the lock is there)', async () => {
    const server = fakeCookieServer();
    const unlocked = <T>(_name: string, task: () => Promise<T>) => task();
    const tabs = [tabStore(fakeSession(1, NOW)), tabStore(fakeSession(1, NOW))].map((store) => ({
      store,
      refresh: createRefresher({ read: store.read, write: store.write, post: server.post, withLock: unlocked, now: () => NOW }),
    }));
    const results = await Promise.all(tabs.map(({ store, refresh }) => refresh(store.read()!)));
    expect(results.filter((s) => s === null)).toHaveLength(1);
  });

  it('uses a token this tab got meanwhile, without calling the server', async () => {
    const { post, tab } = browser();
    const { store, refresh } = tab();
    const seen = store.read()!;
    store.write(fakeSession(7, NOW + 600_000));
    const session = await refresh(seen);
    expect(post).not.toHaveBeenCalled();
    expect(session?.accessToken).toBe('access-7');
  });

  it('refreshes a tab that has no token yet (a reload, a new tab), and one whose token is about to expire', async () => {
    const { post, tab } = browser();
    const fresh = tab({ ...fakeSession(1, 0), accessToken: '' });
    expect((await fresh.refresh(fresh.store.read()!))?.accessToken).toBe('access-2');
    const expiring = tab(fakeSession(2, NOW + 5_000));
    const seenOther = fakeSession(9, NOW + 5_000);
    await expiring.refresh(seenOther);
    expect(post).toHaveBeenCalledTimes(2);
  });

  it('resolves to null when the server refuses, and leaves the session alone', async () => {
    const store = tabStore(fakeSession(1, NOW));
    const refresh = createRefresher({
      read: store.read,
      write: store.write,
      post: async () => ({ kind: 'refused' }),
      withLock: fakeLocks(),
      now: () => NOW,
    });
    expect(await refresh(store.read()!)).toBeNull();
    expect(store.read()?.accessToken).toBe('access-1');
  });

  it('rejects on a network failure (not a refusal) and lets the next call try again', async () => {
    const store = tabStore(fakeSession(1, NOW));
    const post = vi
      .fn<() => Promise<RefreshOutcome>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ kind: 'rotated', answer: fakeAnswer(2) });
    const refresh = createRefresher({ read: store.read, write: store.write, post, withLock: fakeLocks(), now: () => NOW });
    await expect(refresh(store.read()!)).rejects.toThrow('offline');
    expect((await refresh(store.read()!))?.accessToken).toBe('access-2');
  });

  it('does not bring a session back when the user signed out while the refresh was in flight', async () => {
    const store = tabStore(fakeSession(1, NOW));
    const post = vi.fn(async (): Promise<RefreshOutcome> => {
      store.write(null);
      return { kind: 'rotated', answer: fakeAnswer(2) };
    });
    const refresh = createRefresher({ read: store.read, write: store.write, post, withLock: fakeLocks(), now: () => NOW });
    expect(await refresh(fakeSession(1, NOW))).toBeNull();
    expect(store.read()).toBeNull();
  });

  it('holds the named cross-tab lock while refreshing', async () => {
    const store = tabStore(fakeSession(1, NOW));
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
    await refresh(store.read()!);
    expect(names).toEqual([REFRESH_LOCK]);
    expect(REFRESH_LOCK).toBe('eln-refresh');
  });
});
