import {
  api,
  companyCodeForHost,
  DEPARTMENT_SEARCH_MAX,
  DEPARTMENT_SEARCH_PAGE,
  ERR,
  type CompanyDepartments,
  type DepartmentSearchCursor,
} from '@eln/shared';
import { call, isApiError } from '../../api';
import { buildDirectory, usersOfGroups, type Directory, type PickedUser } from './selection';

let companyCode: Promise<string> | null = null;

/**
 * The company code for department look-ups: it depends on the host the notebook is served from
 * (`/v1/system/info`, public). Asked once per page load.
 */
export function loadCompanyCode(): Promise<string> {
  companyCode ??= call(api.system.info, {})
    .then((info) => companyCodeForHost(window.location.host, info))
    .catch((error: unknown) => {
      companyCode = null;
      throw error;
    });
  return companyCode;
}

export interface LoadedDirectory {
  directory: Directory;
  companyName: string;
}

/** Whose people a search asks for: everyone, some departments, or those in none. */
export type PeopleScope = { departmentCodes: string[] } | { noDepartment: true } | Record<string, never>;

export interface PeoplePage {
  users: PickedUser[];
  /** Where the next page starts, or null after the last. */
  next: DepartmentSearchCursor | null;
}

/** One page of active people whose name or ID contains `value`, within a scope, after a cursor. */
export async function searchPeople(
  value: string,
  scope: PeopleScope,
  after: DepartmentSearchCursor | null,
  signal?: AbortSignal,
  pageSize = DEPARTMENT_SEARCH_PAGE,
): Promise<PeoplePage> {
  const answer = await call(
    api.departments.searchUsers,
    { type: 'user', value, ...scope, pageSize, ...(after ? { after } : {}) },
    { signal },
  );
  return { users: usersOfGroups(answer.list), next: answer.next };
}

/** Everyone in a scope, page after page: what choosing a whole department adds. */
export async function loadEveryone(scope: PeopleScope, signal?: AbortSignal): Promise<PickedUser[]> {
  const users: PickedUser[] = [];
  let after: DepartmentSearchCursor | null = null;
  do {
    const page: PeoplePage = await searchPeople('', scope, after, signal, DEPARTMENT_SEARCH_MAX);
    users.push(...page.users);
    after = page.next;
  } while (after);
  return users;
}

/** The department tree of the company (`api.departments.companyTree`) with each department's head count. */
export async function loadDirectory(signal?: AbortSignal): Promise<LoadedDirectory> {
  const code = await loadCompanyCode();
  let company: CompanyDepartments | undefined;
  try {
    const answer = await call(api.departments.companyTree, { companyCode: code }, { signal });
    company = answer.list[0];
  } catch (error) {
    // A company without departments yet: everyone is in no department, chosen by name.
    if (!(isApiError(error) && error.status === ERR.noDepartment)) throw error;
    return { directory: buildDirectory([], (await loadEveryone({ noDepartment: true }, signal)).length), companyName: '' };
  }
  return { directory: buildDirectory(company?.children ?? [], company?.unassignedUserCount ?? 0), companyName: company?.companyName ?? '' };
}
