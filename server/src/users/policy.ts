import { eq, type SQL } from 'drizzle-orm';
import { ADMIN_LEVEL, ERR } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { users } from '../db/schema.js';
import type { Refusals } from '../http/verdicts.js';

/*
 * Who may do what with user accounts: every rule once, as a verdict with its reason. The one place that
 * decides who is an administrator: every other policy asks `isAdministrator`.
 */

export type Caller = Pick<AuthUser, 'userNo' | 'level'>;
export type ManageVerdict = 'allowed' | 'notAdministrator';
export type UpdateVerdict = ManageVerdict | 'selfDemotion';

export const MANAGE_REFUSALS: Refusals<ManageVerdict> = { notAdministrator: ERR.forbidden };
export const UPDATE_REFUSALS: Refusals<UpdateVerdict> = { notAdministrator: ERR.forbidden, selfDemotion: ERR.selfDemotion };

/** Level 10 is administrator; every other level is a member. */
export function isAdministrator(user: Pick<AuthUser, 'level'>): boolean {
  return user.level === ADMIN_LEVEL;
}

/** `isAdministrator` as the condition on the users table that finds administrators. */
export function administratorsSql(): SQL {
  return eq(users.level, ADMIN_LEVEL);
}

/** Administrators list, read and create user accounts. */
export function canManageUsers(user: Pick<AuthUser, 'level'>): ManageVerdict {
  return isAdministrator(user) ? 'allowed' : 'notAdministrator';
}

/**
 * Administrators change any account, except that none takes away their own administration (a lower
 * level) or deactivates themself: the notebook is never left without the administrator who acted.
 */
export function canUpdateUser(
  user: Caller,
  account: { userNo: number },
  change: { level?: number | undefined; active?: boolean | undefined },
): UpdateVerdict {
  if (!isAdministrator(user)) return 'notAdministrator';
  const self = account.userNo === user.userNo;
  const demotes = change.level !== undefined && !isAdministrator({ level: change.level });
  if (self && (demotes || change.active === false)) return 'selfDemotion';
  return 'allowed';
}
