import { sessionAbilities, TIMING, type SessionAbilities, type SessionUser, type SignInAnswer } from '@eln/shared';

/**
 * A signed-in session as this tab holds it. The access token lives in the tab's memory only (empty until
 * the tab has one: it then needs a refresh); the refresh token is never here, it is the server's httpOnly
 * cookie. `expiresAt` is the access token's expiry in epoch ms.
 */
export interface Session {
  accessToken: string;
  expiresAt: number;
  /** How long before expiry to refresh: a quarter of the token's life, at most TIMING.refreshEarlySeconds. */
  refreshEarlyMs?: number;
  user: SessionUser;
  /**
   * What the user may do, as the server's policies decided at sign-in (refreshed on each navigation and
   * each token refresh). Null until the server has said: a profile stored before abilities existed.
   */
  abilities: SessionAbilities | null;
}

const EARLY_MS = TIMING.refreshEarlySeconds * 1000;
/** setTimeout cannot wait longer than this. */
const MAX_TIMER_MS = 2_147_483_647;

/** Turns a sign-in or refresh answer into a session; `now` is when the answer arrived. */
export function sessionFromAnswer(answer: SignInAnswer, now: number): Session {
  return {
    accessToken: answer.accessToken,
    expiresAt: now + Math.max(0, answer.expiresIn) * 1000,
    refreshEarlyMs: Math.min(EARLY_MS, (Math.max(0, answer.expiresIn) * 1000) / 4),
    user: { userId: answer.user.userId, name: answer.user.name, level: answer.user.level },
    abilities: answer.abilities,
  };
}

/** True when the access token has expired or will within the refresh margin. */
export function needsRefresh(
  session: Pick<Session, 'expiresAt' | 'refreshEarlyMs'>,
  now: number,
  earlyMs: number = session.refreshEarlyMs ?? EARLY_MS,
): boolean {
  return session.expiresAt - now <= earlyMs;
}

/** How long to wait before refreshing proactively (0 = now). */
export function refreshDelayMs(
  session: Pick<Session, 'expiresAt' | 'refreshEarlyMs'>,
  now: number,
  earlyMs: number = session.refreshEarlyMs ?? EARLY_MS,
): number {
  return Math.min(MAX_TIMER_MS, Math.max(0, session.expiresAt - earlyMs - now));
}

/** Whether the server lets the signed-in user do this; false while signed out or not yet known. */
export function may(session: Pick<Session, 'abilities'> | null | undefined, ability: keyof SessionAbilities): boolean {
  return session?.abilities?.[ability] ?? false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSessionUser(value: unknown): value is SessionUser {
  return isRecord(value) && typeof value.userId === 'string' && typeof value.name === 'string' && typeof value.level === 'number';
}

/**
 * What every tab shares through localStorage: who is signed in and what they may do, nothing that opens
 * the session (a tab without an access token of its own gets one from the refresh cookie).
 */
export type Profile = Pick<Session, 'user' | 'abilities'>;

/**
 * Reads a stored profile; without a user it counts as signed out. Abilities missing or malformed (a
 * profile stored by an earlier version) are unknown until the server says them again.
 */
export function parseProfile(raw: string | null): Profile | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value) || !isSessionUser(value.user)) return null;
  const abilities = sessionAbilities.safeParse(value.abilities);
  return {
    user: { userId: value.user.userId, name: value.user.name, level: value.user.level },
    abilities: abilities.success ? abilities.data : null,
  };
}

export function serializeProfile(profile: Profile): string {
  return JSON.stringify({ user: profile.user, abilities: profile.abilities });
}

/** The session of a tab that has the profile but no access token yet: it needs a refresh at once. */
export function sessionWithoutToken(profile: Profile): Session {
  return { accessToken: '', expiresAt: 0, user: profile.user, abilities: profile.abilities };
}
