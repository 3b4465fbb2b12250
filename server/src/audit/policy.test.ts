import { describe, expect, it } from 'vitest';
import { ADMIN_LEVEL } from '@eln/shared';
import { canExportAudit } from './policy.js';

describe('the audit policy', () => {
  it('lets administrators alone take the trail out', () => {
    expect(canExportAudit({ level: ADMIN_LEVEL })).toBe('allowed');
    expect(canExportAudit({ level: 1 })).toBe('notAdmin');
  });
});
