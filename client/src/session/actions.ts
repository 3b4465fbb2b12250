import { authCalls, ssoCalls, type SignInRequest, type SsoFinishRequest } from '@eln/shared';
import { call } from '../api';
import { sessionFromAnswer, type Session } from './model';
import { clearSession, getSession, setSession, updateAbilities } from './store';

/** Signs in and stores the session (the refresh token as the server's cookie). Rejects with the ApiError of a refusal. */
export async function signIn(request: SignInRequest): Promise<Session> {
  const answer = await call(authCalls.signIn, { ...request, refreshIn: 'cookie' });
  const session = sessionFromAnswer(answer, Date.now());
  setSession(session);
  return session;
}

/**
 * Starts single sign-on: the server keeps the flow's secrets in its cookie and answers the provider's
 * address, where the browser goes next. Rejects with the ApiError of a refusal (provider down: 1022).
 */
export async function startSingleSignOn(): Promise<void> {
  const { authorizationUrl } = await call(ssoCalls.start, {});
  window.location.assign(authorizationUrl);
}

/** Finishes single sign-on with what the provider sent back, and stores the session as signIn does. */
export async function finishSingleSignOn(request: SsoFinishRequest): Promise<Session> {
  const answer = await call(ssoCalls.finish, { ...request, refreshIn: 'cookie' });
  const session = sessionFromAnswer(answer, Date.now());
  setSession(session);
  return session;
}

export interface SignOutOutcome {
  /** False when the server could not be told (the local session is gone anyway). */
  told: boolean;
  /** After a single sign-on: the provider's end-session address, to offer on the sign-in page. */
  providerSignOutUrl: string | null;
}

/**
 * Tells the server to revoke the tokens, then forgets them. The local session is cleared even when the
 * server cannot be reached; `told` is false in that case so the caller can say so.
 */
export async function signOut(): Promise<SignOutOutcome> {
  if (!getSession()) return { told: true, providerSignOutUrl: null };
  try {
    const answer = await call(authCalls.signOut, {}, { endSessionOn401: false });
    return { told: true, providerSignOutUrl: answer.endSessionUrl };
  } catch {
    return { told: false, providerSignOutUrl: null };
  } finally {
    clearSession();
  }
}

let abilitiesInFlight: Promise<void> | null = null;

/**
 * Asks the server again what the user may do, their flags being changeable at any time (done on each
 * navigation). Failures other than a 401 are ignored.
 */
export function refreshAbilities(): Promise<void> {
  const asked = getSession();
  if (!asked) return Promise.resolve();
  abilitiesInFlight ??= call(authCalls.flags, {})
    // Another user may have signed in meanwhile (in another tab): their abilities are not these.
    .then((answer) => {
      if (getSession()?.user.userId === asked.user.userId) updateAbilities(answer.abilities);
    })
    .catch(() => undefined)
    .finally(() => {
      abilitiesInFlight = null;
    });
  return abilitiesInFlight;
}
