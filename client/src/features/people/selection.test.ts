import { describe, expect, it } from 'vitest';
import type { DepartmentNode, DepartmentRow, DepartmentSearchGroup } from '@eln/shared';
import { flattenDepartments, indentedLabel, pathOf, subtreeOf } from './departmentTree';
import {
  ancestorCodes,
  buildDirectory,
  departmentState,
  EMPTY_SELECTION,
  matchesUser,
  selectionFromProject,
  setDepartment,
  setUser,
  subtreeCodes,
  toSignatureList,
  type PickedUser,
} from './selection';

const flags = { project: 'N', schema: 'N', dropbox: 'N', template: 'N' } as const;
const tree: DepartmentNode[] = [
  {
    code: 'RND',
    name: 'Research',
    children: [
      { code: 'CHEM', name: 'Chemistry', children: [{ code: 'ORG', name: 'Organic', children: [] }] },
      { code: 'BIO', name: 'Biology', children: [] },
    ],
  },
  { code: 'QA', name: 'Quality', children: [] },
];
const person = (userId: string, name: string, departmentCode: string | null) => ({ ...flags, userNo: userId.length, userId, name, departmentCode });
const groups: DepartmentSearchGroup[] = [
  { code: 'CHEM', name: 'Chemistry', children: [person('kim@lab.com', 'Kim', 'CHEM')] },
  { code: 'ORG', name: 'Organic', children: [person('lee@lab.com', 'Lee', 'ORG')] },
  { code: 'BIO', name: 'Biology', children: [person('park@lab.com', 'Park', 'BIO')] },
  { code: 'QA', name: 'Quality', children: [person('choi@lab.com', 'Choi', 'QA')] },
  { code: null, name: null, children: [person('solo@lab.com', 'Solo', null)] },
];
const directory = buildDirectory(tree, groups);
const user = (userId: string): PickedUser => directory.usersById.get(userId)!;
const ids = (selection: { users: readonly PickedUser[] }) => selection.users.map((u) => u.userId);
const codes = (selection: { departments: readonly { code: string }[] }) => selection.departments.map((d) => d.code);

describe('the participant directory', () => {
  it('knows the tree and the people of each department', () => {
    expect([...directory.departments.keys()]).toEqual(['RND', 'CHEM', 'ORG', 'BIO', 'QA']);
    expect(directory.departments.get('ORG')).toMatchObject({ parentCode: 'CHEM', depth: 2 });
    expect(directory.usersByDepartment.get(null)?.map((u) => u.name)).toEqual(['Solo']);
    expect(subtreeCodes(directory, 'RND')).toEqual(['RND', 'CHEM', 'ORG', 'BIO']);
    expect(ancestorCodes(directory, 'ORG')).toEqual(['CHEM', 'RND']);
    expect(ancestorCodes(directory, null)).toEqual([]);
  });

  it('puts users of an unknown department with the users of none', () => {
    const other = buildDirectory(tree, [{ code: 'GONE', name: 'Gone', children: [person('x@lab.com', 'X', 'GONE')] }]);
    expect(other.usersByDepartment.get(null)?.map((u) => u.userId)).toEqual(['x@lab.com']);
  });
});

describe('choosing participants', () => {
  it('a department checkbox chooses the department, its sub-departments and all their people', () => {
    const chosen = setDepartment(EMPTY_SELECTION, directory, 'CHEM', true);
    expect(codes(chosen)).toEqual(['CHEM', 'ORG']);
    expect(ids(chosen)).toEqual(['kim@lab.com', 'lee@lab.com']);
    expect(departmentState(chosen, directory, 'CHEM')).toBe('all');
    expect(departmentState(chosen, directory, 'ORG')).toBe('all');
    expect(departmentState(chosen, directory, 'RND')).toBe('some');
    expect(departmentState(chosen, directory, 'QA')).toBe('none');
    expect(toSignatureList(chosen)).toEqual({ department: 'CHEM,ORG', user: 'kim@lab.com,lee@lab.com' });
  });

  it('does not add a person twice', () => {
    let chosen = setUser(EMPTY_SELECTION, directory, user('lee@lab.com'), true);
    chosen = setUser(chosen, directory, user('lee@lab.com'), true);
    chosen = setDepartment(chosen, directory, 'RND', true);
    expect(ids(chosen)).toEqual(['lee@lab.com', 'kim@lab.com', 'park@lab.com']);
    chosen = setDepartment(chosen, directory, 'RND', true);
    expect(codes(chosen)).toEqual(['RND', 'CHEM', 'ORG', 'BIO']);
  });

  it('unchecking a department removes its people and the departments above stop being whole', () => {
    let chosen = setDepartment(EMPTY_SELECTION, directory, 'RND', true);
    chosen = setUser(chosen, directory, user('choi@lab.com'), true);
    chosen = setDepartment(chosen, directory, 'CHEM', false);
    expect(codes(chosen)).toEqual(['BIO']);
    expect(ids(chosen)).toEqual(['park@lab.com', 'choi@lab.com']);
    expect(departmentState(chosen, directory, 'RND')).toBe('some');
  });

  it('removing one person keeps the others but their department is no longer chosen whole', () => {
    let chosen = setDepartment(EMPTY_SELECTION, directory, 'RND', true);
    chosen = setUser(chosen, directory, user('lee@lab.com'), false);
    expect(ids(chosen)).toEqual(['kim@lab.com', 'park@lab.com']);
    expect(codes(chosen)).toEqual(['BIO']);
    expect(departmentState(chosen, directory, 'CHEM')).toBe('some');
    expect(departmentState(chosen, directory, 'ORG')).toBe('none');
  });

  it('people match case-insensitively, and a department code unknown to the directory can still be removed', () => {
    const chosen = { users: [{ userId: 'KIM@lab.com', name: 'Kim', departmentCode: null, departmentName: 'Chemistry' }], departments: [{ code: 'OLD', name: 'Old' }] };
    expect(ids(setUser(chosen, directory, user('kim@lab.com'), false))).toEqual([]);
    expect(codes(setUser(chosen, directory, user('kim@lab.com'), false))).toEqual(['OLD']);
    expect(codes(setDepartment(chosen, directory, 'OLD', false))).toEqual([]);
  });

  it('starts from a project and filters people', () => {
    const selection = selectionFromProject({
      participants: [{ userNo: 1, userId: 'kim@lab.com', name: 'Kim', departmentName: 'Chemistry' }],
      departments: [{ code: 'CHEM', name: 'Chemistry' }],
    });
    expect(toSignatureList(selection)).toEqual({ department: 'CHEM', user: 'kim@lab.com' });
    expect(matchesUser({ name: 'Kim Jiwoo', userId: 'kim@lab.com' }, ' JIW')).toBe(true);
    expect(matchesUser({ name: 'Kim Jiwoo', userId: 'kim@lab.com' }, 'park')).toBe(false);
  });
});

describe('the department tree for administrators', () => {
  const row = (code: string, name: string, parentCode: string | null, userCount = 0): DepartmentRow => ({ code, name, parentCode, userCount, source: 'local' });
  const rows = [row('QA', 'Quality', null, 1), row('ORG', 'Organic', 'CHEM', 2), row('RND', 'Research', null, 1), row('CHEM', 'Chemistry', 'RND', 3), row('LOST', 'Lost', 'NOPE')];

  it('orders rows as a tree with depths and totals', () => {
    const flat = flattenDepartments(rows);
    expect(flat.map((r) => [r.code, r.depth])).toEqual([
      ['QA', 0],
      ['RND', 0],
      ['CHEM', 1],
      ['ORG', 2],
      ['LOST', 0],
    ]);
    expect(flat.find((r) => r.code === 'RND')).toMatchObject({ childCount: 1, totalUsers: 6 });
  });

  it('survives a cycle in the data', () => {
    const flat = flattenDepartments([row('A', 'A', 'B'), row('B', 'B', 'A')]);
    expect(flat.map((r) => r.code).sort()).toEqual(['A', 'B']);
  });

  it('knows where a department cannot move, and its path', () => {
    expect([...subtreeOf(rows, 'RND')].sort()).toEqual(['CHEM', 'ORG', 'RND']);
    expect(pathOf(rows, 'ORG')).toEqual(['Research', 'Chemistry', 'Organic']);
    expect(pathOf(rows, null)).toEqual([]);
    expect(indentedLabel('Organic', 0)).toBe('Organic');
    expect(indentedLabel('Organic', 2)).toContain('└');
  });
});
