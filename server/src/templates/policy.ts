import { and, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { ERR, TEMPLATE_STATE, type TemplateAbilities } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { DocumentAccess } from '../collab/documents/documentKinds.js';
import { templateRevisions, templates, templateWriters } from '../db/schema.js';
import type { Refusals } from '../http/verdicts.js';
import { isAdministrator } from '../users/policy.js';
import type { RevisionRecord, TemplateRecord } from './record.js';

/*
 * Who may do what with a template: every rule once, as a verdict with its reason. Commands, queries and
 * the live document kind enforce the verdicts; answers carry them to the client as `abilities`.
 */

export type Caller = Pick<AuthUser, 'userNo' | 'level' | 'auth'>;
export type TemplateFacts = Pick<TemplateRecord, 'authorUserNo' | 'state' | 'approvedRevision' | 'deletedAt'>;
export type RevisionFacts = Pick<RevisionRecord, 'approvedAt'>;

export type ManageVerdict = 'allowed' | 'noTemplateFlag';
export type ReadVerdict = 'allowed' | 'missing';
export type WriteVerdict = 'allowed' | 'noTemplateFlag' | 'notAuthor' | 'notDraft';
export type EditVerdict = 'allowed' | 'noTemplateFlag' | 'checking' | 'notAuthor';
export type RenameVerdict = 'allowed' | 'noTemplateFlag' | 'notAuthor';
export type ApproveVerdict = 'allowed' | 'noTemplateFlag' | 'notChecking' | 'ownTemplate';
export type DeleteVerdict = 'allowed' | 'notAuthor';
export type UseVerdict = 'allowed' | 'notApproved';
export type ViewVerdict = 'allowed' | 'nothingToShow' | 'notApproved' | 'missing';

export const MANAGE_REFUSALS: Refusals<ManageVerdict> = { noTemplateFlag: ERR.forbidden };
/** A draft is hidden from those who cannot manage templates: it answers as missing, like a deleted one. */
export const READ_REFUSALS: Refusals<ReadVerdict> = { missing: ERR.notFound };
export const WRITE_REFUSALS: Refusals<WriteVerdict> = {
  noTemplateFlag: ERR.forbidden,
  notAuthor: ERR.templateNotAuthor,
  notDraft: ERR.templateNotDraft,
};
/** Opening a checked-in template for editing answers 7003: the client offers the approval instead. */
export const EDIT_REFUSALS: Refusals<EditVerdict> = {
  noTemplateFlag: ERR.forbidden,
  checking: ERR.templateReady,
  notAuthor: ERR.templateNotAuthor,
};
export const RENAME_REFUSALS: Refusals<RenameVerdict> = { noTemplateFlag: ERR.forbidden, notAuthor: ERR.templateNotAuthor };
export const APPROVE_REFUSALS: Refusals<ApproveVerdict> = {
  noTemplateFlag: ERR.forbidden,
  notChecking: ERR.templateNotChecking,
  ownTemplate: ERR.templateOwnApproval,
};
export const DELETE_REFUSALS: Refusals<DeleteVerdict> = { notAuthor: ERR.templateDelete };
export const USE_REFUSALS: Refusals<UseVerdict> = { notApproved: ERR.templateNotApproved };
/** A revision the caller may not view answers 7008 (not approved); one that does not exist 9002. */
export const VIEW_REFUSALS: Refusals<ViewVerdict> = {
  nothingToShow: ERR.templateNotApproved,
  notApproved: ERR.templateNotApproved,
  missing: ERR.notFound,
};

/** Users with the template flag, and administrators, create, edit, check in and approve templates. */
export function canManageTemplates(user: Caller): ManageVerdict {
  return isAdministrator(user) || user.auth.template === 'Y' ? 'allowed' : 'noTemplateFlag';
}

const approvedOnce = (template: TemplateFacts) => template.approvedRevision !== null;

/** Managers read every template that is not deleted; everyone else only those with an approved version. */
export function canReadTemplate(user: Caller, template: TemplateFacts | undefined): ReadVerdict {
  if (!template || template.deletedAt) return 'missing';
  return canManageTemplates(user) === 'allowed' || approvedOnce(template) ? 'allowed' : 'missing';
}

/** `canReadTemplate` as the condition lists and counts filter by. */
export function visibleTemplatesSql(user: Caller): SQL | undefined {
  return and(isNull(templates.deletedAt), canManageTemplates(user) === 'allowed' ? undefined : isNotNull(templates.approvedRevision));
}

/** Those who manage templates read their drafts and checked-in revisions too (`canViewRevision`); everyone else approved versions only. */
export function readsTemplateDrafts(user: Caller): boolean {
  return canManageTemplates(user) === 'allowed';
}

/**
 * Who writes a template: its author, and administrators (who can carry on a draft its author left). Not
 * every manager: anyone who wrote in a revision may not approve it, so a colleague who could write in any
 * draft could approve a template holding their own text (docs/decisions.md).
 */
const writesTemplate = (user: Caller, template: TemplateFacts) => isAdministrator(user) || user.userNo === template.authorUserNo;

/** The live draft is written (and temp-saved, and checked in) by its author or an administrator while it is a draft. */
export function canWriteTemplate(user: Caller, template: TemplateFacts): WriteVerdict {
  if (canManageTemplates(user) !== 'allowed') return 'noTemplateFlag';
  if (!writesTemplate(user, template)) return 'notAuthor';
  return template.state === TEMPLATE_STATE.draft ? 'allowed' : 'notDraft';
}

/**
 * Opening for editing (`editCheck`, `reopen`), by those who write the template: a draft stays one, an
 * approved template starts a new draft; one checked in waits for its approval (or to be sent back)
 * first, which any manager is told (7003), as the approval is what they may offer next.
 */
export function canEditTemplate(user: Caller, template: TemplateFacts): EditVerdict {
  if (canManageTemplates(user) !== 'allowed') return 'noTemplateFlag';
  if (template.state === TEMPLATE_STATE.checking) return 'checking';
  return writesTemplate(user, template) ? 'allowed' : 'notAuthor';
}

/** Its title and description are changed by those who write it, in any state (an approved one's too). */
export function canRenameTemplate(user: Caller, template: TemplateFacts): RenameVerdict {
  if (canManageTemplates(user) !== 'allowed') return 'noTemplateFlag';
  return writesTemplate(user, template) ? 'allowed' : 'notAuthor';
}

/** The revision waiting for approval, as the two-person rule reads it. */
export interface WaitingRevision {
  checkedByUserNo: number;
  /** Who wrote in it, or in a revision sent back since the last approval (whose text it carries on). */
  writerUserNos: readonly number[];
}

/**
 * The two-person rule (as GLP asks): a checked-in revision is approved, or sent back, by a manager who is
 * not the template's author, did not write in it and did not check it in.
 */
export function canApproveTemplate(user: Caller, template: TemplateFacts, waiting: WaitingRevision | null): ApproveVerdict {
  if (canManageTemplates(user) !== 'allowed') return 'noTemplateFlag';
  if (template.state !== TEMPLATE_STATE.checking || waiting === null) return 'notChecking';
  return approvalExcludedUserNos(template, waiting).includes(user.userNo) ? 'ownTemplate' : 'allowed';
}

/** Who may not approve the waiting revision: its author, its writers and whoever checked it in. */
export function approvalExcludedUserNos(template: Pick<TemplateFacts, 'authorUserNo'>, waiting: WaitingRevision): number[] {
  return [...new Set([template.authorUserNo, ...waiting.writerUserNos, waiting.checkedByUserNo])];
}

/**
 * `canApproveTemplate` as the condition a query over templates filters by (the home's "Waiting for me"):
 * checked in, not deleted, its waiting revision stored, and the caller, who manages templates, neither its
 * author, nor who checked that revision in, nor one who wrote in it or in a revision sent back since the
 * last approval (`approvalExcludedUserNos`). Nothing for a caller who does not manage templates.
 */
export function approvableTemplatesSql(user: Caller): SQL {
  if (canManageTemplates(user) !== 'allowed') return sql`false`;
  return sql`(${templates.state} = ${TEMPLATE_STATE.checking} and ${templates.deletedAt} is null and ${templates.authorUserNo} <> ${user.userNo}
    and exists (select 1 from ${templateRevisions} where ${templateRevisions.templateNo} = ${templates.templateNo}
      and ${templateRevisions.revision} = ${templates.revision} and ${templateRevisions.checkedByUserNo} <> ${user.userNo})
    and not exists (select 1 from ${templateWriters} where ${templateWriters.templateNo} = ${templates.templateNo}
      and ${templateWriters.userNo} = ${user.userNo} and ${templateWriters.revision} > coalesce(${templates.approvedRevision}, 0)
      and ${templateWriters.revision} <= ${templates.revision}))`;
}

/** Its author or an administrator deletes a template (notes made from it keep their copy). */
export function canDeleteTemplate(user: Caller, template: TemplateFacts): DeleteVerdict {
  return isAdministrator(user) || user.userNo === template.authorUserNo ? 'allowed' : 'notAuthor';
}

/** Notes are made from a template's latest approved version, by anyone who can read it. */
export function canUseTemplate(template: TemplateFacts): UseVerdict {
  return approvedOnce(template) ? 'allowed' : 'notApproved';
}

/**
 * Viewing a checked-in revision of a template the caller reads (the viewer): those who manage templates
 * view every revision, everyone else approved ones only. `revision` is the one asked for (or shown by
 * default), null when there is none to show yet (nothing checked in); `record` its row, if it exists.
 */
export function canViewRevision(user: Caller, revision: number | null, record: RevisionFacts | undefined): ViewVerdict {
  if (revision === null) return 'nothingToShow';
  if (!record) return 'missing';
  return record.approvedAt !== null || readsTemplateDrafts(user) ? 'allowed' : 'notApproved';
}

/** What a connection to the template's live document may do: nothing, read (every manager), or write (those who may write it now). */
export function templateDocumentAccess(user: Caller, template: TemplateFacts | undefined): DocumentAccess | null {
  if (!template || canReadTemplate(user, template) !== 'allowed' || canManageTemplates(user) !== 'allowed') return null;
  return canWriteTemplate(user, template) === 'allowed' ? 'write' : 'read';
}

export function templateAbilities(user: Caller, template: TemplateFacts, waiting: WaitingRevision | null): TemplateAbilities {
  return {
    write: canWriteTemplate(user, template) === 'allowed',
    edit: canEditTemplate(user, template) === 'allowed' && template.state === TEMPLATE_STATE.approved,
    checkIn: canWriteTemplate(user, template) === 'allowed',
    approve: canApproveTemplate(user, template, waiting) === 'allowed',
    rename: canRenameTemplate(user, template) === 'allowed',
    delete: canDeleteTemplate(user, template) === 'allowed',
    use: canUseTemplate(template) === 'allowed',
  };
}

/** A template's live document is written only while it is a draft that is not deleted. */
export function templateOpenForWriting(template: Pick<TemplateFacts, 'state' | 'deletedAt'>): boolean {
  return template.state === TEMPLATE_STATE.draft && template.deletedAt === null;
}
