import { AUDIT_SYSTEM_REASONS, ERR, type RefreshTransport, type SignInAnswer } from '@eln/shared';
import { appendAudit, auditAlone } from '../audit/audit.js';
import type { Tx } from '../db/client.js';
import { AppError } from '../http/errors.js';
import { enforce } from '../http/verdicts.js';
import { licenceProblem } from '../licence/licence.js';
import { canSignInUnderLicence, signInNeedsLicence, SIGN_IN_REFUSALS } from '../licence/policy.js';
import type { Services } from '../services.js';
import type { Visitor } from './authUser.js';
import { signInAnswer } from './presenters.js';
import type { UserRow } from './queries.js';
import { deliverTokens } from './refreshCookie.js';
import { createSession } from './sessions.js';

export interface Admission {
  /** Someone who has proven who they are (their password, or their provider's verified ID token). */
  user: UserRow;
  refreshIn: RefreshTransport | undefined;
  /** How they proved it, kept in the `after` of every record this writes; none for the password. */
  method?: Record<string, unknown>;
  /** Runs in the new session's transaction; what it answers joins the sign-in record's `after`. */
  withSession?: (tx: Tx) => Promise<Record<string, unknown> | undefined>;
}

/**
 * Lets a proven user in, the same way whatever proved them: refused when deactivated (1008) or, for
 * those whose sign-in depends on it, when the licence does not allow it (1007), each refusal audited;
 * otherwise a new session, audited in its transaction, and the signIn answer with the refresh token over
 * the chosen transport.
 */
export async function admitSignIn(
  services: Services,
  visitor: Visitor,
  admission: Admission,
): Promise<{ answer: SignInAnswer; sessionId: string }> {
  const { db } = services;
  const { request, reply, clientAddress } = visitor;
  const { user, method } = admission;
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
  // Only a sign-in the licence decides reads it (and moves its last-seen time forward).
  const problem = signInNeedsLicence(user) ? await licenceProblem(db, services.config.trustedLicenceKeys) : null;
  const verdict = canSignInUnderLicence(user, problem);
  if (verdict !== 'allowed') {
    await auditAlone(db, { actor, action: 'user.signInRefused', target, after: method, reason: `licence ${problem}`, clientAddress });
    enforce(verdict, SIGN_IN_REFUSALS);
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
