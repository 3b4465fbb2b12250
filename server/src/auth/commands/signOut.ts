import type { SignOutAnswer } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Services } from '../../services.js';
import type { Actor, Visitor } from '../authUser.js';
import { clearRefreshCookie } from '../refreshCookie.js';
import { revokeSession } from '../sessions.js';
import { takeSignOutCookie } from '../sso/ssoCookies.js';

/**
 * Ends the caller's session and removes its refresh cookie; after a single sign-on, answers the
 * provider's end-session address so that the client can offer it.
 */
export async function signOut(
  services: Services,
  actor: Actor,
  { request, reply }: Pick<Visitor, 'request' | 'reply'>,
): Promise<SignOutAnswer> {
  const { user } = actor;
  clearRefreshCookie(request, reply);
  const endSessionUrl = takeSignOutCookie(request.server.jwt, request, reply, user.sessionId);
  // The session's open live connections end now, on every process, not at their next check.
  await services.live.transaction(services.db, async (tx, commands) => {
    await revokeSession(tx, user.sessionId, 'signed out');
    await appendAudit(tx, { ...auditedActor(actor), action: 'user.signOut', target: { type: 'session', id: user.sessionId } });
    commands.recheckUsers([user.userNo]);
  });
  return { endSessionUrl };
}
