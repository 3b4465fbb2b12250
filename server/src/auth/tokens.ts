import { and, eq, isNull, sql } from 'drizzle-orm';
import type { JWT } from '@fastify/jwt';
import { ERR, TIMING } from '@eln/shared';
import type { Db, Queryable } from '../db/client.js';
import { builtOnce } from '../db/builtOnce.js';
import { sessions, users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { toAuthFlags } from '../users/flags.js';
import type { AuthUser } from './authUser.js';

interface AccessClaims {
  sub: string;
  sid: string;
  typ: 'access';
}

/** The verified token's claims, with the expiry the verifier checks only when it is present. */
type VerifiedClaims = AccessClaims & { exp: number };

/**
 * The verifier checks `exp` only when a token carries one; a token without it would never expire, so
 * it is refused here even when signed with the real key.
 */
const isAccessClaims = (value: unknown): value is VerifiedClaims =>
  typeof value === 'object' &&
  value !== null &&
  (value as AccessClaims).typ === 'access' &&
  typeof (value as AccessClaims).sid === 'string' &&
  typeof (value as AccessClaims).sub === 'string' &&
  Number.isFinite((value as VerifiedClaims).exp);

/**
 * Access tokens: short-lived HS256 JWTs naming the user and the session. A token is accepted only while
 * its session is live and its user active, so signing out or deactivating refuses it at once.
 */
export class TokenService {
  constructor(
    private readonly db: Db,
    private readonly jwt: JWT,
    /** The contract's 15 minutes; tests of expiry shorten it. */
    readonly accessTokenSeconds: number = TIMING.accessTokenSeconds,
  ) {}

  issueAccessToken(userNo: number, sessionId: string): string {
    const claims: AccessClaims = { sub: String(userNo), sid: sessionId, typ: 'access' };
    return this.jwt.sign(claims, { expiresIn: this.accessTokenSeconds });
  }

  /** The caller behind a token, or a 1002 refusal (missing, forged, expired, revoked, deactivated). */
  async authenticate(token: string): Promise<AuthUser> {
    const user = await this.authenticateOrNull(token);
    if (!user) throw new AppError(ERR.sessionEnded);
    return user;
  }

  async authenticateOrNull(token: string): Promise<AuthUser | null> {
    let claims: unknown;
    try {
      claims = this.jwt.verify(token);
    } catch {
      return null;
    }
    if (!isAccessClaims(claims)) return null;
    const user = await this.userOfSession(claims.sid);
    return user && String(user.userNo) === claims.sub ? user : null;
  }

  /** When an access token (already authenticated) expires, in epoch ms; null for anything else. */
  expiryOf(token: string): number | null {
    let claims: unknown;
    try {
      claims = this.jwt.verify(token);
    } catch {
      return null;
    }
    return isAccessClaims(claims) ? claims.exp * 1000 : null;
  }

  /**
   * The user of a session while it is live and the user active, as the database says now. Open live
   * connections are checked again this way when their session or user changes (they keep no token).
   */
  async userOfSession(sessionId: string): Promise<AuthUser | null> {
    const [row] = await builtOnce(this.db, 'sessionUser', sessionUser).execute({ sessionId });
    if (!row) return null;
    return {
      userNo: row.user.userNo,
      userId: row.user.userId,
      name: row.user.name,
      level: row.user.level,
      sessionId: row.session.sessionId,
      auth: toAuthFlags(row.user),
    };
  }
}

/** A live session with its active user (every call's check, so built once: db/builtOnce.ts). */
const sessionUser = (q: Queryable) =>
  q
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.userNo, sessions.userNo))
    .where(and(eq(sessions.sessionId, sql.placeholder('sessionId')), isNull(sessions.revokedAt), eq(users.active, true)))
    .prepare('session_user');
