import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { TIMING } from '@eln/shared';
import type { Queryable } from '../db/client.js';
import { refreshTokens, sessions } from '../db/schema.js';
import { newOpaqueToken, sha256Hex } from './secrets.js';

export interface NewSession {
  sessionId: string;
  refreshToken: string;
}

export async function createSession(
  q: Queryable,
  userNo: number,
  meta: { clientAddress: string; userAgent: string | undefined },
): Promise<NewSession> {
  const sessionId = randomUUID();
  await q
    .insert(sessions)
    .values({ sessionId, userNo, clientAddress: meta.clientAddress, userAgent: meta.userAgent?.slice(0, 300) ?? null });
  const refreshToken = await issueRefreshToken(q, sessionId);
  return { sessionId, refreshToken };
}

async function issueRefreshToken(q: Queryable, sessionId: string): Promise<string> {
  const token = newOpaqueToken();
  await q.insert(refreshTokens).values({
    tokenHash: sha256Hex(token),
    sessionId,
    expiresAt: new Date(Date.now() + TIMING.refreshTokenSeconds * 1000),
  });
  return token;
}

export type RotateResult =
  | { kind: 'rotated'; sessionId: string; userNo: number; refreshToken: string }
  /** A spent token came back: someone holds a copy. The whole family is revoked. */
  | { kind: 'reused'; sessionId: string; userNo: number }
  | { kind: 'refused' };

/**
 * Spends a refresh token and issues its successor in the same session. The spend is one conditional
 * UPDATE, so two racing uses of one token cannot both succeed.
 */
export async function rotateRefreshToken(q: Queryable, presented: string): Promise<RotateResult> {
  const tokenHash = sha256Hex(presented);
  const [spent] = await q
    .update(refreshTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.usedAt)))
    .returning();
  const [row] = await q
    .select({ token: refreshTokens, session: sessions })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.sessionId, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, tokenHash));
  if (!row) return { kind: 'refused' };
  const { session } = row;
  if (!spent) {
    if (session.revokedAt) return { kind: 'refused' };
    await revokeSession(q, session.sessionId, 'refresh token reused');
    return { kind: 'reused', sessionId: session.sessionId, userNo: session.userNo };
  }
  if (session.revokedAt || spent.expiresAt.getTime() <= Date.now()) return { kind: 'refused' };
  await q.update(sessions).set({ lastRefreshedAt: new Date() }).where(eq(sessions.sessionId, session.sessionId));
  const refreshToken = await issueRefreshToken(q, session.sessionId);
  return { kind: 'rotated', sessionId: session.sessionId, userNo: session.userNo, refreshToken };
}

export async function revokeSession(q: Queryable, sessionId: string, reason: string): Promise<void> {
  await q
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.sessionId, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeAllSessions(q: Queryable, userNo: number, reason: string): Promise<void> {
  await q
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.userNo, userNo), isNull(sessions.revokedAt)));
}
