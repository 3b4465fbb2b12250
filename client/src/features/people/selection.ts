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
  /** Active users in this department itself. */
  userCount: number;
}

/**
 * The company as the picker sees it: the department tree with how many people each department has. The
 * people themselves are loaded a page at a time, when a department is opened or chosen (`directory.ts`).
 */
export interface Directory {
  /** Every department, in tree order (parents before their children). */
  departments: Map<string, DirectoryDepartment>;
  roots: string[];
  /** Active users in no department the company knows. */
  unassignedCount: number;
}

export const EMPTY_DIRECTORY: Directory = { departments: new Map(), roots: [], unassignedCount: 0 };

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

/** Builds the directory from the `/department/join` tree. */
export function buildDirectory(tree: readonly DepartmentNode[], unassignedCount = 0): Directory {
  const departments = new Map<string, DirectoryDepartment>();
  const visit = (node: DepartmentNode, parentCode: string | null, depth: number) => {
    if (departments.has(node.code)) return;
    departments.set(node.code, {
      code: node.code,
      name: node.name,
      parentCode,
      depth,
      childCodes: node.children.map((child) => child.code),
      userCount: node.userCount,
    });
    for (const child of node.children) visit(child, node.code, depth + 1);
  };
  for (const root of tree) visit(root, null, 0);
  return { departments, roots: tree.map((node) => node.code), unassignedCount };
}

/** Where a person belongs in the directory: their department, or null when the company does not know it. */
export function homeOf(directory: Directory, user: Pick<PickedUser, 'departmentCode'>): string | null {
  return user.departmentCode !== null && directory.departments.has(user.departmentCode) ? user.departmentCode : null;
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

/** How many active people a department and all departments below it have. */
export function subtreeUserCount(directory: Directory, code: string): number {
  return subtreeCodes(directory, code).reduce((sum, each) => sum + (directory.departments.get(each)?.userCount ?? 0), 0);
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

export function isUserSelected(selection: Selection, userId: string): boolean {
  const key = userKey(userId);
  return selection.users.some((user) => userKey(user.userId) === key);
}

export type CheckState = 'all' | 'some' | 'none';

/**
 * A department's checkbox: checked when chosen as a whole, mixed when some of its people (or of its
 * sub-departments) are chosen, else empty. People are placed by their own department, so the answer
 * does not depend on which pages of people have been loaded.
 */
export function departmentState(selection: Selection, directory: Directory, code: string): CheckState {
  if (selection.departments.some((department) => department.code === code)) return 'all';
  const codes = new Set(subtreeCodes(directory, code));
  if (selection.departments.some((department) => codes.has(department.code))) return 'some';
  return selection.users.some((user) => user.departmentCode !== null && codes.has(user.departmentCode)) ? 'some' : 'none';
}

/** The chosen people in no department the company knows: the "no department" group's checkbox. */
export function unassignedState(selection: Selection, directory: Directory): CheckState {
  const chosen = selection.users.filter((user) => homeOf(directory, user) === null).length;
  if (chosen === 0) return 'none';
  return chosen >= directory.unassignedCount ? 'all' : 'some';
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
 * Checking a department chooses it and its sub-departments as a whole, with all their people (`people`:
 * everyone of the subtree, loaded by the caller). Unchecking removes them, and the departments above it
 * stop counting as chosen whole.
 */
export function setDepartment(
  selection: Selection,
  directory: Directory,
  code: string,
  on: boolean,
  people: readonly PickedUser[] = [],
): Selection {
  const codes = directory.departments.has(code) ? subtreeCodes(directory, code) : [code];
  if (on) {
    const known = new Set(selection.departments.map((department) => department.code));
    const added = codes
      .filter((each) => !known.has(each))
      .map((each) => ({ code: each, name: directory.departments.get(each)?.name ?? each }));
    return { users: addUsers(selection.users, people), departments: [...selection.departments, ...added] };
  }
  const dropCodes = new Set([...codes, ...ancestorCodes(directory, code)]);
  const inSubtree = new Set(codes);
  return {
    users: selection.users.filter((user) => user.departmentCode === null || !inSubtree.has(user.departmentCode)),
    departments: selection.departments.filter((department) => !dropCodes.has(department.code)),
  };
}

/** Chooses (or lets go of) several people at once: the "no department" group's checkbox. */
export function setUsers(selection: Selection, directory: Directory, people: readonly PickedUser[], on: boolean): Selection {
  if (on) return { ...selection, users: addUsers(selection.users, people) };
  return people.reduce((next, user) => setUser(next, directory, user, false), selection);
}

/**
 * Checking a person adds them. Unchecking removes them, and their department (and those above it) is no
 * longer chosen as a whole.
 */
export function setUser(selection: Selection, directory: Directory, user: PickedUser, on: boolean): Selection {
  if (on) return isUserSelected(selection, user.userId) ? selection : { ...selection, users: [...selection.users, user] };
  const key = userKey(user.userId);
  const chosen = selection.users.find((each) => userKey(each.userId) === key);
  const department = (chosen ?? user).departmentCode ?? user.departmentCode;
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
      departmentCode: participant.departmentCode,
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
