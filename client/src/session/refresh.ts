import type { SignInAnswer } from '@eln/shared';
import { needsRefresh, sessionFromAnswer, type Session } from './model';

/** Name of the Web Lock that makes token refresh single-flight across the browser's tabs. */
export const REFRESH_LOCK = 'eln-refresh';

/** What the refresh call gave: new tokens, or a refusal (the refresh token is spent, revoked or expired). */
export type RefreshOutcome = { kind: 'rotated'; answer: SignInAnswer } | { kind: 'refused' };

export interface RefresherDeps {
  /** Reads the session afresh (another tab may have signed out, or in as someone else). */
  read(): Session | null;
  write(session: Session): void;
  /** POSTs the refresh (the token is the cookie). Throws when the server could not be reached or failed: that is not a refusal. */
  post(): Promise<RefreshOutcome>;
  /** Runs `task` holding the named cross-tab lock. */
  withLock<T>(name: string, task: () => Promise<T>): Promise<T>;
  now(): number;
}

/**
 * Makes the function that rotates the tokens. Refresh tokens work once and reusing one revokes the whole
 * session, and every tab's refresh sends the one cookie the browser holds, so only one refresh may be in
 * flight in the whole browser: concurrent callers in this tab share one promise, and tabs queue on a Web
 * Lock, each rotating the cookie the previous one left. Inside the lock the session is read again; when
 * this tab got a fresh token meanwhile, that one is used and no second refresh is sent.
 *
 * The returned function takes the session the caller saw expire (or be refused) and resolves to the
 * fresh session, or to null when the server refused the refresh (the session has ended).
 */
export function createRefresher(deps: RefresherDeps): (seen: Session) => Promise<Session | null> {
  let inFlight: Promise<Session | null> | null = null;

  const rotate = (seen: Session) =>
    deps.withLock(REFRESH_LOCK, async (): Promise<Session | null> => {
      const current = deps.read();
      if (!current) return null;
      if (current !== seen && current.accessToken && !needsRefresh(current, deps.now())) return current;
      const outcome = await deps.post();
      if (outcome.kind === 'refused') return null;
      // Signed out meanwhile (in another tab): stay signed out.
      if (!deps.read()) return null;
      const next = sessionFromAnswer(outcome.answer, deps.now());
      deps.write(next);
      return next;
    });

  return (seen) => {
    if (!inFlight) {
      inFlight = rotate(seen).finally(() => {
        inFlight = null;
      });
    }
    return inFlight;
  };
}

/** A Web Lock when the browser offers one (secure contexts); otherwise the task runs unguarded across tabs. */
export async function browserLock<T>(name: string, task: () => Promise<T>): Promise<T> {
  const locks: LockManager | undefined = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks && typeof locks.request === 'function') return await locks.request(name, task);
  return await task();
}
