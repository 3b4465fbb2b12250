import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_LEVEL, AUDIT_SYSTEM_REASONS, ERR, type RefreshTransport, type SignInAnswer } from '@eln/shared';
import { appendAudit, auditAlone } from '../audit/audit.js';
import type { Queryable, Tx } from '../db/client.js';
import { users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { licenceProblem } from '../licence/licence.js';
import type { Services } from '../services.js';
import { toAuthFlags } from '../users/flags.js';
import { deliverTokens } from './refreshCookie.js';
import { createSession } from './sessions.js';

export type UserRow = typeof users.$inferSelect;

export function signInAnswer(services: Services, user: UserRow, sessionId: string, refreshToken: string): SignInAnswer {
  return {
    accessToken: services.tokens.issueAccessToken(user.userNo, sessionId),
    refreshToken,
    expiresIn: services.tokens.accessTokenSeconds,
    user: { userId: user.userId, name: user.name, level: user.level },
    auth: toAuthFlags(user),
  };
}

export async function findUserById(q: Queryable, userId: string): Promise<UserRow | undefined> {
  const [user] = await q.select().from(users).where(eq(users.userId, userId.toLowerCase()));
  return user;
}

export interface Admission {
  /** Someone who has proven who they are (their password, or their provider's verified ID token). */
  user: UserRow;
  request: FastifyRequest;
  reply: FastifyReply;
  clientAddress: string;
  refreshIn: RefreshTransport | undefined;
  /** How they proved it, kept in the `after` of every record this writes; none for the password. */
  method?: Record<string, unknown>;
  /** Runs in the new session's transaction; what it answers joins the sign-in record's `after`. */
  withSession?: (tx: Tx) => Promise<Record<string, unknown> | undefined>;
}

/**
 * Lets a proven user in, the same way whatever proved them: refused when deactivated (1008) or, for
 * members, when the licence does not allow it (1007), each refusal audited; otherwise a new session,
 * audited in its transaction, and the signIn answer with the refresh token over the chosen transport.
 */
export async function admitSignIn(services: Services, admission: Admission): Promise<{ answer: SignInAnswer; sessionId: string }> {
  const { db } = services;
  const { user, request, reply, clientAddress, method } = admission;
  const actor = { userNo: user.userNo, userId: user.userId };
  const target = { type: 'user', id: user.userId };
  if (!user.active) {
    await auditAlone(db, {
      actor,
      action: 'user.signInRefused',
      target,
      after: method,
      reason: AUDIT_SYSTEM_REASONS.deactivated,
      clientAddress,
    });
    throw new AppError(ERR.accountDisabled);
  }
  const problem = user.level === ADMIN_LEVEL ? null : await licenceProblem(db, services.config.trustedLicenceKeys);
  if (problem) {
    await auditAlone(db, { actor, action: 'user.signInRefused', target, after: method, reason: `licence ${problem}`, clientAddress });
    throw new AppError(ERR.licence);
  }
  const session = await db.transaction(async (tx) => {
    const extra = await admission.withSession?.(tx);
    const created = await createSession(tx, user.userNo, { clientAddress, userAgent: request.headers['user-agent'] });
    const after = method || extra ? { ...method, ...extra } : undefined;
    await appendAudit(tx, { actor, action: 'user.signIn', target: { type: 'session', id: created.sessionId }, after, clientAddress });
    return created;
  });
  const answer = deliverTokens(request, reply, admission.refreshIn, signInAnswer(services, user, session.sessionId, session.refreshToken));
  return { answer, sessionId: session.sessionId };
}
