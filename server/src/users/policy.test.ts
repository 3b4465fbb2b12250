import { describe, expect, it } from 'vitest';
import { ADMIN_LEVEL, MEMBER_LEVEL } from '@eln/shared';
import { canManageUsers, canUpdateUser, isAdministrator } from './policy.js';

const admin = { userNo: 1, level: ADMIN_LEVEL };
const otherAdmin = { userNo: 2, level: ADMIN_LEVEL };
const member = { userNo: 3, level: MEMBER_LEVEL };

describe('the user policy', () => {
  it('knows level 10 as administrator and every other level as a member', () => {
    expect(isAdministrator(admin)).toBe(true);
    expect(isAdministrator({ level: 9 })).toBe(false);
    expect(isAdministrator(member)).toBe(false);
  });

  it('lets administrators manage accounts, members not', () => {
    expect(canManageUsers(admin)).toBe('allowed');
    expect(canManageUsers(member)).toBe('notAdministrator');
    expect(canUpdateUser(member, otherAdmin, {})).toBe('notAdministrator');
  });

  it('lets an administrator change anyone, and themself in any way but a lower level or deactivation', () => {
    expect(canUpdateUser(admin, otherAdmin, { level: MEMBER_LEVEL, active: false })).toBe('allowed');
    expect(canUpdateUser(admin, member, { level: ADMIN_LEVEL })).toBe('allowed');
    expect(canUpdateUser(admin, admin, {})).toBe('allowed');
    expect(canUpdateUser(admin, admin, { level: ADMIN_LEVEL, active: true })).toBe('allowed');
    expect(canUpdateUser(admin, admin, { level: 9 })).toBe('selfDemotion');
    expect(canUpdateUser(admin, admin, { active: false })).toBe('selfDemotion');
  });
});
