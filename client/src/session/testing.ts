import type { SignInAnswer } from '@eln/shared';
import type { Session } from './model';

/* Test helpers (pure): sessions, answers and a fake cross-tab lock. */

export function fakeAnswer(n: number, expiresIn = 900): SignInAnswer {
  return {
    accessToken: `access-${n}`,
    refreshToken: `refresh-${n}`,
    expiresIn,
    user: { userId: 'kim@lab.example', name: 'Kim Jiwoo', level: 1 },
    auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'Y' },
  };
}

export function fakeSession(n: number, expiresAt: number): Session {
  const answer = fakeAnswer(n);
  return { accessToken: answer.accessToken, refreshToken: answer.refreshToken, expiresAt, user: answer.user, auth: answer.auth };
}

/** A lock that, like navigator.locks, runs one task per name at a time, in request order. */
export function fakeLocks() {
  const tails = new Map<string, Promise<unknown>>();
  return async function withLock<T>(name: string, task: () => Promise<T>): Promise<T> {
    const previous = tails.get(name) ?? Promise.resolve();
    const run = previous.then(task, task);
    tails.set(
      name,
      run.catch(() => undefined),
    );
    return run;
  };
}

/** One localStorage shared by several simulated tabs. */
export function sharedStore(initial: Session | null) {
  let value: string | null = initial ? JSON.stringify(initial) : null;
  return {
    read: (): Session | null => (value ? (JSON.parse(value) as Session) : null),
    write: (session: Session | null) => {
      value = session ? JSON.stringify(session) : null;
    },
  };
}

export const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
