import { describe, expect, it } from 'vitest';
import { ADMIN_LEVEL, TEMPLATE_STATE, type AuthFlags, type TemplateState } from '@eln/shared';
import { canEditTemplate, canManageTemplates, canViewRevision, VIEW_REFUSALS } from './policy.js';

const flags = (template: 'Y' | 'N'): AuthFlags => ({ project: 'Y', schema: 'N', dropbox: 'N', template });
const manager = { userNo: 2, level: 1, auth: flags('Y') };
const admin = { userNo: 3, level: ADMIN_LEVEL, auth: flags('N') };
const reader = { userNo: 4, level: 1, auth: flags('N') };
const template = (state: TemplateState) => ({ authorUserNo: 2, state, approvedRevision: null, deletedAt: null });
const approved = { approvedAt: new Date() };
const waiting = { approvedAt: null };

describe('the template policy', () => {
  it('lets users with the template flag, and administrators, manage templates', () => {
    expect(canManageTemplates(manager)).toBe('allowed');
    expect(canManageTemplates(admin)).toBe('allowed');
    expect(canManageTemplates(reader)).toBe('noTemplateFlag');
  });

  it('opens drafts and approved templates for editing, not one waiting for its approval', () => {
    expect(canEditTemplate(manager, template(TEMPLATE_STATE.draft))).toBe('allowed');
    expect(canEditTemplate(manager, template(TEMPLATE_STATE.approved))).toBe('allowed');
    expect(canEditTemplate(manager, template(TEMPLATE_STATE.checking))).toBe('checking');
    expect(canEditTemplate(reader, template(TEMPLATE_STATE.approved))).toBe('noTemplateFlag');
  });

  it('shows every checked-in revision to managers, approved ones only to everyone else', () => {
    expect(canViewRevision(manager, 2, waiting)).toBe('allowed');
    expect(canViewRevision(admin, 2, waiting)).toBe('allowed');
    expect(canViewRevision(reader, 2, waiting)).toBe('notApproved');
    expect(canViewRevision(reader, 1, approved)).toBe('allowed');
  });

  it('answers 7008 when there is nothing to show yet or the revision is not approved, 9002 when it does not exist', () => {
    expect(canViewRevision(manager, null, undefined)).toBe('nothingToShow');
    expect(canViewRevision(manager, 9, undefined)).toBe('missing');
    expect(VIEW_REFUSALS).toEqual({ nothingToShow: '7008', notApproved: '7008', missing: '9002' });
  });
});
