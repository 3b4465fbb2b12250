import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { requiredText, text } from '../validation.js';
import type { AuthFlags } from './identity.js';

/** A department's code: letters, digits and `_ . -`. */
export const departmentCode = text()
  .trim()
  .min(1, { error: 'required' })
  .max(LIMITS.departmentCode)
  .regex(/^[A-Za-z0-9_.-]+$/, { error: 'invalidFormat' });

export const departmentCreateRequest = z.strictObject({
  code: departmentCode,
  name: requiredText(LIMITS.departmentName),
  parentCode: departmentCode.nullish(),
});

/** Rename (name) and move (parentCode; null moves it to the top). */
export const departmentUpdateRequest = z.strictObject({
  code: departmentCode,
  name: requiredText(LIMITS.departmentName).optional(),
  parentCode: departmentCode.nullish(),
});

export const departmentJoinRequest = z.strictObject({
  companyCode: text().trim().min(1, { error: 'required' }).max(LIMITS.departmentCode),
});
/** Where a search result stands in the search's order: the next page starts after it. */
export const departmentSearchCursor = z.strictObject({
  departmentName: text().max(LIMITS.departmentName).nullable(),
  name: text().max(LIMITS.userName),
  userNo: z.number().int().min(1).max(LIMITS.maxRecordNo),
});
export type DepartmentSearchCursor = z.infer<typeof departmentSearchCursor>;

/** The most people one `/department/search` answers; the picker asks for a page at a time. */
export const DEPARTMENT_SEARCH_MAX = 500;
export const DEPARTMENT_SEARCH_PAGE = 50;

/**
 * Active users by name or ID, ordered by department name, then name. Optional: only those of the given
 * departments (`departmentCodes`) or of none (`noDepartment`), and a page (`pageSize`, `after` the last one
 * seen: the answer's `next`).
 */
export const departmentSearchRequest = z
  .strictObject({
    type: z.literal('user'),
    value: text().trim().max(LIMITS.userName).default(''),
    departmentCodes: z.array(departmentCode).min(1).max(1000).optional(),
    noDepartment: z.boolean().optional(),
    pageSize: z.number().int().min(1).max(DEPARTMENT_SEARCH_MAX).default(DEPARTMENT_SEARCH_MAX),
    after: departmentSearchCursor.optional(),
  })
  .refine((body) => !(body.departmentCodes && body.noDepartment), { error: 'invalidValue', path: ['noDepartment'] });

export interface DepartmentRow {
  code: string;
  name: string;
  parentCode: string | null;
  userCount: number;
  source: 'local' | 'directory';
  /** When the directory stopped listing this synchronised department (kept, since people and projects refer to it), else null. */
  missingSince: string | null;
}

export interface DepartmentNode {
  code: string;
  name: string;
  /** Active users in this department itself (not those below it). */
  userCount: number;
  children: DepartmentNode[];
}

/** The spec's department list entry: a company and its department tree. */
export interface CompanyDepartments {
  companyCode: string;
  companyName: string;
  children: DepartmentNode[];
  /** Active users in no known department (the search's `noDepartment`). */
  unassignedUserCount: number;
}

/** The spec's search result user. */
export interface DepartmentSearchUser extends AuthFlags {
  departmentCode: string | null;
  userNo: number;
  userId: string;
  name: string;
}

export interface DepartmentSearchGroup {
  code: string | null;
  name: string | null;
  children: DepartmentSearchUser[];
}

export interface DepartmentSearchAnswer {
  list: DepartmentSearchGroup[];
  /** Where the next page starts, or null when this was the last. */
  next: DepartmentSearchCursor | null;
}

/** Builds the tree from flat rows; rows whose parent is missing become roots. Children keep the rows' order. */
export function buildDepartmentTree(
  rows: ReadonlyArray<Pick<DepartmentRow, 'code' | 'name' | 'parentCode' | 'userCount'>>,
): DepartmentNode[] {
  const nodes = new Map(
    rows.map((row) => [row.code, { code: row.code, name: row.name, userCount: row.userCount, children: [] as DepartmentNode[] }]),
  );
  const roots: DepartmentNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.code)!;
    const parent = row.parentCode ? nodes.get(row.parentCode) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** The company code for department look-ups: one for local or the main hosts, another otherwise. */
export function companyCodeForHost(
  host: string,
  settings: { mainHosts: readonly string[]; mainCompanyCode: string; otherCompanyCode: string },
): string {
  const hostname = host.replace(/:\d+$/, '').toLowerCase();
  const local = hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
  return local || settings.mainHosts.includes(hostname) ? settings.mainCompanyCode : settings.otherCompanyCode;
}
