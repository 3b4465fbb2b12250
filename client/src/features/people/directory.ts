import { companyCodeForHost, ERR, type CompanyDepartments, type DepartmentSearchGroup, type SystemInfo } from '@eln/shared';
import { call, isApiError } from '../../api';
import { buildDirectory, type Directory } from './selection';

let companyCode: Promise<string> | null = null;

/**
 * The company code for department look-ups: it depends on the host the notebook is served from
 * (`/v1/system/info`, public). Asked once per page load.
 */
export function loadCompanyCode(): Promise<string> {
  companyCode ??= call<SystemInfo>('/v1/system/info', {})
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

/** Searches active users by name or ID; the answer groups them by department. An empty word lists everyone (up to 500). */
export async function searchUsers(value: string, signal?: AbortSignal): Promise<DepartmentSearchGroup[]> {
  const answer = await call<{ list: DepartmentSearchGroup[] }>('/v1/department/search', { type: 'user', value }, { signal });
  return answer.list;
}

/** The department tree of the company (`/department/join`) with everyone in it (`/department/search`). */
export async function loadDirectory(signal?: AbortSignal): Promise<LoadedDirectory> {
  const [code, groups] = await Promise.all([loadCompanyCode(), searchUsers('', signal)]);
  let company: CompanyDepartments | undefined;
  try {
    const answer = await call<{ list: CompanyDepartments[] }>('/v1/department/join', { companyCode: code }, { signal });
    company = answer.list[0];
  } catch (error) {
    // A company without departments yet: people can still be chosen by name.
    if (!(isApiError(error) && error.status === ERR.noDepartment)) throw error;
  }
  return { directory: buildDirectory(company?.children ?? [], groups), companyName: company?.companyName ?? '' };
}
