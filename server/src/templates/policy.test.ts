import { describe, expect, it } from 'vitest';
import { ADMIN_LEVEL, TEMPLATE_STATE, type AuthFlags, type TemplateState } from '@eln/shared';
import {
  canApproveTemplate,
  canEditTemplate,
  canManageTemplates,
  canRenameTemplate,
  canViewRevision,
  canWriteTemplate,
  templateAbilities,
  templateDocumentAccess,
  VIEW_REFUSALS,
} from './policy.js';

const flags = (template: 'Y' | 'N'): AuthFlags => ({ project: 'Y', schema: 'N', dropbox: 'N', template });
const manager = { userNo: 2, level: 1, auth: flags('Y') };
const admin = { userNo: 3, level: ADMIN_LEVEL, auth: flags('N') };
const reader = { userNo: 4, level: 1, auth: flags('N') };
/** Another user with the template flag: not the author. */
const colleague = { userNo: 5, level: 1, auth: flags('Y') };
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

  it('lets the author and administrators write a draft, not a colleague; the live connection follows the same verdict', () => {
    const draft = template(TEMPLATE_STATE.draft);
    expect(canWriteTemplate(manager, draft)).toBe('allowed');
    expect(canWriteTemplate(admin, draft)).toBe('allowed');
    expect(canWriteTemplate(colleague, draft)).toBe('notAuthor');
    expect(canWriteTemplate(reader, draft)).toBe('noTemplateFlag');
    expect(canWriteTemplate(manager, template(TEMPLATE_STATE.checking))).toBe('notDraft');
    expect(templateDocumentAccess(manager, draft)).toBe('write');
    expect(templateDocumentAccess(admin, draft)).toBe('write');
    expect(templateDocumentAccess(colleague, draft)).toBe('read');
    expect(templateDocumentAccess(reader, draft)).toBeNull();
    expect(templateAbilities(colleague, draft, null)).toMatchObject({ write: false, checkIn: false, rename: false });
    // A colleague does not start a new draft of someone else's template either, but learns that one waits for approval.
    expect(canEditTemplate(colleague, template(TEMPLATE_STATE.approved))).toBe('notAuthor');
    expect(canEditTemplate(colleague, template(TEMPLATE_STATE.checking))).toBe('checking');
    expect(canEditTemplate(admin, template(TEMPLATE_STATE.approved))).toBe('allowed');
  });

  it('renames in any state by the author or an administrator only', () => {
    for (const state of Object.values(TEMPLATE_STATE)) {
      expect(canRenameTemplate(manager, template(state))).toBe('allowed');
      expect(canRenameTemplate(admin, template(state))).toBe('allowed');
      expect(canRenameTemplate(colleague, template(state))).toBe('notAuthor');
      expect(canRenameTemplate(reader, template(state))).toBe('noTemplateFlag');
    }
  });

  it('refuses approval to the author, whoever checked the revision in and everyone who wrote in it', () => {
    const waiting = template(TEMPLATE_STATE.checking);
    const revision = { checkedByUserNo: 3, writerUserNos: [2, 5] };
    expect(canApproveTemplate(manager, waiting, revision)).toBe('ownTemplate');
    expect(canApproveTemplate(admin, waiting, revision)).toBe('ownTemplate');
    expect(canApproveTemplate(colleague, waiting, revision)).toBe('ownTemplate');
    expect(canApproveTemplate({ userNo: 6, level: 1, auth: flags('Y') }, waiting, revision)).toBe('allowed');
    expect(canApproveTemplate(colleague, waiting, { checkedByUserNo: 2, writerUserNos: [2] })).toBe('allowed');
    expect(canApproveTemplate(colleague, waiting, null)).toBe('notChecking');
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
