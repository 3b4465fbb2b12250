import { ADMIN_LEVEL, authFlags, TIMING, type AuthFlags, type SessionUser, type SignInAnswer } from '@eln/shared';

/** What the browser keeps of a signed-in session. `expiresAt` is the access token's expiry in epoch ms. */
export interface Session {
  accessToken: string;
  refreshToken: string;
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
    refreshToken: answer.refreshToken,
    expiresAt: now + Math.max(0, answer.expiresIn) * 1000,
    refreshEarlyMs: Math.min(EARLY_MS, (Math.max(0, answer.expiresIn) * 1000) / 4),
    user: { userId: answer.user.userId, name: answer.user.name, level: answer.user.level },
    auth: answer.auth,
  };
}

/** True when the access token has expired or will within the refresh margin. */
export function needsRefresh(session: Pick<Session, 'expiresAt' | 'refreshEarlyMs'>, now: number, earlyMs: number = session.refreshEarlyMs ?? EARLY_MS): boolean {
  return session.expiresAt - now <= earlyMs;
}

/** How long to wait before refreshing proactively (0 = now). */
export function refreshDelayMs(session: Pick<Session, 'expiresAt' | 'refreshEarlyMs'>, now: number, earlyMs: number = session.refreshEarlyMs ?? EARLY_MS): number {
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

/** Reads a stored session; anything malformed counts as signed out. */
export function parseSession(raw: string | null): Session | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const { accessToken, refreshToken, expiresAt, refreshEarlyMs, user, auth } = value;
  const flags = authFlags.safeParse(auth);
  if (typeof accessToken !== 'string' || !accessToken) return null;
  if (typeof refreshToken !== 'string' || !refreshToken) return null;
  if (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) return null;
  if (!isSessionUser(user) || !flags.success) return null;
  const early = typeof refreshEarlyMs === 'number' && Number.isFinite(refreshEarlyMs) && refreshEarlyMs >= 0 ? { refreshEarlyMs } : {};
  return { accessToken, refreshToken, expiresAt, ...early, user, auth: flags.data };
}

export function serializeSession(session: Session): string {
  return JSON.stringify(session);
}
