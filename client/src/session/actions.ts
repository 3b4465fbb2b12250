import { authFlags, type SignInAnswer, type SignInRequest } from '@eln/shared';
import { call } from '../api';
import { sessionFromAnswer, type Session } from './model';
import { clearSession, getSession, setSession, updateAuthFlags } from './store';

/** Signs in and stores the session (the refresh token as the server's cookie). Rejects with the ApiError of a refusal. */
export async function signIn(request: SignInRequest): Promise<Session> {
  const answer = await call<SignInAnswer>('/v1/user/signIn', { ...request, refreshIn: 'cookie' } satisfies SignInRequest);
  const session = sessionFromAnswer(answer, Date.now());
  setSession(session);
  return session;
}

/**
 * Tells the server to revoke the tokens, then forgets them. The local session is cleared even when the
 * server cannot be reached; resolves to false in that case so the caller can say so.
 */
export async function signOut(): Promise<boolean> {
  if (!getSession()) return true;
  try {
    await call('/v1/user/signOut', {}, { endSessionOn401: false });
    return true;
  } catch {
    return false;
  } finally {
    clearSession();
  }
}

let flagsInFlight: Promise<void> | null = null;

/** Reloads the caller's auth flags (done on each navigation). Failures other than a 401 are ignored. */
export function refreshAuthFlags(): Promise<void> {
  if (!getSession()) return Promise.resolve();
  flagsInFlight ??= call<unknown>('/v1/user/auth/list', {})
    .then((data) => {
      const parsed = authFlags.safeParse(data);
      if (parsed.success) updateAuthFlags(parsed.data);
    })
    .catch(() => undefined)
    .finally(() => {
      flagsInFlight = null;
    });
  return flagsInFlight;
}
