import { describe, expect, it, vi } from 'vitest';
import { api } from '@eln/shared';
import type { Session } from '../session/model';
import { createRefresher } from '../session/refresh';
import { fakeAnswer, fakeLocks, fakeSession, tabStore } from '../session/testing';
import { createApiClient } from './client';
import { ApiError } from './errors';

const NOW = 1_700_000_000_000;

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

type Reply = { status: number; json?: unknown; text?: string } | Error;

/** The JSON the client sent (it sends every body as JSON text), or null without a body. */
function sentBody(body: BodyInit | null | undefined): unknown {
  if (body === null || body === undefined) return null;
  if (typeof body !== 'string') throw new Error(`the client sent a body that is not JSON text: ${Object.prototype.toString.call(body)}`);
  return JSON.parse(body);
}

/** A fake server: `route` answers each request; every request is recorded. */
function fakeFetch(route: (sent: Sent) => Reply) {
  const sent: Sent[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request: Sent = {
      url: input instanceof Request ? input.url : input.toString(),
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: sentBody(init?.body),
    };
    sent.push(request);
    const reply = route(request);
    if (reply instanceof Error) throw reply;
    const body = reply.text ?? JSON.stringify(reply.json);
    return new Response(body, { status: reply.status, headers: { 'content-type': reply.text ? 'text/html' : 'application/json' } });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, sent };
}

const ok = (data: unknown) => ({ status: 200, json: { status: '0000', message: 'OK', data } });
const unauthorized = { status: 401, json: { status: '1002', message: 'Session ended', data: null } };

function client(route: (sent: Sent) => Reply, session: Session | null) {
  const { fetch, sent } = fakeFetch(route);
  const store = tabStore(session);
  const onSessionEnded = vi.fn();
  const apiClient = createApiClient({
    fetch,
    getSession: store.read,
    refresh: (seen) => refresh(seen),
    onSessionEnded,
    language: () => 'ko',
    now: () => NOW,
  });
  const refresh = createRefresher({
    read: store.read,
    write: store.write,
    post: () => apiClient.postRefresh(),
    withLock: fakeLocks(),
    now: () => NOW,
  });
  return { apiClient, sent, store, onSessionEnded };
}

/** The server's refresh call: from the cookie (the body asks for it, and names no token), rotating once; or refused. */
function refreshRoute(sent: Sent, cookieValid = true): Reply {
  const fromCookie = JSON.stringify(sent.body) === JSON.stringify({ refreshIn: 'cookie' });
  return fromCookie && cookieValid
    ? ok({ ...fakeAnswer(2), refreshToken: '' })
    : { status: 401, json: { status: '1005', message: 'expired', data: null } };
}

describe('the API client', () => {
  it('POSTs JSON to /server + path with the bearer token and the interface language, and resolves to data', async () => {
    const { apiClient, sent } = client(() => ok({ maskedUserId: 'ki***@l***.example' }), fakeSession(1, NOW + 600_000));
    await expect(apiClient.call(api.auth.findId, { name: 'Kim', phone: '010-1234-5678' })).resolves.toEqual({
      maskedUserId: 'ki***@l***.example',
    });
    expect(sent[0]?.url).toBe(`/server${api.auth.findId.path}`);
    expect(sent[0]?.headers.Authorization).toBe('Bearer access-1');
    expect(sent[0]?.headers['Accept-Language']).toBe('ko');
    expect(sent[0]?.headers['Content-Type']).toBe('application/json');
    expect(sent[0]?.body).toEqual({ name: 'Kim', phone: '010-1234-5678' });
  });

  it('sends no Authorization header when signed out', async () => {
    const { apiClient, sent } = client(() => ok(null), null);
    await apiClient.call(api.auth.signIn, { userId: 'a@b.co', password: 'x' });
    expect(sent[0]?.headers.Authorization).toBeUndefined();
  });

  it('rejects a non-0000 answer with an ApiError carrying status, message, HTTP status and data', async () => {
    const { apiClient } = client(() => ({ status: 429, json: { status: '1004', message: 'wait', data: { retryAfter: 42 } } }), null);
    const error = await apiClient.call(api.auth.signIn, { userId: 'a@b.co', password: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: '1004', message: 'wait', httpStatus: 429, data: { retryAfter: 42 } });
  });

  it('turns answers that are not the envelope into catalogue codes: 404 page → 9005, network failure → 9008', async () => {
    const notFound = client(() => ({ status: 404, text: '<html>Not found</html>' }), null);
    await expect(notFound.apiClient.call(api.dashboard.counts, {})).rejects.toMatchObject({ status: '9005', httpStatus: 404 });
    const offline = client(() => new TypeError('Failed to fetch'), null);
    await expect(offline.apiClient.call(api.dashboard.counts, {})).rejects.toMatchObject({ status: '9008', httpStatus: 0 });
  });

  it('ends the session on a 401 while signed in with a token that is not expiring', async () => {
    const { apiClient, sent, onSessionEnded } = client(() => unauthorized, fakeSession(1, NOW + 600_000));
    await expect(apiClient.call(api.auth.flags, {})).rejects.toMatchObject({ httpStatus: 401 });
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    expect(sent.map((s) => s.url)).toEqual([`/server${api.auth.flags.path}`]);
  });

  it('does not end the session on a 401 when the caller opted out (sign-out)', async () => {
    const { apiClient, onSessionEnded } = client(() => unauthorized, fakeSession(1, NOW + 600_000));
    await expect(apiClient.call(api.auth.signOut, {}, { endSessionOn401: false })).rejects.toMatchObject({ httpStatus: 401 });
    expect(onSessionEnded).not.toHaveBeenCalled();
  });

  it('refreshes an access token about to expire before the call (proactively), then calls with the new one', async () => {
    const { apiClient, sent, store, onSessionEnded } = client(
      (s) => (s.url.endsWith('/refresh') ? refreshRoute(s) : s.headers.Authorization === 'Bearer access-2' ? ok('fine') : unauthorized),
      fakeSession(1, NOW + 20_000),
    );
    await expect(apiClient.call(api.projects.list, {})).resolves.toBe('fine');
    expect(sent.map((s) => s.url)).toEqual([`/server${api.auth.refresh.path}`, `/server${api.projects.list.path}`]);
    expect(sent[0]?.headers.Authorization).toBeUndefined();
    expect(store.read()?.accessToken).toBe('access-2');
    expect(onSessionEnded).not.toHaveBeenCalled();
  });

  it('a tab without a token yet (reloaded, newly opened) gets one from the cookie before its first call', async () => {
    const { apiClient, sent, store } = client(
      (s) => (s.url.endsWith('/refresh') ? refreshRoute(s) : s.headers.Authorization === 'Bearer access-2' ? ok('fine') : unauthorized),
      { ...fakeSession(1, 0), accessToken: '' },
    );
    await expect(apiClient.call(api.projects.list, {})).resolves.toBe('fine');
    expect(sent.map((s) => s.url)).toEqual([`/server${api.auth.refresh.path}`, `/server${api.projects.list.path}`]);
    expect(sent[0]?.body).toEqual({ refreshIn: 'cookie' });
    expect(store.read()?.accessToken).toBe('access-2');
  });

  it('concurrent calls with an expiring token share one refresh', async () => {
    const { apiClient, sent } = client(
      (s) => (s.url.endsWith('/refresh') ? refreshRoute(s) : s.headers.Authorization === 'Bearer access-2' ? ok(1) : unauthorized),
      fakeSession(1, NOW + 1_000),
    );
    await Promise.all([apiClient.call('/v1/a'), apiClient.call('/v1/b'), apiClient.call('/v1/c')]);
    expect(sent.filter((s) => s.url.endsWith('/refresh'))).toHaveLength(1);
  });

  it('retries a 401 with a token this tab got meanwhile (another call refreshed)', async () => {
    let store: ReturnType<typeof tabStore> | null = null;
    const setup = client(
      (s) => {
        if (s.headers.Authorization === 'Bearer access-1') {
          store?.write(fakeSession(5, NOW + 600_000)); // another call of this tab refreshed while this one was under way
          return unauthorized;
        }
        return s.headers.Authorization === 'Bearer access-5' ? ok('second try') : unauthorized;
      },
      fakeSession(1, NOW + 600_000),
    );
    store = setup.store;
    await expect(setup.apiClient.call('/v1/x')).resolves.toBe('second try');
    expect(setup.onSessionEnded).not.toHaveBeenCalled();
  });

  it('ends the session only when the refresh is refused', async () => {
    const { apiClient, onSessionEnded, sent } = client(
      (s) => (s.url.endsWith('/refresh') ? refreshRoute(s, false) : unauthorized),
      fakeSession(1, NOW + 5_000),
    );
    await expect(apiClient.call('/v1/x')).rejects.toMatchObject({ httpStatus: 401 });
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    expect(sent.filter((s) => s.url.endsWith('/refresh'))).toHaveLength(1);
  });

  it('keeps the session when the refresh fails for a transient reason (server down)', async () => {
    const { apiClient, onSessionEnded } = client(
      (s) => (s.url.endsWith('/refresh') ? { status: 503, text: 'busy' } : ok('with old token')),
      fakeSession(1, NOW + 5_000),
    );
    await expect(apiClient.call('/v1/x')).resolves.toBe('with old token');
    expect(onSessionEnded).not.toHaveBeenCalled();
  });
});
