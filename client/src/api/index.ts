import { currentLanguage } from '../i18n';
import { getSession, markSessionEnded, setSession } from '../session/store';
import { browserLock, createRefresher } from '../session/refresh';
import { createApiClient } from './client';

export { ApiError, apiErrorText, fieldErrorsOf, isApiError, retryAfterOf } from './errors';
export type { CallOptions } from './client';

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
  post: (refreshToken) => client.postRefresh(refreshToken),
  withLock: browserLock,
  now: () => Date.now(),
});

/** The one API client: POST `/server` + path with a JSON body; resolves to `data` or rejects with an ApiError. */
export const call = client.call;

/**
 * Rotates the tokens now unless another tab already did (used by the proactive timer).
 * Resolves to false when the server refused, which ends the session.
 */
export async function refreshSession(): Promise<boolean> {
  const session = getSession();
  if (!session) return false;
  const next = await refresh(session.refreshToken);
  if (!next) markSessionEnded();
  return next !== null;
}
