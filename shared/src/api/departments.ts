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

export const departmentJoinRequest = z.strictObject({ companyCode: text().trim().min(1, { error: 'required' }).max(LIMITS.departmentCode) });
export const departmentSearchRequest = z.strictObject({ type: z.literal('user'), value: text().trim().max(LIMITS.userName).default('') });

export interface DepartmentRow {
  code: string;
  name: string;
  parentCode: string | null;
  userCount: number;
  source: 'local' | 'directory';
}

export interface DepartmentNode {
  code: string;
  name: string;
  children: DepartmentNode[];
}

/** The spec's department list entry: a company and its department tree. */
export interface CompanyDepartments {
  companyCode: string;
  companyName: string;
  children: DepartmentNode[];
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

/** Builds the tree from flat rows; rows whose parent is missing become roots. Children keep the rows' order. */
export function buildDepartmentTree(rows: ReadonlyArray<Pick<DepartmentRow, 'code' | 'name' | 'parentCode'>>): DepartmentNode[] {
  const nodes = new Map(rows.map((row) => [row.code, { code: row.code, name: row.name, children: [] as DepartmentNode[] }]));
  const roots: DepartmentNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.code)!;
    const parent = row.parentCode ? nodes.get(row.parentCode) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** The company code for department look-ups: one for local or the main hosts, another otherwise. */
export function companyCodeForHost(host: string, settings: { mainHosts: readonly string[]; mainCompanyCode: string; otherCompanyCode: string }): string {
  const hostname = host.replace(/:\d+$/, '').toLowerCase();
  const local = hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
  return local || settings.mainHosts.includes(hostname) ? settings.mainCompanyCode : settings.otherCompanyCode;
}
