import { formatTemplateVersion, type TemplateRevision, type TemplateSummary, type TemplateVersion } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { templateAbilities } from './policy.js';
import type { RevisionRecord, TemplateRecord } from './record.js';

/** A template's row with what its summary shows beside it, as the queries read them. */
export interface SummaryRow {
  template: TemplateRecord;
  authorName: string;
  authorId: string;
  /** The latest approved version, `major.minor`. */
  version: string | null;
  notes: number;
  /** Who checked in the revision waiting for approval (null when none waits). */
  checkedBy: number | null;
}

/** A template as lists show it, with what the caller may do with it. */
export function presentSummary(user: AuthUser, row: SummaryRow): TemplateSummary {
  const { template } = row;
  return {
    templateNo: template.templateNo,
    title: template.title,
    description: template.description,
    state: template.state,
    version: row.version,
    revision: template.revision,
    author: row.authorName,
    authorId: row.authorId,
    createdAt: template.createdAt.toISOString(),
    updatedAt: template.updatedAt.toISOString(),
    noteCount: row.notes,
    abilities: templateAbilities(user, template, row.checkedBy),
  };
}

export const versionOf = (revision: Pick<RevisionRecord, 'versionMajor' | 'versionMinor'>): TemplateVersion | null =>
  revision.versionMajor === null || revision.versionMinor === null ? null : { major: revision.versionMajor, minor: revision.versionMinor };

/** A checked-in revision with the names of who checked it in and who approved it. */
export function presentRevision(revision: RevisionRecord, checkedBy: string, approvedBy: string | null): TemplateRevision {
  const version = versionOf(revision);
  return {
    revision: revision.revision,
    version: version && formatTemplateVersion(version),
    blocksHash: revision.blocksHash,
    checkedBy,
    checkedAt: revision.checkedAt.toISOString(),
    approvedBy,
    approvedAt: revision.approvedAt?.toISOString() ?? null,
    supersededAt: revision.supersededAt?.toISOString() ?? null,
    returnedAt: revision.returnedAt?.toISOString() ?? null,
    returnReason: revision.returnReason,
  };
}
