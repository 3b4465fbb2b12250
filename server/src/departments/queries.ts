import { asc, count, eq, sql } from 'drizzle-orm';
import type { DepartmentRow } from '@eln/shared';
import type { Queryable } from '../db/client.js';
import { departments, users } from '../db/schema.js';

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
      userCount: sql<number>`coalesce(${userCounts.n}, 0)`.mapWith(Number),
    })
    .from(departments)
    .leftJoin(userCounts, eq(userCounts.code, departments.code))
    .where(eq(departments.companyCode, companyCode))
    .orderBy(asc(departments.sortOrder), asc(departments.name));
  return rows;
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
