import { z } from 'zod';
import { ERR } from '../errors.js';
import { LIMITS } from '../limits.js';
import { recordNo, requiredText, text } from '../validation.js';
import { defineCall, noAnswer } from './call.js';
import { emptyRequest } from './identity.js';
import { blockSchema, NOTE_BODY_LIMIT, savedBlockAnswer, tempSaveAnswer } from './notes.js';
import { listAnswer, pagingRequest } from './paging.js';

/**
 * Templates: a reviewed, versioned library that notes start from. A template is a live document
 * (`template.<no>`) edited like a note; its author checks a draft in, someone else approves it under a
 * version number, and notes are made from the latest approved version (spec §4, contract §9).
 */

/** D draft (being written), C checked in (waiting for approval), A approved (nothing pending). */
export const TEMPLATE_STATE = { draft: 'D', checking: 'C', approved: 'A' } as const;
export type TemplateState = (typeof TEMPLATE_STATE)[keyof typeof TEMPLATE_STATE];

/**
 * A template version, as the spec has it: a decimal number that is not 0 and not an integer (`1.1`,
 * `0.5`, `1.05` yes; `0`, `1`, `1.0` no), kept exactly as typed (`1.10` stays `1.10`) and compared as a
 * decimal, so `1.10` equals `1.1` and comes before `1.9`. The whole part is written without leading
 * zeros; at most four digits on either side.
 */
const VERSION_PATTERN = /^(0|[1-9]\d{0,3})\.(\d{1,4})$/;

/** The version a text names, trimmed and otherwise as typed, or null when an approval may not use it. */
export function parseTemplateVersion(value: string): string | null {
  const text = value.trim();
  const match = VERSION_PATTERN.exec(text);
  return match && /[1-9]/.test(match[2] as string) ? text : null;
}

/** A version's whole and fractional digits, the fraction padded with zeros to `scale` places. */
function decimalDigits(version: string, scale: number): bigint {
  const [whole = '', fraction = ''] = version.trim().split('.');
  return BigInt(whole + fraction.padEnd(scale, '0'));
}

const scaleOf = (version: string) => version.trim().split('.')[1]?.length ?? 0;

/** Negative when version a is a smaller decimal than b, 0 when they are equal (`1.10` and `1.1`), positive when greater. */
export function compareTemplateVersions(a: string, b: string): number {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  const difference = decimalDigits(a, scale) - decimalDigits(b, scale);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

/**
 * The version offered when approving: the last approved one plus one in its last decimal place, skipping
 * a whole number (1.1 → 1.2, 1.9 → 2.1, 1.09 → 1.10); 0.1 for the first.
 */
export function suggestedTemplateVersion(last: string | null): string {
  if (last === null) return '0.1';
  const scale = Math.max(scaleOf(last), 1);
  const unit = 10n ** BigInt(scale);
  let next = decimalDigits(last, scale) + 1n;
  if (next % unit === 0n) next += 1n;
  return `${next / unit}.${String(next % unit).padStart(scale, '0')}`;
}

const templateTitle = requiredText(LIMITS.templateTitle);
const templateDescription = text().trim().max(LIMITS.projectDescription);

export const templateListRequest = pagingRequest.safeExtend({
  type: z.enum(['title']).optional(),
  /** Only templates in this state. */
  state: z.enum([TEMPLATE_STATE.draft, TEMPLATE_STATE.checking, TEMPLATE_STATE.approved]).optional(),
});
export const templateNoRequest = z.strictObject({ templateNo: recordNo });
export const templateCreateRequest = z.strictObject({ title: templateTitle, description: templateDescription.default('') });
export const templateRenameRequest = z.strictObject({
  templateNo: recordNo,
  title: templateTitle,
  description: templateDescription.optional(),
});
/** An approved version's blocks; without `revision`, the latest approved one. */
export const templateViewerRequest = z.strictObject({ templateNo: recordNo, revision: recordNo.optional() });
export const templateTempRequest = z.strictObject({ templateNo: recordNo, blockList: z.array(blockSchema).max(5000) });
/** Checks the draft in: `version` is the template's revision the client saw (two racing check-ins make one winner). */
export const templateSaveRequest = z.strictObject({
  templateNo: recordNo,
  version: z.number().int().min(0).max(LIMITS.maxRecordNo),
  blockList: z.array(blockSchema).max(5000),
});
export const templateApproveRequest = z.strictObject({
  templateNo: recordNo,
  /** The version to approve under, e.g. `1.2` (parseTemplateVersion decides). */
  version: text().trim().max(20),
  /** The approver's password, asked again as for a signature. */
  password: text().min(1).max(200),
  /** The revision the approver reviewed: a different one checked in meanwhile answers 9006. */
  revision: recordNo,
});
/** The approver sends a checked-in draft back to its author, saying why. */
export const templateReturnRequest = z.strictObject({ templateNo: recordNo, revision: recordNo, reason: requiredText(200) });

export type TemplateListRequest = z.input<typeof templateListRequest>;
export type TemplateListFilter = z.output<typeof templateListRequest>;
export type TemplateCreateRequest = z.input<typeof templateCreateRequest>;
export type TemplateApproveRequest = z.input<typeof templateApproveRequest>;

/** What the caller may do with a template now, as the server's template policy decides (`server/src/templates/policy.ts`). */
export const templateAbilities = z.strictObject({
  /** Write the live draft (and temp-save it): its author or an administrator, while it is a draft. */
  write: z.boolean(),
  /** Start a new draft from an approved template (`reopen`). */
  edit: z.boolean(),
  /** Check the draft in for approval (`checkIn`). */
  checkIn: z.boolean(),
  /** Approve the checked-in draft or send it back. */
  approve: z.boolean(),
  /** Change its title and description: its author or an administrator. */
  rename: z.boolean(),
  delete: z.boolean(),
  /** Make notes from it (it has an approved version). */
  use: z.boolean(),
});
export type TemplateAbilities = z.infer<typeof templateAbilities>;

/** One checked-in revision of a template: approved (with its version), waiting, or sent back. */
export const templateRevision = z.strictObject({
  revision: z.number(),
  /** The approved version, e.g. `1.2`; null while waiting or when sent back. */
  version: z.string().nullable(),
  blocksHash: z.string(),
  checkedBy: z.string(),
  checkedAt: z.string(),
  /** Who wrote in the live draft this revision was checked in from, by name (recorded since writers were). */
  writtenBy: z.array(z.string()),
  /** Who approved it, as they printed their name when approving. */
  approvedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  supersededAt: z.string().nullable(),
  returnedAt: z.string().nullable(),
  returnReason: z.string().nullable(),
});
export type TemplateRevision = z.infer<typeof templateRevision>;

export const templateSummary = z.strictObject({
  templateNo: z.number(),
  title: z.string(),
  description: z.string(),
  state: z.enum(TEMPLATE_STATE),
  /** The latest approved version, or null before the first approval. */
  version: z.string().nullable(),
  /** The revision a check-in must name (`checkIn`'s version). */
  revision: z.number(),
  author: z.string(),
  authorId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Notes made from it (all versions). */
  noteCount: z.number(),
  abilities: templateAbilities,
});
export type TemplateSummary = z.infer<typeof templateSummary>;

export const templateListAnswer = listAnswer(templateSummary).safeExtend({ abilities: z.strictObject({ create: z.boolean() }) });
export type TemplateListAnswer = z.infer<typeof templateListAnswer>;

/** An approved template as the note-create picker offers it. */
export const templateChoice = z.strictObject({
  templateNo: z.number(),
  title: z.string(),
  description: z.string(),
  version: z.string(),
  blocksHash: z.string(),
});
export type TemplateChoice = z.infer<typeof templateChoice>;

export const templateDetail = templateSummary.safeExtend({
  revisions: z.array(templateRevision),
  /**
   * Who may not approve the waiting revision: the template's author, whoever checked it in, and whoever
   * wrote in it or in a revision sent back since the last approval (only the author while none waits).
   */
  approvalExcluded: z.array(z.strictObject({ userId: z.string(), name: z.string() })),
  /** The version an approval would suggest. */
  suggestedVersion: z.string(),
  /** When someone temp-saved the draft last, if they did since the last check-in. */
  tempSavedAt: z.string().nullable(),
});
export type TemplateDetail = z.infer<typeof templateDetail>;

/** A block as a checked-in revision (or the live draft read as one) holds it: no status. */
const savedBlock = savedBlockAnswer;

export const templateEditorAnswer = z.strictObject({
  template: templateDetail,
  /** The live draft's blocks. */
  blockList: z.array(savedBlock),
});
export type TemplateEditorAnswer = z.infer<typeof templateEditorAnswer>;

export const templateViewerAnswer = z.strictObject({
  template: templateDetail,
  revision: templateRevision,
  blockList: z.array(savedBlock),
  /** Who wrote each block (by blockUid), as the live history knows it; a block no known editor wrote is absent or empty. */
  authors: z.record(z.string(), z.array(z.string())),
});
export type TemplateViewerAnswer = z.infer<typeof templateViewerAnswer>;

/** A temp save's answer, as notes answer theirs: each block's status against the last approved version. */
const templateTempAnswer = tempSaveAnswer;

/** The content refusals of a temp save or check-in: text that cannot be stored, a document the rules refuse. */
const CONTENT_REFUSALS = [ERR.unsupportedCharacters, ERR.noteContent] as const;

/** The template calls (server/src/templates). */
export const templateCalls = {
  list: defineCall({
    path: '/v1/template/list',
    auth: 'user',
    kind: 'query',
    summary: 'Templates the caller may see (drafts only for those who manage templates), newest first, by title, state and dates.',
    request: templateListRequest,
    answer: templateListAnswer,
    errors: [ERR.templateLookup],
    failure: ERR.templateLookup,
  }),
  choices: defineCall({
    path: '/v1/template/list/all',
    auth: 'user',
    kind: 'query',
    summary: 'Every approved template by title, with its latest version: what a new note may start from.',
    request: emptyRequest,
    answer: z.strictObject({ list: z.array(templateChoice) }),
    errors: [ERR.templateLookup],
    failure: ERR.templateLookup,
  }),
  create: defineCall({
    path: '/v1/template/create',
    auth: 'user',
    kind: 'command',
    summary: 'Creates a template (a draft authored by the caller, who needs the template flag).',
    request: templateCreateRequest,
    answer: z.strictObject({ templateNo: z.number() }),
    errors: [ERR.forbidden, ERR.templateDuplicate],
  }),
  rename: defineCall({
    path: '/v1/template/update/title',
    auth: 'user',
    kind: 'command',
    summary: "Changes a template's title and description (its author or an administrator, with the template flag).",
    request: templateRenameRequest,
    answer: noAnswer,
    errors: [ERR.forbidden, ERR.notFound, ERR.templateNotAuthor, ERR.templateDuplicate],
  }),
  editCheck: defineCall({
    path: '/v1/template/search',
    auth: 'user',
    kind: 'query',
    summary: 'The template, if the caller may open it for editing now: 7003 while a checked-in revision waits for approval.',
    request: templateNoRequest,
    answer: templateDetail,
    errors: [ERR.notFound, ERR.forbidden, ERR.templateReady, ERR.templateNotAuthor],
  }),
  reopen: defineCall({
    path: '/v1/template/reopen',
    auth: 'user',
    kind: 'command',
    summary:
      'Starts a new draft from an approved template (its author or an administrator; its approved versions stay); a draft stays one.',
    request: templateNoRequest,
    answer: templateDetail,
    errors: [ERR.notFound, ERR.forbidden, ERR.templateReady, ERR.templateNotAuthor],
  }),
  editor: defineCall({
    path: '/v1/template/editor',
    auth: 'user',
    kind: 'query',
    summary: 'A template and its live draft, as its editor opens them (template flag).',
    request: templateNoRequest,
    answer: templateEditorAnswer,
    errors: [ERR.forbidden, ERR.notFound, ERR.templateLookup],
    failure: ERR.templateLookup,
  }),
  viewer: defineCall({
    path: '/v1/template/viewer',
    auth: 'user',
    kind: 'query',
    summary: 'One checked-in revision, read-only (the latest approved one by default); approved ones only without the template flag.',
    request: templateViewerRequest,
    answer: templateViewerAnswer,
    errors: [ERR.notFound, ERR.templateNotApproved],
  }),
  tempSave: defineCall({
    path: '/v1/template/temp',
    auth: 'user',
    kind: 'command',
    summary: "Temp-saves the live draft (the server's copy; the client's list is only compared), with each block's status.",
    request: templateTempRequest,
    answer: templateTempAnswer,
    errors: [ERR.notFound, ERR.forbidden, ERR.templateNotAuthor, ERR.templateNotDraft, ...CONTENT_REFUSALS],
    bodyLimit: NOTE_BODY_LIMIT,
  }),
  checkIn: defineCall({
    path: '/v1/template/save',
    auth: 'user',
    kind: 'command',
    summary:
      'Checks the live draft in (its author or an administrator) as a new revision waiting for approval; the draft turns read-only for everyone.',
    request: templateSaveRequest,
    answer: z.strictObject({ revision: z.number(), blocksHash: z.string() }),
    errors: [ERR.notFound, ERR.forbidden, ERR.templateNotAuthor, ERR.templateNotDraft, ERR.conflict, ...CONTENT_REFUSALS],
    failure: ERR.saveFailed,
    bodyLimit: NOTE_BODY_LIMIT,
  }),
  approve: defineCall({
    path: '/v1/template/approve',
    sessionOnly: true,
    auth: 'user',
    kind: 'command',
    summary: 'Approves the waiting revision under a greater version, with the password of an approver who neither wrote nor checked it in.',
    request: templateApproveRequest,
    answer: z.strictObject({ version: z.string(), blocksHash: z.string() }),
    errors: [
      ERR.notFound,
      ERR.forbidden,
      ERR.templateNotChecking,
      ERR.templateOwnApproval,
      ERR.conflict,
      ERR.templateVersionInvalid,
      ERR.templateVersionNotNumber,
      ERR.templateVersionForm,
      ERR.templateVersionNotGreater,
      ERR.badCredentials,
      ERR.tooManyAttempts,
    ],
  }),
  sendBack: defineCall({
    path: '/v1/template/return',
    auth: 'user',
    kind: 'command',
    summary: 'Sends the waiting revision back to its authors with a reason; the template is a draft again.',
    request: templateReturnRequest,
    answer: noAnswer,
    errors: [ERR.notFound, ERR.forbidden, ERR.templateNotChecking, ERR.templateOwnApproval, ERR.conflict],
  }),
  leave: defineCall({
    path: '/v1/template/clear',
    auth: 'user',
    kind: 'command',
    summary: "Leaving the draft without checking in: the caller's editor is released and their temporary save discarded.",
    request: templateNoRequest,
    answer: noAnswer,
    errors: [ERR.notFound],
  }),
  delete: defineCall({
    path: '/v1/template/delete',
    auth: 'user',
    kind: 'command',
    summary: 'Retires a template (its author or an administrator); its approved versions and the notes made from them stay.',
    request: templateNoRequest,
    answer: noAnswer,
    errors: [ERR.forbidden, ERR.notFound, ERR.templateDelete],
  }),
} as const;
