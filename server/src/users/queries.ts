import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import { ERR, type AdminUserRow, type UserPick, type UserSearchType } from '@eln/shared';
import type { Queryable } from '../db/client.js';
import { departments, users } from '../db/schema.js';
import { escapeLike } from '../db/like.js';
import { offsetOf, withinDates } from '../db/paging.js';
import { findDepartment } from '../departments/queries.js';
import { AppError } from '../http/errors.js';
import { toAdminUserRow } from './presenters.js';

function searchCondition(type: UserSearchType | undefined, value: string | undefined): SQL | undefined {
  if (!value) return undefined;
  const pattern = `%${escapeLike(value)}%`;
  switch (type) {
    case 'userId':
      return ilike(users.userId, pattern);
    case 'employeeNo':
      return ilike(users.employeeNo, pattern);
    case 'department':
      return or(ilike(departments.name, pattern), ilike(departments.code, pattern));
    default:
      return ilike(users.name, pattern);
  }
}

/** The user list: searched by name, ID, employee number or department, within a range of creation dates. */
export async function listUsersForAdmin(
  q: Queryable,
  filter: { type?: UserSearchType; value?: string; startDate?: string; endDate?: string; page: number; pageSize: number },
  timeZone: string,
): Promise<{ list: AdminUserRow[]; totalCount: number }> {
  const where = and(searchCondition(filter.type, filter.value), withinDates(users.createdAt, filter, timeZone));
  const [total] = await q.select({ n: count() }).from(users).leftJoin(departments, eq(departments.code, users.departmentCode)).where(where);
  const rows = await q
    .select({ user: users, departmentName: departments.name })
    .from(users)
    .leftJoin(departments, eq(departments.code, users.departmentCode))
    .where(where)
    .orderBy(desc(users.userNo))
    .limit(filter.pageSize)
    .offset(offsetOf(filter));
  return { list: rows.map((r) => toAdminUserRow(r.user, r.departmentName)), totalCount: Number(total?.n ?? 0) };
}

export async function listUsersForPicker(
  q: Queryable,
  filter: { type?: 'name' | 'userId'; value?: string; page: number; pageSize: number },
): Promise<{ list: UserPick[]; totalCount: number }> {
  const pattern = filter.value ? `%${escapeLike(filter.value)}%` : null;
  const match = pattern
    ? filter.type === 'userId'
      ? ilike(users.userId, pattern)
      : or(ilike(users.name, pattern), ilike(users.userId, pattern))
    : undefined;
  const where = and(eq(users.active, true), match);
  const [total] = await q.select({ n: count() }).from(users).where(where);
  const rows = await q
    .select({
      userNo: users.userNo,
      userId: users.userId,
      name: users.name,
      departmentCode: users.departmentCode,
      departmentName: departments.name,
    })
    .from(users)
    .leftJoin(departments, eq(departments.code, users.departmentCode))
    .where(where)
    .orderBy(users.name)
    .limit(filter.pageSize)
    .offset(offsetOf(filter));
  return { list: rows, totalCount: Number(total?.n ?? 0) };
}

export async function findUserWithDepartment(q: Queryable, userNo: number) {
  const [row] = await q
    .select({ user: users, departmentName: departments.name })
    .from(users)
    .leftJoin(departments, eq(departments.code, users.departmentCode))
    .where(eq(users.userNo, userNo));
  return row;
}

/** One account as the administrator edits it; 404 when there is none. */
export async function adminUserDetail(q: Queryable, userNo: number): Promise<AdminUserRow> {
  const row = await findUserWithDepartment(q, userNo);
  if (!row) throw new AppError(ERR.notFound);
  return toAdminUserRow(row.user, row.departmentName);
}

/** A user's department must exist (none is allowed): 5003 otherwise. */
export async function requireDepartment(q: Queryable, code: string | null | undefined): Promise<void> {
  if (code && !(await findDepartment(q, code))) throw new AppError(ERR.departmentMissing);
}
