import { ERR } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Refusals } from '../http/verdicts.js';
import { isAdministrator } from '../users/policy.js';

/*
 * What the file types decide: who may add types to the spec's list. Everyone signed in reads the list
 * (their uploads are judged by it); the verdict reaches the client as `abilities.update`.
 */

export type TypesVerdict = 'allowed' | 'notAdministrator';
export const TYPES_REFUSALS: Refusals<TypesVerdict> = { notAdministrator: ERR.forbidden };

/** Administrators add and remove file types. */
export function canUpdateFileTypes(user: Pick<AuthUser, 'level'>): TypesVerdict {
  return isAdministrator(user) ? 'allowed' : 'notAdministrator';
}
