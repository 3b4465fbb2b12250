import type { AuthFlagsAnswer, SessionAbilities, SignInAnswer } from '@eln/shared';
import { canCreateProject } from '../projects/policy.js';
import type { Services } from '../services.js';
import { toAuthFlags } from '../users/flags.js';
import { isAdministrator } from '../users/policy.js';
import type { AuthUser } from './authUser.js';
import type { UserRow } from './queries.js';

/** What the user may do anywhere in the notebook, as the features' policies decide it: the client's only source of such rules. */
export function sessionAbilities(user: Pick<AuthUser, 'level' | 'auth'>): SessionAbilities {
  return {
    administer: isAdministrator(user),
    createProject: canCreateProject(user) === 'allowed',
  };
}

/** The answer of a sign-in, a refresh or a single sign-on: the new tokens, who signed in, their flags and abilities. */
export function signInAnswer(services: Services, user: UserRow, sessionId: string, refreshToken: string): SignInAnswer {
  const auth = toAuthFlags(user);
  return {
    accessToken: services.tokens.issueAccessToken(user.userNo, sessionId),
    refreshToken,
    expiresIn: services.tokens.accessTokenSeconds,
    user: { userId: user.userId, name: user.name, level: user.level },
    auth,
    abilities: sessionAbilities({ level: user.level, auth }),
  };
}

/** The caller's flags as they are now, with the abilities they give. */
export function authFlagsAnswer(user: Pick<AuthUser, 'level' | 'auth'>): AuthFlagsAnswer {
  return { ...user.auth, abilities: sessionAbilities(user) };
}
