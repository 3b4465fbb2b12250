import { useEffect, useSyncExternalStore } from 'react';
import { api, API_BASE, readServerSentEvents, type NotificationState } from '@eln/shared';
import { call, refreshSession } from '../../api';
import { queryClient, apiQueryKey } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { styleGuideSamples } from '../../lib/styleGuide';
import { needsRefresh } from '../../session/model';
import { getSession, useSession } from '../../session/store';

/*
 * The bell's live state: one stream per signed-in tab (`api.notifications.stream`, server-sent events over
 * a fetch that carries the access token), which the server sends the unread count and the newest
 * notification at once and after every change. No polling: a stream the server ends (its token expired)
 * is opened again at once with the tab's fresh token; one that failed, after a pause that grows.
 */

/** Waits after a failed stream: 1 s, doubling, at most 30 s. */
const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 30_000;
/** A stream the server ended sooner than this after it opened is opened again only after the wait above, not at once. */
const SHORT_STREAM_MS = 5_000;

let state: NotificationState | null = null;
const listeners = new Set<() => void>();

function publish(next: NotificationState | null): void {
  state = next;
  for (const listener of listeners) listener();
}

/** The latest state the server sent (null until the first arrives), for the bell and whoever announces it. */
export function useNotificationState(): NotificationState | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}

/** A read answered here: the count is shown at once, before the stream says it too. */
export function setUnreadCount(unreadCount: number): void {
  publish({ unreadCount, newest: state?.newest ?? null });
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Reads one opened stream to its end, publishing each state; the list on screen is loaded again. */
async function readStream(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const { events, rest } = readServerSentEvents(buffer + decoder.decode(value, { stream: true }));
    buffer = rest;
    for (const event of events) {
      if (event.event !== 'state') continue;
      publish(JSON.parse(event.data) as NotificationState);
      void queryClient.invalidateQueries({ queryKey: apiQueryKey(api.notifications.list) });
    }
  }
}

/**
 * Holds the tab's stream open until `signal` aborts: a token about to expire is refreshed first; a 401
 * (the token expired meanwhile) refreshes and tries again, and a refused refresh ends the session (and
 * the stream with it).
 */
async function holdStream(signal: AbortSignal): Promise<void> {
  let retryMs = FIRST_RETRY_MS;
  /** A 401 right after a refresh is not refreshed again at once (the wait grows instead). */
  let refreshed = false;
  while (!signal.aborted) {
    let session = getSession();
    if (!session) return;
    try {
      if (needsRefresh(session, Date.now())) {
        if (!(await refreshSession())) return;
        session = getSession();
        if (!session) return;
      }
      const response = await fetch(`${API_BASE}${api.notifications.stream.path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'text/event-stream',
          'Accept-Language': currentLanguage(),
          Authorization: `Bearer ${session.accessToken}`,
        },
        body: '{}',
        signal,
        cache: 'no-store',
      });
      if (response.status === 401 && !refreshed) {
        if (!(await refreshSession())) return;
        refreshed = true;
        continue;
      }
      refreshed = false;
      if (!response.ok || !response.body) throw new Error(`notification stream answered ${response.status}`);
      const opened = Date.now();
      await readStream(response.body);
      // Ended by the server (the token's time ran out, or it stopped): opened again at once, unless it keeps ending at once.
      if (Date.now() - opened >= SHORT_STREAM_MS) {
        retryMs = FIRST_RETRY_MS;
        continue;
      }
      throw new Error('notification stream ended at once');
    } catch {
      if (signal.aborted) return;
      await sleep(retryMs, signal);
      retryMs = Math.min(LAST_RETRY_MS, retryMs * 2);
    }
  }
}

/**
 * Keeps this tab's stream open while someone is signed in, for that person: it closes at sign-out and
 * opens again for the next user. In the style guide, the sample list says the count instead.
 */
export function useLiveNotifications(): void {
  const userId = useSession()?.user.userId ?? null;
  useEffect(() => {
    publish(null);
    if (!userId) return;
    if (styleGuideSamples()) {
      void call(api.notifications.list, { page: 1, pageSize: 1 }).then(
        ({ unreadCount }) => publish({ unreadCount, newest: null }),
        () => undefined,
      );
      return;
    }
    const aborter = new AbortController();
    void holdStream(aborter.signal);
    return () => aborter.abort();
  }, [userId]);
}
