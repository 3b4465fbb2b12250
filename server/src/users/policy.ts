import { ADMIN_LEVEL } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';

/*
 * Who may do what with user accounts. The one place that decides who is an administrator: every other
 * policy asks `isAdministrator`.
 */

/** Level 10 is administrator; every other level is a member. */
export function isAdministrator(user: Pick<AuthUser, 'level'>): boolean {
  return user.level === ADMIN_LEVEL;
}
