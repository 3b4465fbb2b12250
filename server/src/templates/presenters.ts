import type { TemplateRevision, TemplateSummary } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { templateAbilities, type WaitingRevision } from './policy.js';
import type { RevisionRecord, TemplateRecord } from './record.js';

/** A template's row with what its summary shows beside it, as the queries read them. */
export interface SummaryRow {
  template: TemplateRecord;
  authorName: string;
  authorId: string;
  /** The latest approved version, as it was written at approval. */
  version: string | null;
  notes: number;
  /** Who checked in the revision waiting for approval (null when none waits). */
  checkedBy: number | null;
  /** Who wrote in the revision waiting for approval, or in one sent back since the last approval. */
  waitingWriters: number[];
}

/** The revision waiting for approval, as a summary row knows it, for the two-person rule. */
export const waitingOf = (row: Pick<SummaryRow, 'checkedBy' | 'waitingWriters'>): WaitingRevision | null =>
  row.checkedBy === null ? null : { checkedByUserNo: row.checkedBy, writerUserNos: row.waitingWriters };

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
    abilities: templateAbilities(user, template, waitingOf(row)),
  };
}

/** The version of a revision known to be approved. */
export function approvedVersionOf(revision: Pick<RevisionRecord, 'templateNo' | 'revision' | 'version'>): string {
  if (revision.version === null) throw new Error(`revision ${revision.revision} of template ${revision.templateNo} has no version`);
  return revision.version;
}

/** A checked-in revision with the names of who checked it in, who approved it and who wrote in it. */
export function presentRevision(
  revision: RevisionRecord,
  names: { checkedBy: string; approvedBy: string | null; writtenBy: string[] },
): TemplateRevision {
  return {
    revision: revision.revision,
    version: revision.version,
    blocksHash: revision.blocksHash,
    checkedBy: names.checkedBy,
    checkedAt: revision.checkedAt.toISOString(),
    writtenBy: names.writtenBy,
    approvedBy: names.approvedBy,
    approvedAt: revision.approvedAt?.toISOString() ?? null,
    supersededAt: revision.supersededAt?.toISOString() ?? null,
    returnedAt: revision.returnedAt?.toISOString() ?? null,
    returnReason: revision.returnReason,
  };
}
