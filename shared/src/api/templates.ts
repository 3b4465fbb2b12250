import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { recordNo, requiredText, text } from '../validation.js';
import { blockSchema } from './notes.js';
import { pagingRequest } from './paging.js';
import type { SavedBlock } from '../blocks/model.js';

/**
 * Templates: a reviewed, versioned library that notes start from. A template is a live document
 * (`template.<no>`) edited like a note; its author checks a draft in, someone else approves it under a
 * version number, and notes are made from the latest approved version (spec §4, contract §9).
 */

/** D draft (being written), C checked in (waiting for approval), A approved (nothing pending). */
export const TEMPLATE_STATE = { draft: 'D', checking: 'C', approved: 'A' } as const;
export type TemplateState = (typeof TEMPLATE_STATE)[keyof typeof TEMPLATE_STATE];

/**
 * A template version: `major.minor`, compared as two integers (1.10 comes after 1.9), never as a float.
 * The spec's rule: not 0 and not an integer, so the minor part is never 0 (`1.1` yes; `0`, `1`, `1.0`
 * no). Written without leading zeros, so that one version has one spelling (`1.01` is refused).
 */
export interface TemplateVersion {
  major: number;
  minor: number;
}

const VERSION_PATTERN = /^(0|[1-9]\d{0,3})\.([1-9]\d{0,3})$/;

/** The version a text names, or null when it is not one an approval may use. */
export function parseTemplateVersion(value: string): TemplateVersion | null {
  const match = VERSION_PATTERN.exec(value.trim());
  if (!match) return null;
  return { major: Number(match[1]), minor: Number(match[2]) };
}

export const formatTemplateVersion = (version: TemplateVersion) => `${version.major}.${version.minor}`;

/** Negative when a comes before b. */
export function compareTemplateVersions(a: TemplateVersion, b: TemplateVersion): number {
  return a.major !== b.major ? a.major - b.major : a.minor - b.minor;
}

/** The version offered when approving: the next minor after the last approved one (0.1 for the first). */
export function suggestedTemplateVersion(last: TemplateVersion | null): string {
  return last ? formatTemplateVersion({ major: last.major, minor: last.minor + 1 }) : '0.1';
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
export interface TemplateAbilities {
  /** Write the live draft (and temp-save it). */
  write: boolean;
  /** Start a new draft from an approved template (`/search`). */
  edit: boolean;
  /** Check the draft in for approval (`/save`). */
  checkIn: boolean;
  /** Approve the checked-in draft or send it back. */
  approve: boolean;
  rename: boolean;
  delete: boolean;
  /** Make notes from it (it has an approved version). */
  use: boolean;
}

/** One checked-in revision of a template: approved (with its version), waiting, or sent back. */
export interface TemplateRevision {
  revision: number;
  /** The approved version, e.g. `1.2`; null while waiting or when sent back. */
  version: string | null;
  blocksHash: string;
  checkedBy: string;
  checkedAt: string;
  /** Who approved it, as they printed their name when approving. */
  approvedBy: string | null;
  approvedAt: string | null;
  supersededAt: string | null;
  returnedAt: string | null;
  returnReason: string | null;
}

export interface TemplateSummary {
  templateNo: number;
  title: string;
  description: string;
  state: TemplateState;
  /** The latest approved version, or null before the first approval. */
  version: string | null;
  /** The revision a check-in must name (`/save`'s version). */
  revision: number;
  author: string;
  authorId: string;
  createdAt: string;
  updatedAt: string;
  /** Notes made from it (all versions). */
  noteCount: number;
  abilities: TemplateAbilities;
}

export interface TemplateListAnswer {
  list: TemplateSummary[];
  totalCount: number;
  abilities: { create: boolean };
}

/** An approved template as the note-create picker offers it. */
export interface TemplateChoice {
  templateNo: number;
  title: string;
  description: string;
  version: string;
  blocksHash: string;
}

export interface TemplateDetail extends TemplateSummary {
  revisions: TemplateRevision[];
  /** Who checked in the waiting revision and who created the template: neither may approve it. */
  approvalExcluded: string[];
  /** The version an approval would suggest. */
  suggestedVersion: string;
  /** When someone temp-saved the draft last, if they did since the last check-in. */
  tempSavedAt: string | null;
}

export interface TemplateEditorAnswer {
  template: TemplateDetail;
  /** The live draft's blocks. */
  blockList: SavedBlock[];
}

export interface TemplateViewerAnswer {
  template: TemplateDetail;
  revision: TemplateRevision;
  blockList: SavedBlock[];
  /** Who wrote each block (by blockUid), as the live history knows it; a block no known editor wrote is absent or empty. */
  authors: Record<string, string[]>;
}
