import { currentLanguage } from '../i18n';
import { styleGuideSamples } from '../lib/styleGuide';
import { getSession, markSessionEnded, setSession } from '../session/store';
import { browserLock, createRefresher } from '../session/refresh';
import type { CallSpec } from '@eln/shared';
import { createApiClient, type CallOptions } from './client';

const client = createApiClient({
  fetch: (input, init) => window.fetch(input, init),
  getSession,
  refresh: (seen) => refresh(seen),
  onSessionEnded: markSessionEnded,
  language: currentLanguage,
  now: () => Date.now(),
});

const refresh = createRefresher({
  read: getSession,
  write: setSession,
  post: () => client.postRefresh(),
  withLock: browserLock,
  now: () => Date.now(),
});

/**
 * The one API client: POST `/server` + path with a JSON body; resolves to `data` or rejects with an
 * ApiError. In the style guide (lib/styleGuide.ts) the answer comes from its samples instead.
 */
export const call: typeof client.call = (target: CallSpec | string, body?: unknown, options?: CallOptions) => {
  const samples = styleGuideSamples();
  if (!samples) return client.call(target as string, body, options);
  const path = typeof target === 'string' ? target : target.path;
  return new Promise((resolve) => resolve(samples.answer(path, body)));
};

/**
 * Gets this tab a fresh access token now (the proactive timer, and a tab that has none yet).
 * Resolves to false when the server refused, which ends the session.
 */
export async function refreshSession(): Promise<boolean> {
  const session = getSession();
  if (!session) return false;
  const next = await refresh(session);
  if (!next) markSessionEnded();
  return next !== null;
}
