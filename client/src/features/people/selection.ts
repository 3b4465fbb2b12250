import { joinList, type DepartmentNode, type DepartmentSearchGroup, type ProjectDetail, type SignatureList } from '@eln/shared';

/** A chosen person, shown by name and department (never by ID alone). */
export interface PickedUser {
  userId: string;
  name: string;
  departmentCode: string | null;
  departmentName: string | null;
}

export interface PickedDepartment {
  code: string;
  name: string;
}

/**
 * What the participant picker holds: people, and the departments chosen as a whole. Immutable: every
 * change answers a new selection.
 */
export interface Selection {
  users: readonly PickedUser[];
  departments: readonly PickedDepartment[];
}

export const EMPTY_SELECTION: Selection = { users: [], departments: [] };

export interface DirectoryDepartment {
  code: string;
  name: string;
  parentCode: string | null;
  depth: number;
  childCodes: string[];
}

/** The company as the picker sees it: the department tree and the active users of each department. */
export interface Directory {
  /** Every department, in tree order (parents before their children). */
  departments: Map<string, DirectoryDepartment>;
  roots: string[];
  /** Users per department code; `null` holds the users in no (known) department. */
  usersByDepartment: Map<string | null, PickedUser[]>;
  usersById: Map<string, PickedUser>;
}

export const EMPTY_DIRECTORY: Directory = { departments: new Map(), roots: [], usersByDepartment: new Map(), usersById: new Map() };

const userKey = (userId: string) => userId.toLowerCase();

/** Turns `/department/search` groups into picked users, keeping the group's department. */
export function usersOfGroups(groups: readonly DepartmentSearchGroup[]): PickedUser[] {
  return groups.flatMap((group) =>
    group.children.map((user) => ({
      userId: user.userId,
      name: user.name,
      departmentCode: user.departmentCode ?? group.code,
      departmentName: group.name,
    })),
  );
}

/** Builds the directory from the `/department/join` tree and the `/department/search` groups of all users. */
export function buildDirectory(tree: readonly DepartmentNode[], groups: readonly DepartmentSearchGroup[]): Directory {
  const departments = new Map<string, DirectoryDepartment>();
  const visit = (node: DepartmentNode, parentCode: string | null, depth: number) => {
    if (departments.has(node.code)) return;
    departments.set(node.code, { code: node.code, name: node.name, parentCode, depth, childCodes: node.children.map((child) => child.code) });
    for (const child of node.children) visit(child, node.code, depth + 1);
  };
  for (const root of tree) visit(root, null, 0);

  const usersByDepartment = new Map<string | null, PickedUser[]>();
  const usersById = new Map<string, PickedUser>();
  for (const user of usersOfGroups(groups)) {
    const code = user.departmentCode !== null && departments.has(user.departmentCode) ? user.departmentCode : null;
    const list = usersByDepartment.get(code) ?? [];
    list.push(user);
    usersByDepartment.set(code, list);
    usersById.set(userKey(user.userId), user);
  }
  return { departments, roots: tree.map((node) => node.code), usersByDepartment, usersById };
}

/** The department and every department below it. */
export function subtreeCodes(directory: Directory, code: string): string[] {
  const out: string[] = [];
  const stack = [code];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (out.includes(current)) continue;
    out.push(current);
    const node = directory.departments.get(current);
    if (node) stack.push(...[...node.childCodes].reverse());
  }
  return out;
}

/** The departments above this one, nearest first. */
export function ancestorCodes(directory: Directory, code: string | null): string[] {
  const out: string[] = [];
  let current = code ? directory.departments.get(code)?.parentCode : null;
  while (current && !out.includes(current)) {
    out.push(current);
    current = directory.departments.get(current)?.parentCode ?? null;
  }
  return out;
}

/** The users of a department and of all departments below it. */
export function subtreeUsers(directory: Directory, code: string): PickedUser[] {
  return subtreeCodes(directory, code).flatMap((each) => directory.usersByDepartment.get(each) ?? []);
}

export function isUserSelected(selection: Selection, userId: string): boolean {
  const key = userKey(userId);
  return selection.users.some((user) => userKey(user.userId) === key);
}

export type CheckState = 'all' | 'some' | 'none';

/**
 * A department's checkbox: checked when chosen as a whole, mixed when some of its people (or of its
 * sub-departments) are chosen, else empty.
 */
export function departmentState(selection: Selection, directory: Directory, code: string): CheckState {
  if (selection.departments.some((department) => department.code === code)) return 'all';
  const codes = new Set(subtreeCodes(directory, code));
  if (selection.departments.some((department) => codes.has(department.code))) return 'some';
  const users = subtreeUsers(directory, code);
  return users.some((user) => isUserSelected(selection, user.userId)) ? 'some' : 'none';
}

function departmentOfUser(directory: Directory, user: Pick<PickedUser, 'userId' | 'departmentCode'>): string | null {
  return directory.usersById.get(userKey(user.userId))?.departmentCode ?? user.departmentCode;
}

function addUsers(existing: readonly PickedUser[], more: readonly PickedUser[]): PickedUser[] {
  const out = [...existing];
  const seen = new Set(existing.map((user) => userKey(user.userId)));
  for (const user of more) {
    if (seen.has(userKey(user.userId))) continue;
    seen.add(userKey(user.userId));
    out.push(user);
  }
  return out;
}

/**
 * Checking a department chooses it and its sub-departments as a whole, with all their people. Unchecking
 * removes them, and the departments above it stop counting as chosen whole.
 */
export function setDepartment(selection: Selection, directory: Directory, code: string, on: boolean): Selection {
  const codes = directory.departments.has(code) ? subtreeCodes(directory, code) : [code];
  const users = subtreeUsers(directory, code);
  if (on) {
    const known = new Set(selection.departments.map((department) => department.code));
    const added = codes
      .filter((each) => !known.has(each))
      .map((each) => ({ code: each, name: directory.departments.get(each)?.name ?? each }));
    return { users: addUsers(selection.users, users), departments: [...selection.departments, ...added] };
  }
  const dropCodes = new Set([...codes, ...ancestorCodes(directory, code)]);
  const dropUsers = new Set(users.map((user) => userKey(user.userId)));
  return {
    users: selection.users.filter((user) => !dropUsers.has(userKey(user.userId))),
    departments: selection.departments.filter((department) => !dropCodes.has(department.code)),
  };
}

/**
 * Checking a person adds them. Unchecking removes them, and their department (and those above it) is no
 * longer chosen as a whole.
 */
export function setUser(selection: Selection, directory: Directory, user: PickedUser, on: boolean): Selection {
  if (on) return isUserSelected(selection, user.userId) ? selection : { ...selection, users: [...selection.users, user] };
  const key = userKey(user.userId);
  const department = departmentOfUser(directory, user);
  const dropCodes = new Set(department ? [department, ...ancestorCodes(directory, department)] : []);
  return {
    users: selection.users.filter((each) => userKey(each.userId) !== key),
    departments: selection.departments.filter((each) => !dropCodes.has(each.code)),
  };
}

/** The API's `signatureList`: department codes and user IDs, comma-separated. */
export function toSignatureList(selection: Selection): SignatureList {
  return {
    department: joinList(selection.departments.map((department) => department.code)),
    user: joinList(selection.users.map((user) => user.userId)),
  };
}

/** A project's participants as a selection, for editing. */
export function selectionFromProject(project: Pick<ProjectDetail, 'participants' | 'departments'>): Selection {
  return {
    users: project.participants.map((participant) => ({
      userId: participant.userId,
      name: participant.name,
      departmentCode: null,
      departmentName: participant.departmentName,
    })),
    departments: project.departments.map((department) => ({ code: department.code, name: department.name })),
  };
}

/** Users whose name or ID contains `term` (case-insensitive), for filtering inside the picker. */
export function matchesUser(user: Pick<PickedUser, 'name' | 'userId'>, term: string): boolean {
  const needle = term.trim().toLowerCase();
  if (!needle) return true;
  return user.name.toLowerCase().includes(needle) || user.userId.toLowerCase().includes(needle);
}
