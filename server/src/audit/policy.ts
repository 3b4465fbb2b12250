import { ERR } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Refusals } from '../http/verdicts.js';
import { isAdministrator } from '../users/policy.js';

/*
 * Who may read the audit trail. Its own calls are the administrators' (`auth: 'admin'` in the route
 * table); the rule is asked here where another feature takes the trail out (the audit CSV export job).
 */

export type AuditExportVerdict = 'allowed' | 'notAdmin';

export const AUDIT_EXPORT_REFUSALS: Refusals<AuditExportVerdict> = { notAdmin: ERR.forbidden };

/** The trail is the administrators': only they take it out. */
export function canExportAudit(user: Pick<AuthUser, 'level'>): AuditExportVerdict {
  return isAdministrator(user) ? 'allowed' : 'notAdmin';
}
