import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { requiredText, text } from '../validation.js';
import { ERR } from '../errors.js';
import { defineCall, noAnswer } from './call.js';
import { authFlags, emptyRequest } from './identity.js';
import { directorySyncAnswer, directorySyncStatus } from './directorySync.js';

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

export const departmentRow = z.strictObject({
  code: z.string(),
  name: z.string(),
  parentCode: z.string().nullable(),
  userCount: z.number(),
  source: z.enum(['local', 'directory']),
  /** When the directory stopped listing this synchronised department (kept, since people and projects refer to it), else null. */
  missingSince: z.string().nullable(),
});
export type DepartmentRow = z.infer<typeof departmentRow>;

export interface DepartmentNode {
  code: string;
  name: string;
  /** Active users in this department itself (not those below it). */
  userCount: number;
  children: DepartmentNode[];
}
export const departmentNode: z.ZodType<DepartmentNode> = z.strictObject({
  code: z.string(),
  name: z.string(),
  userCount: z.number(),
  get children() {
    return z.array(departmentNode);
  },
});

/** The spec's department list entry: a company and its department tree. */
export const companyDepartments = z.strictObject({
  companyCode: z.string(),
  companyName: z.string(),
  children: z.array(departmentNode),
  /** Active users in no known department (the search's `noDepartment`). */
  unassignedUserCount: z.number(),
});
export type CompanyDepartments = z.infer<typeof companyDepartments>;

/** The spec's search result user. */
export const departmentSearchUser = authFlags.safeExtend({
  departmentCode: z.string().nullable(),
  userNo: z.number(),
  userId: z.string(),
  name: z.string(),
});
export type DepartmentSearchUser = z.infer<typeof departmentSearchUser>;

export const departmentSearchGroup = z.strictObject({
  code: z.string().nullable(),
  name: z.string().nullable(),
  children: z.array(departmentSearchUser),
});
export type DepartmentSearchGroup = z.infer<typeof departmentSearchGroup>;

export const departmentSearchAnswer = z.strictObject({
  list: z.array(departmentSearchGroup),
  /** Where the next page starts, or null when this was the last. */
  next: departmentSearchCursor.nullable(),
});
export type DepartmentSearchAnswer = z.infer<typeof departmentSearchAnswer>;

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

/** The department calls (server/src/departments): everyone reads the tree and searches people; administrators keep it. */
export const departmentCalls = {
  list: defineCall({
    path: '/v1/department/list',
    auth: 'user',
    kind: 'query',
    summary: "The company's departments, flat, in display order, with their active users and where they come from.",
    request: emptyRequest,
    answer: z.strictObject({ list: z.array(departmentRow) }),
    errors: [ERR.departmentLookup],
    failure: ERR.departmentLookup,
  }),
  companyTree: defineCall({
    path: '/v1/department/join',
    auth: 'user',
    kind: 'query',
    summary: "A company's department tree with each department's head count, and how many people are in none.",
    request: departmentJoinRequest,
    answer: z.strictObject({ list: z.array(companyDepartments) }),
    errors: [ERR.noDepartment, ERR.departmentLookup],
    failure: ERR.departmentLookup,
  }),
  searchUsers: defineCall({
    path: '/v1/department/search',
    auth: 'user',
    kind: 'query',
    summary: 'Active people by name or ID, of some departments or of none, a page at a time, grouped by department.',
    request: departmentSearchRequest,
    answer: departmentSearchAnswer,
    errors: [ERR.searchFailed],
    failure: ERR.searchFailed,
  }),
  sync: defineCall({
    path: '/v1/department/sync',
    auth: 'admin',
    kind: 'command',
    summary: 'Synchronises departments and people from the directory (LDAP) now; one run at a time, a failure changes nothing.',
    request: emptyRequest,
    answer: directorySyncAnswer,
    errors: [
      ERR.directoryNotConfigured,
      ERR.directorySyncRunning,
      ERR.departmentSync,
      ERR.directoryUrl,
      ERR.directoryBindRefused,
      ERR.noDepartment,
      ERR.noUsers,
    ],
    failure: ERR.departmentSync,
  }),
  syncStatus: defineCall({
    path: '/v1/department/sync/status',
    auth: 'admin',
    kind: 'query',
    summary: 'Where the directory is, the run going on and the last one that ended (runs whose process died end as interrupted).',
    request: emptyRequest,
    answer: directorySyncStatus,
    errors: [ERR.departmentLookup],
    failure: ERR.departmentLookup,
  }),
  create: defineCall({
    path: '/v1/department/create',
    auth: 'admin',
    kind: 'command',
    summary: 'Adds a department, at the top or under a parent.',
    request: departmentCreateRequest,
    answer: z.strictObject({ code: z.string() }),
    errors: [ERR.departmentDuplicate, ERR.departmentMissing],
  }),
  update: defineCall({
    path: '/v1/department/update',
    auth: 'admin',
    kind: 'command',
    summary: 'Renames a department or moves it under another parent (or to the top); a move into its own subtree is refused.',
    request: departmentUpdateRequest,
    answer: noAnswer,
    errors: [ERR.departmentMissing, ERR.departmentCycle],
  }),
} as const;
