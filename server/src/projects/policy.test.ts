import { describe, expect, it } from 'vitest';
import { ADMIN_LEVEL, PROJECT_STATUS, type ProjectStatus } from '@eln/shared';
import {
  canClearAllHolds,
  canCreateNote,
  canCreateProject,
  canFinishProject,
  canModifyProject,
  canReadProject,
  projectAbilities,
} from './policy.js';

const LEADER = 4;
const project = (status: ProjectStatus = PROJECT_STATUS.inProgress) => ({ leaderUserNo: LEADER, status });
const leader = { userNo: LEADER, level: 1 };
const admin = { userNo: 5, level: ADMIN_LEVEL };
const member = { userNo: 2, level: 1 };
const outsider = { userNo: 6, level: 1 };

describe('the project policy', () => {
  it('shows a project to an administrator, its leader and its participants only', () => {
    expect(canReadProject(admin, project(), false)).toBe('allowed');
    expect(canReadProject(leader, project(), false)).toBe('allowed');
    expect(canReadProject(member, project(), true)).toBe('allowed');
    expect(canReadProject(outsider, project(), false)).toBe('hidden');
  });

  it('lets the leader or an administrator modify a project in progress; a completed one nobody', () => {
    expect(canModifyProject(leader, project())).toBe('allowed');
    expect(canModifyProject(admin, project())).toBe('allowed');
    expect(canModifyProject(member, project())).toBe('notLeader');
    expect(canModifyProject(leader, project(PROJECT_STATUS.completed))).toBe('completed');
  });

  it('lets only the leader close a project, once', () => {
    expect(canFinishProject(leader, project())).toBe('allowed');
    expect(canFinishProject(admin, project())).toBe('notLeader');
    expect(canFinishProject(member, project())).toBe('notLeader');
    expect(canFinishProject(leader, project(PROJECT_STATUS.completed))).toBe('completed');
  });

  it('lets participants create notes while the project is in progress', () => {
    expect(canCreateNote(project(), true)).toBe('allowed');
    expect(canCreateNote(project(), false)).toBe('notParticipant');
    expect(canCreateNote(project(PROJECT_STATUS.completed), true)).toBe('completed');
  });

  it('lets the leader or an administrator release everyone’s holds; users with the flag create projects', () => {
    expect(canClearAllHolds(leader, project())).toBe('allowed');
    expect(canClearAllHolds(admin, project())).toBe('allowed');
    expect(canClearAllHolds(member, project())).toBe('notLeader');
    const flags = { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } as const;
    expect(canCreateProject({ auth: flags })).toBe('allowed');
    expect(canCreateProject({ auth: { ...flags, project: 'N' } })).toBe('noProjectFlag');
  });

  it('answers the same verdicts as abilities', () => {
    expect(projectAbilities(leader, project(), false)).toEqual({
      modify: true,
      finish: true,
      createNote: false,
      clearHolds: true,
      export: true,
      webhooks: true,
    });
    expect(projectAbilities(admin, project(), false)).toEqual({
      modify: true,
      finish: false,
      createNote: false,
      clearHolds: true,
      export: true,
      webhooks: true,
    });
    expect(projectAbilities(member, project(), true)).toEqual({
      modify: false,
      finish: false,
      createNote: true,
      clearHolds: false,
      export: true,
      webhooks: false,
    });
    expect(projectAbilities(member, project(), false)).toEqual({
      modify: false,
      finish: false,
      createNote: false,
      clearHolds: false,
      export: false,
      webhooks: false,
    });
    expect(projectAbilities(leader, project(PROJECT_STATUS.completed), true)).toEqual({
      modify: false,
      finish: false,
      createNote: false,
      clearHolds: true,
      export: true,
      webhooks: true,
    });
  });
});
