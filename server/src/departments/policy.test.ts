import { describe, expect, it } from 'vitest';
import { ADMIN_LEVEL } from '@eln/shared';
import { canPlaceDepartment, directoryMayDeactivate } from './policy.js';

describe('the department tree', () => {
  it('takes a department at the top or under any department outside its own subtree', () => {
    expect(canPlaceDepartment('RND-CHEM', null, [])).toBe('allowed');
    expect(canPlaceDepartment('RND-CHEM', 'QA', [])).toBe('allowed');
    expect(canPlaceDepartment('RND-CHEM', 'RND-BIO', ['RND'])).toBe('allowed');
  });

  it('refuses a department under itself or under one of its own', () => {
    expect(canPlaceDepartment('RND', 'RND', [])).toBe('cycle');
    expect(canPlaceDepartment('RND', 'RND-CHEM-ORG', ['RND-CHEM', 'RND'])).toBe('cycle');
  });
});

describe('the directory', () => {
  it('deactivates members who left it, never an administrator', () => {
    expect(directoryMayDeactivate({ level: 1 })).toBe(true);
    expect(directoryMayDeactivate({ level: ADMIN_LEVEL })).toBe(false);
  });
});
