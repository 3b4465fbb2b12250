import type { SignInAnswer } from '@eln/shared';
import type { Session } from './model';
import type { RefreshOutcome } from './refresh';

/* Test helpers (pure): sessions, answers and a fake cross-tab lock. */

export function fakeAnswer(n: number, expiresIn = 900): SignInAnswer {
  return {
    accessToken: `access-${n}`,
    refreshToken: `refresh-${n}`,
    expiresIn,
    user: { userId: 'kim@lab.example', name: 'Kim Jiwoo', level: 1 },
    auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'Y' },
    abilities: { administer: false, createProject: true },
  };
}

export function fakeSession(n: number, expiresAt: number): Session {
  const answer = fakeAnswer(n);
  return { accessToken: answer.accessToken, expiresAt, user: answer.user, abilities: answer.abilities };
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

/** A tab's session store: the same object back until something is written (as the real store's snapshot). */
export function tabStore(initial: Session | null) {
  let value = initial;
  return {
    read: (): Session | null => value,
    write: (session: Session | null) => {
      value = session;
    },
  };
}

/**
 * The browser's one refresh cookie and the server behind it: a refresh sends the cookie as it is when the
 * request leaves, the server accepts refresh-N only while it is the newest, answers tokens N+1 and sets the
 * cookie to refresh-(N+1). A reused cookie is refused, as the real server does (and then revokes the session).
 */
export function fakeCookieServer() {
  let issued = 1;
  let cookie: string | null = 'refresh-1';
  const sent: Array<string | null> = [];
  const post = async (): Promise<RefreshOutcome> => {
    const presented = cookie;
    sent.push(presented);
    await tick();
    if (presented !== `refresh-${issued}`) return { kind: 'refused' };
    issued += 1;
    cookie = `refresh-${issued}`;
    return { kind: 'rotated', answer: { ...fakeAnswer(issued), refreshToken: '' } };
  };
  return { post, sent, cookie: () => cookie };
}

export const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
