import { ERR, type LicenceStatus } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Refusals } from '../http/verdicts.js';
import { isAdministrator } from '../users/policy.js';

/*
 * What the licence decides: who may keep it, and whose sign-in depends on its standing. Every rule once,
 * as a verdict with its reason.
 */

export type Caller = Pick<AuthUser, 'level'>;
export type ManageVerdict = 'allowed' | 'notAdministrator';
export type SignInVerdict = 'allowed' | 'licenceProblem';

export const MANAGE_REFUSALS: Refusals<ManageVerdict> = { notAdministrator: ERR.forbidden };
export const SIGN_IN_REFUSALS: Refusals<SignInVerdict> = { licenceProblem: ERR.licence };

/** Administrators read the licence and register a new one. */
export function canManageLicence(user: Caller): ManageVerdict {
  return isAdministrator(user) ? 'allowed' : 'notAdministrator';
}

/**
 * Whether the licence's standing decides this user's sign-in: not an administrator's, who must always be
 * able to come in and register a new licence.
 */
export function signInNeedsLicence(user: Caller): boolean {
  return !isAdministrator(user);
}

/** Members sign in while the licence has no problem (or none is registered: evaluation mode). */
export function canSignInUnderLicence(user: Caller, problem: Exclude<LicenceStatus, 'valid'> | null): SignInVerdict {
  return signInNeedsLicence(user) && problem !== null ? 'licenceProblem' : 'allowed';
}
