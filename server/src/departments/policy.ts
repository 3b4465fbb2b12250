import { ERR } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Refusals } from '../http/verdicts.js';
import { isAdministrator } from '../users/policy.js';

/*
 * The rules of the department tree. Who keeps it is said by the route table: adding, renaming, moving
 * and synchronising are the administrators' calls (`auth: 'admin'`), reading it and searching its
 * people any signed-in user's. What remains is the tree's own shape, and what the directory may not do.
 */

export type PlaceVerdict = 'allowed' | 'cycle';

export const PLACE_REFUSALS: Refusals<PlaceVerdict> = { cycle: ERR.departmentCycle };

/**
 * A department goes at the top or under another, never under itself or a department below it: the
 * tree stays a tree. `parentAncestors` are the codes above the new parent, nearest first.
 */
export function canPlaceDepartment(code: string, parentCode: string | null, parentAncestors: readonly string[]): PlaceVerdict {
  if (parentCode === null) return 'allowed';
  return parentCode === code || parentAncestors.includes(code) ? 'cycle' : 'allowed';
}

/**
 * The directory cannot lock the notebook's administrators out: an administrator it no longer lists stays
 * active (noted for the run), for an administrator to decide about.
 */
export function directoryMayDeactivate(user: Pick<AuthUser, 'level'>): boolean {
  return !isAdministrator(user);
}
