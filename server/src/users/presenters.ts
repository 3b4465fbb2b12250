import type { AdminUserRow } from '@eln/shared';
import type { users } from '../db/schema.js';
import { toAuthFlags } from './flags.js';

type UserRecord = typeof users.$inferSelect;

export function toAdminUserRow(user: UserRecord, departmentName: string | null): AdminUserRow {
  return {
    userNo: user.userNo,
    userId: user.userId,
    email: user.userId,
    name: user.name,
    employeeNo: user.employeeNo,
    phone: user.phone,
    departmentCode: user.departmentCode,
    departmentName,
    level: user.level,
    auth: toAuthFlags(user),
    active: user.active,
    createdAt: user.createdAt.toISOString(),
  };
}

/** What the audit trail keeps of a user: everything an administrator can change, never the password hash. */
export const userAuditView = (row: AdminUserRow) => ({
  userId: row.userId,
  name: row.name,
  employeeNo: row.employeeNo,
  phone: row.phone,
  departmentCode: row.departmentCode,
  level: row.level,
  auth: row.auth,
  active: row.active,
});
