import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { findUserId } from './commands/findUserId.js';
import { refreshSession } from './commands/refreshSession.js';
import { requestPasswordReset } from './commands/requestPasswordReset.js';
import { resetPassword } from './commands/resetPassword.js';
import { signIn } from './commands/signIn.js';
import { signOut } from './commands/signOut.js';
import { authFlagsAnswer } from './presenters.js';

/** Sign-in, token refresh, sign-out, the caller's auth flags and account recovery. */
export function authRoutes(services: Services) {
  return bindCalls(api.auth, {
    signIn: ({ body, request, reply, clientAddress }) => signIn(services, { request, reply, clientAddress }, body),
    refresh: ({ body, request, reply, clientAddress }) => refreshSession(services, { request, reply, clientAddress }, body),
    signOut: ({ actor, request, reply }) => signOut(services, actor, { request, reply }),
    flags: async ({ user }) => authFlagsAnswer(user),
    findId: ({ body, clientAddress }) => findUserId(services, { clientAddress }, body),
    findPassword: ({ body, request, clientAddress }) => requestPasswordReset(services, { request, clientAddress }, body),
    resetPassword: ({ body, clientAddress }) => resetPassword(services, { clientAddress }, body),
  });
}
