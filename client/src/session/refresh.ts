import type { SignInAnswer } from '@eln/shared';
import { needsRefresh, sessionFromAnswer, type Session } from './model';

/** Name of the Web Lock that makes token refresh single-flight across the browser's tabs. */
export const REFRESH_LOCK = 'eln-refresh';

/** What the refresh call gave: new tokens, or a refusal (the refresh token is spent, revoked or expired). */
export type RefreshOutcome = { kind: 'rotated'; answer: SignInAnswer } | { kind: 'refused' };

export interface RefresherDeps {
  /** Reads the stored session afresh (another tab may have changed it). */
  read(): Session | null;
  write(session: Session): void;
  /** POSTs the refresh token. Throws when the server could not be reached or failed: that is not a refusal. */
  post(refreshToken: string): Promise<RefreshOutcome>;
  /** Runs `task` holding the named cross-tab lock. */
  withLock<T>(name: string, task: () => Promise<T>): Promise<T>;
  now(): number;
}

/**
 * Makes the function that rotates the tokens. Refresh tokens work once and reusing one revokes the whole
 * session, so only one refresh may be in flight: concurrent callers in this tab share one promise, and
 * tabs queue on a Web Lock. Inside the lock the stored tokens are read again; when another tab has already
 * rotated them, those are used and no second refresh is sent.
 *
 * The returned function takes the refresh token of the session the caller saw expire (refresh tokens are
 * unique per rotation; access tokens issued within the same second may be equal) and resolves to the fresh
 * session, or to null when the server refused the refresh (the session has ended).
 */
export function createRefresher(deps: RefresherDeps): (seenRefreshToken: string) => Promise<Session | null> {
  let inFlight: Promise<Session | null> | null = null;

  const rotate = (seenRefreshToken: string) =>
    deps.withLock(REFRESH_LOCK, async (): Promise<Session | null> => {
      const stored = deps.read();
      if (!stored) return null;
      if (stored.refreshToken !== seenRefreshToken && !needsRefresh(stored, deps.now())) return stored;
      const outcome = await deps.post(stored.refreshToken);
      if (outcome.kind === 'refused') return null;
      // Signed out (or in again) meanwhile, e.g. in another tab: keep what is stored now.
      const current = deps.read();
      if (!current || current.refreshToken !== stored.refreshToken) return current;
      const next = sessionFromAnswer(outcome.answer, deps.now());
      deps.write(next);
      return next;
    });

  return (seenRefreshToken) => {
    if (!inFlight) {
      inFlight = rotate(seenRefreshToken).finally(() => {
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
