import { and, asc, count, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  buildDepartmentTree,
  ERR,
  type api,
  type CallAnswer,
  type CallRequest,
  type DepartmentRow,
  type DepartmentSearchAnswer,
  type DepartmentSearchGroup,
} from '@eln/shared';
import type { Queryable } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { companies, departments, users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { toAuthFlags } from '../users/flags.js';

type DepartmentSearchFilter = CallRequest<typeof api.departments.searchUsers>;

export type DepartmentRecord = typeof departments.$inferSelect;

export async function findDepartment(q: Queryable, code: string): Promise<DepartmentRecord | undefined> {
  const [row] = await q.select().from(departments).where(eq(departments.code, code));
  return row;
}

/** Every department of a company, with how many active users each has, in display order. */
export async function listDepartments(q: Queryable, companyCode: string): Promise<DepartmentRow[]> {
  const userCounts = q
    .select({ code: users.departmentCode, n: count().as('n') })
    .from(users)
    .where(eq(users.active, true))
    .groupBy(users.departmentCode)
    .as('user_counts');
  const rows = await q
    .select({
      code: departments.code,
      name: departments.name,
      parentCode: departments.parentCode,
      source: departments.source,
      missingAt: departments.directoryMissingAt,
      userCount: sql<number>`coalesce(${userCounts.n}, 0)`.mapWith(Number),
    })
    .from(departments)
    .leftJoin(userCounts, eq(userCounts.code, departments.code))
    .where(eq(departments.companyCode, companyCode))
    .orderBy(asc(departments.sortOrder), asc(departments.name));
  return rows.map(({ missingAt, ...row }) => ({ ...row, missingSince: missingAt?.toISOString() ?? null }));
}

/** A company's department tree with each department's head count, and how many people are in none; 6003 for an unknown company. */
export async function companyDepartmentTree(q: Queryable, companyCode: string): Promise<CallAnswer<typeof api.departments.companyTree>> {
  const [company] = await q.select().from(companies).where(eq(companies.code, companyCode));
  if (!company) throw new AppError(ERR.noDepartment);
  const [rows, unassigned] = await Promise.all([listDepartments(q, company.code), unassignedUserCount(q)]);
  return {
    list: [{ companyCode: company.code, companyName: company.name, children: buildDepartmentTree(rows), unassignedUserCount: unassigned }],
  };
}

/** The codes of a department's ancestors, nearest first, to refuse moves that would make a cycle. */
export async function ancestorsOf(q: Queryable, code: string): Promise<string[]> {
  const chain: string[] = [];
  let current = await findDepartment(q, code);
  while (current?.parentCode && !chain.includes(current.parentCode)) {
    chain.push(current.parentCode);
    current = await findDepartment(q, current.parentCode);
  }
  return chain;
}

/** Active users in no known department (none, or a code no department has): whom `noDepartment` finds. */
export async function unassignedUserCount(q: Queryable): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(users)
    .leftJoin(departments, eq(departments.code, users.departmentCode))
    .where(and(eq(users.active, true), isNull(departments.code)));
  return row?.n ?? 0;
}

/** The search's order: people of a department first (by its name), those of none last, then by name and number. */
const departmentMissing = sql<boolean>`(${departments.code} is null)`;
const departmentNameKey = sql<string>`coalesce(${departments.name}, '')`;

/**
 * `/department/search`: active users whose name or ID contains the word, optionally only of some
 * departments (or of none), one page in the search's order after a cursor; grouped by department.
 */
export async function searchActiveUsers(q: Queryable, filter: DepartmentSearchFilter): Promise<DepartmentSearchAnswer> {
  const pattern = `%${escapeLike(filter.value)}%`;
  const { after } = filter;
  const rows = await q
    .select({ user: users, department: departments })
    .from(users)
    .leftJoin(departments, eq(departments.code, users.departmentCode))
    .where(
      and(
        eq(users.active, true),
        filter.value ? or(ilike(users.name, pattern), ilike(users.userId, pattern)) : undefined,
        filter.departmentCodes ? inArray(users.departmentCode, filter.departmentCodes) : undefined,
        filter.noDepartment ? isNull(departments.code) : undefined,
        after
          ? sql`(${departmentMissing}, ${departmentNameKey}, ${users.name}, ${users.userNo}) > (${after.departmentName === null}::boolean, ${after.departmentName ?? ''}, ${after.name}, ${after.userNo})`
          : undefined,
      ),
    )
    .orderBy(departmentMissing, departmentNameKey, asc(users.name), asc(users.userNo))
    .limit(filter.pageSize + 1);
  const page = rows.slice(0, filter.pageSize);
  const groups = new Map<string | null, DepartmentSearchGroup>();
  for (const { user, department } of page) {
    const key = department?.code ?? null;
    const group = groups.get(key) ?? { code: key, name: department?.name ?? null, children: [] };
    group.children.push({ departmentCode: key, userNo: user.userNo, userId: user.userId, name: user.name, ...toAuthFlags(user) });
    groups.set(key, group);
  }
  const last = page.at(-1);
  const next =
    rows.length > filter.pageSize && last
      ? { departmentName: last.department?.name ?? null, name: last.user.name, userNo: last.user.userNo }
      : null;
  return { list: [...groups.values()], next };
}
