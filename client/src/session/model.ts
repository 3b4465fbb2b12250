import { ADMIN_LEVEL, authFlags, TIMING, type AuthFlags, type SessionUser, type SignInAnswer } from '@eln/shared';

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
  auth: AuthFlags;
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
    auth: answer.auth,
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

export function isAdmin(user: Pick<SessionUser, 'level'> | null | undefined): boolean {
  return user?.level === ADMIN_LEVEL;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSessionUser(value: unknown): value is SessionUser {
  return isRecord(value) && typeof value.userId === 'string' && typeof value.name === 'string' && typeof value.level === 'number';
}

/**
 * What every tab shares through localStorage: who is signed in and their flags, nothing that opens the
 * session (a tab without an access token of its own gets one from the refresh cookie).
 */
export type Profile = Pick<Session, 'user' | 'auth'>;

/** Reads a stored profile; anything malformed counts as signed out. */
export function parseProfile(raw: string | null): Profile | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const flags = authFlags.safeParse(value.auth);
  if (!isSessionUser(value.user) || !flags.success) return null;
  return { user: { userId: value.user.userId, name: value.user.name, level: value.user.level }, auth: flags.data };
}

export function serializeProfile(profile: Profile): string {
  return JSON.stringify({ user: profile.user, auth: profile.auth });
}

/** The session of a tab that has the profile but no access token yet: it needs a refresh at once. */
export function sessionWithoutToken(profile: Profile): Session {
  return { accessToken: '', expiresAt: 0, user: profile.user, auth: profile.auth };
}
