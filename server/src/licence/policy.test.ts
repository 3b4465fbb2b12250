import { describe, expect, it } from 'vitest';
import { ADMIN_LEVEL, MEMBER_LEVEL } from '@eln/shared';
import { canManageLicence, canSignInUnderLicence, signInNeedsLicence } from './policy.js';

const admin = { level: ADMIN_LEVEL };
const member = { level: MEMBER_LEVEL };

describe('the licence policy', () => {
  it('lets administrators keep the licence', () => {
    expect(canManageLicence(admin)).toBe('allowed');
    expect(canManageLicence(member)).toBe('notAdministrator');
  });

  it('lets members in only while the licence has no problem, and never locks an administrator out', () => {
    expect(signInNeedsLicence(member)).toBe(true);
    expect(signInNeedsLicence(admin)).toBe(false);
    expect(canSignInUnderLicence(member, null)).toBe('allowed');
    expect(canSignInUnderLicence(member, 'expired')).toBe('licenceProblem');
    expect(canSignInUnderLicence(member, 'seatsExceeded')).toBe('licenceProblem');
    expect(canSignInUnderLicence(admin, 'expired')).toBe('allowed');
  });
});
