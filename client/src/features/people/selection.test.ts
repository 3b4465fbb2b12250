import { describe, expect, it } from 'vitest';
import type { DepartmentNode, DepartmentRow } from '@eln/shared';
import { flattenDepartments, indentedLabel, pathOf, subtreeOf } from './departmentTree';
import {
  ancestorCodes,
  buildDirectory,
  departmentState,
  EMPTY_SELECTION,
  homeOf,
  matchesUser,
  selectionFromProject,
  setDepartment,
  setUser,
  setUsers,
  subtreeCodes,
  subtreeUserCount,
  unassignedState,
  toSignatureList,
  type PickedUser,
} from './selection';

const tree: DepartmentNode[] = [
  {
    code: 'RND',
    name: 'Research',
    userCount: 0,
    children: [
      { code: 'CHEM', name: 'Chemistry', userCount: 1, children: [{ code: 'ORG', name: 'Organic', userCount: 1, children: [] }] },
      { code: 'BIO', name: 'Biology', userCount: 1, children: [] },
    ],
  },
  { code: 'QA', name: 'Quality', userCount: 1, children: [] },
];
const directory = buildDirectory(tree, 2);
const person = (userId: string, name: string, departmentCode: string | null): PickedUser => ({
  userId,
  name,
  departmentCode,
  departmentName: null,
});
const kim = person('kim@lab.com', 'Kim', 'CHEM');
const lee = person('lee@lab.com', 'Lee', 'ORG');
const park = person('park@lab.com', 'Park', 'BIO');
const choi = person('choi@lab.com', 'Choi', 'QA');
const solo = person('solo@lab.com', 'Solo', null);
const lost = person('x@lab.com', 'X', 'GONE');
const ids = (selection: { users: readonly PickedUser[] }) => selection.users.map((u) => u.userId);
const codes = (selection: { departments: readonly { code: string }[] }) => selection.departments.map((d) => d.code);

describe('the participant directory', () => {
  it('knows the tree and how many people each part of it has, without loading them', () => {
    expect([...directory.departments.keys()]).toEqual(['RND', 'CHEM', 'ORG', 'BIO', 'QA']);
    expect(directory.departments.get('ORG')).toMatchObject({ parentCode: 'CHEM', depth: 2, userCount: 1 });
    expect(subtreeCodes(directory, 'RND')).toEqual(['RND', 'CHEM', 'ORG', 'BIO']);
    expect(subtreeUserCount(directory, 'RND')).toBe(3);
    expect(subtreeUserCount(directory, 'QA')).toBe(1);
    expect(directory.unassignedCount).toBe(2);
    expect(ancestorCodes(directory, 'ORG')).toEqual(['CHEM', 'RND']);
    expect(ancestorCodes(directory, null)).toEqual([]);
  });

  it('places users of an unknown department with the users of none', () => {
    expect(homeOf(directory, lost)).toBeNull();
    expect(homeOf(directory, solo)).toBeNull();
    expect(homeOf(directory, kim)).toBe('CHEM');
  });
});

describe('choosing participants', () => {
  it('a department checkbox chooses the department, its sub-departments and the people fetched for them', () => {
    const chosen = setDepartment(EMPTY_SELECTION, directory, 'CHEM', true, [kim, lee]);
    expect(codes(chosen)).toEqual(['CHEM', 'ORG']);
    expect(ids(chosen)).toEqual(['kim@lab.com', 'lee@lab.com']);
    expect(departmentState(chosen, directory, 'CHEM')).toBe('all');
    expect(departmentState(chosen, directory, 'ORG')).toBe('all');
    expect(departmentState(chosen, directory, 'RND')).toBe('some');
    expect(departmentState(chosen, directory, 'QA')).toBe('none');
    expect(toSignatureList(chosen)).toEqual({ department: 'CHEM,ORG', user: 'kim@lab.com,lee@lab.com' });
  });

  it('judges a department by its chosen people’s own departments, loaded or not', () => {
    const chosen = setUser(EMPTY_SELECTION, directory, lee, true);
    expect(departmentState(chosen, directory, 'RND')).toBe('some');
    expect(departmentState(chosen, directory, 'CHEM')).toBe('some');
    expect(departmentState(chosen, directory, 'BIO')).toBe('none');
  });

  it('does not add a person twice', () => {
    let chosen = setUser(EMPTY_SELECTION, directory, lee, true);
    chosen = setUser(chosen, directory, lee, true);
    chosen = setDepartment(chosen, directory, 'RND', true, [kim, lee, park]);
    expect(ids(chosen)).toEqual(['lee@lab.com', 'kim@lab.com', 'park@lab.com']);
    chosen = setDepartment(chosen, directory, 'RND', true, [kim, lee, park]);
    expect(codes(chosen)).toEqual(['RND', 'CHEM', 'ORG', 'BIO']);
  });

  it('unchecking a department removes its people and the departments above stop being whole', () => {
    let chosen = setDepartment(EMPTY_SELECTION, directory, 'RND', true, [kim, lee, park]);
    chosen = setUser(chosen, directory, choi, true);
    chosen = setDepartment(chosen, directory, 'CHEM', false);
    expect(codes(chosen)).toEqual(['BIO']);
    expect(ids(chosen)).toEqual(['park@lab.com', 'choi@lab.com']);
    expect(departmentState(chosen, directory, 'RND')).toBe('some');
  });

  it('removing one person keeps the others but their department is no longer chosen whole', () => {
    let chosen = setDepartment(EMPTY_SELECTION, directory, 'RND', true, [kim, lee, park]);
    chosen = setUser(chosen, directory, lee, false);
    expect(ids(chosen)).toEqual(['kim@lab.com', 'park@lab.com']);
    expect(codes(chosen)).toEqual(['BIO']);
    expect(departmentState(chosen, directory, 'CHEM')).toBe('some');
    expect(departmentState(chosen, directory, 'ORG')).toBe('none');
  });

  it('the people of no department are chosen and let go together, counted against the directory', () => {
    let chosen = setUsers(EMPTY_SELECTION, directory, [solo], true);
    expect(unassignedState(chosen, directory)).toBe('some');
    chosen = setUsers(chosen, directory, [solo, lost], true);
    expect(unassignedState(chosen, directory)).toBe('all');
    chosen = setUser(chosen, directory, kim, true);
    chosen = setUsers(chosen, directory, [solo, lost], false);
    expect(ids(chosen)).toEqual(['kim@lab.com']);
    expect(unassignedState(chosen, directory)).toBe('none');
  });

  it('people match case-insensitively, and a department code unknown to the directory can still be removed', () => {
    const chosen = {
      users: [{ userId: 'KIM@lab.com', name: 'Kim', departmentCode: 'CHEM', departmentName: 'Chemistry' }],
      departments: [
        { code: 'CHEM', name: 'Chemistry' },
        { code: 'OLD', name: 'Old' },
      ],
    };
    expect(ids(setUser(chosen, directory, kim, false))).toEqual([]);
    expect(codes(setUser(chosen, directory, kim, false))).toEqual(['OLD']);
    expect(codes(setDepartment(chosen, directory, 'OLD', false))).toEqual(['CHEM']);
  });

  it('starts from a project, its people in their departments, and filters people', () => {
    const selection = selectionFromProject({
      participants: [{ userNo: 1, userId: 'kim@lab.com', name: 'Kim', departmentCode: 'CHEM', departmentName: 'Chemistry' }],
      departments: [{ code: 'CHEM', name: 'Chemistry' }],
    });
    expect(toSignatureList(selection)).toEqual({ department: 'CHEM', user: 'kim@lab.com' });
    expect(departmentState({ ...selection, departments: [] }, directory, 'RND')).toBe('some');
    expect(matchesUser({ name: 'Kim Jiwoo', userId: 'kim@lab.com' }, ' JIW')).toBe(true);
    expect(matchesUser({ name: 'Kim Jiwoo', userId: 'kim@lab.com' }, 'park')).toBe(false);
  });
});

describe('the department tree for administrators', () => {
  const row = (code: string, name: string, parentCode: string | null, userCount = 0): DepartmentRow => ({
    code,
    name,
    parentCode,
    userCount,
    source: 'local',
    missingSince: null,
  });
  const rows = [
    row('QA', 'Quality', null, 1),
    row('ORG', 'Organic', 'CHEM', 2),
    row('RND', 'Research', null, 1),
    row('CHEM', 'Chemistry', 'RND', 3),
    row('LOST', 'Lost', 'NOPE'),
  ];

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
