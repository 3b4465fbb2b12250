import { AUDIT_SYSTEM_REASONS, ERR, type api, type CallRequest, type SignInAnswer } from '@eln/shared';
import { appendAudit } from '../../audit/audit.js';
import { AppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import type { Visitor } from '../authUser.js';
import { signInAnswer } from '../presenters.js';
import { findUserByNo } from '../queries.js';
import { clearRefreshCookie, deliverTokens, refreshTokenFromCookie } from '../refreshCookie.js';
import { rotateRefreshToken } from '../sessions.js';

/**
 * Spends a refresh token (from the body, or the browser's cookie) for new tokens of the same session. A
 * spent token presented again revokes the session, audited, and its open live connections end now.
 */
export async function refreshSession(
  services: Services,
  visitor: Visitor,
  input: CallRequest<typeof api.auth.refresh>,
): Promise<SignInAnswer> {
  const { db } = services;
  const { request, reply, clientAddress } = visitor;
  const presented = input.refreshIn === 'cookie' ? refreshTokenFromCookie(request) : input.refreshToken;
  const refuse = () => {
    if (input.refreshIn === 'cookie') clearRefreshCookie(request, reply);
    return new AppError(ERR.refreshInvalid);
  };
  if (!presented) throw refuse();
  // A reuse revokes the session: its open live connections end now, not at their next check.
  const result = await services.live.transaction(db, async (tx, commands) => {
    const rotated = await rotateRefreshToken(tx, presented);
    if (rotated.kind === 'reused') {
      const owner = await findUserByNo(tx, rotated.userNo);
      await appendAudit(tx, {
        actor: owner ? { userNo: owner.userNo, userId: owner.userId } : null,
        action: 'user.refreshReuse',
        target: { type: 'session', id: rotated.sessionId },
        reason: AUDIT_SYSTEM_REASONS.refreshReuse,
        clientAddress,
      });
      commands.recheckUsers([rotated.userNo]);
    }
    return rotated;
  });
  if (result.kind !== 'rotated') throw refuse();
  const user = await findUserByNo(db, result.userNo);
  if (!user?.active) throw refuse();
  return deliverTokens(request, reply, input.refreshIn, signInAnswer(services, user, result.sessionId, result.refreshToken));
}
