import { and, asc, count, desc, eq, gt, ilike, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
import {
  ERR,
  suggestedTemplateVersion,
  templateDocumentName,
  TEMPLATE_STATE,
  type CallRequest,
  type SavedBlock,
  type TemplateChoice,
  type TemplateDetail,
  type TemplateEditorAnswer,
  type TemplateListAnswer,
  type TemplateListFilter,
  type TemplateRevision,
  type TemplateViewerAnswer,
  type api,
} from '@eln/shared';
import { alias } from 'drizzle-orm/pg-core';
import type { AuthUser } from '../auth/authUser.js';
import { blockAuthors } from '../collab/authors/clientAuthors.js';
import type { Queryable, Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { offsetOf, withinDates } from '../db/paging.js';
import { labNotes, templateDrafts, templateRevisions, templates, templateWriters, users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { recordOpen } from '../inbox/recentOpens.js';
import { enforce } from '../http/verdicts.js';
import type { Services } from '../services.js';
import {
  approvalExcludedUserNos,
  canEditTemplate,
  canManageTemplates,
  canReadTemplate,
  canViewRevision,
  EDIT_REFUSALS,
  MANAGE_REFUSALS,
  READ_REFUSALS,
  VIEW_REFUSALS,
  visibleTemplatesSql,
  type WaitingRevision,
} from './policy.js';
import { approvedVersionOf, presentRevision, presentSummary, waitingOf } from './presenters.js';
import type { RevisionRecord, TemplateRecord } from './record.js';

const checker = alias(users, 'checker');
const approver = alias(users, 'approver');
const author = alias(users, 'author');

const noteCount = sql<number>`(select count(*) from ${labNotes} where ${labNotes.templateNo} = ${templates.templateNo})`.mapWith(Number);
/** Who checked in the revision waiting for approval (null when none waits). */
const waitingChecker = sql<number | null>`(select ${templateRevisions.checkedByUserNo} from ${templateRevisions}
  where ${templateRevisions.templateNo} = ${templates.templateNo} and ${templateRevisions.revision} = ${templates.revision}
  and ${templates.state} = ${TEMPLATE_STATE.checking})`;
/**
 * Who wrote in the revision waiting for approval, or in one sent back since the last approval: the text
 * of a revision sent back goes on in the next, and was never approved.
 */
const waitingWriters = sql<number[]>`(select coalesce(jsonb_agg(distinct ${templateWriters.userNo}), '[]'::jsonb) from ${templateWriters}
  where ${templateWriters.templateNo} = ${templates.templateNo} and ${templates.state} = ${TEMPLATE_STATE.checking}
  and ${templateWriters.revision} > coalesce(${templates.approvedRevision}, 0) and ${templateWriters.revision} <= ${templates.revision})`;
const approvedVersion = sql<string | null>`(select ${templateRevisions.version}::text from ${templateRevisions}
  where ${templateRevisions.templateNo} = ${templates.templateNo} and ${templateRevisions.revision} = ${templates.approvedRevision})`;

const summaryColumns = {
  template: templates,
  authorName: author.name,
  authorId: author.userId,
  version: approvedVersion,
  notes: noteCount,
  checkedBy: waitingChecker,
  waitingWriters,
};

/** The templates the caller may see, newest first, filtered by title, state and creation date. */
export async function listTemplates(
  q: Queryable,
  user: AuthUser,
  filter: TemplateListFilter,
  timeZone: string,
): Promise<TemplateListAnswer> {
  const where = and(
    visibleTemplatesSql(user),
    filter.value ? ilike(templates.title, `%${escapeLike(filter.value)}%`) : undefined,
    filter.state ? eq(templates.state, filter.state) : undefined,
    withinDates(templates.createdAt, filter, timeZone),
  );
  const [total] = await q.select({ n: count() }).from(templates).where(where);
  // The page's numbers first; author, version and note count for those rows only.
  const page = q
    .select({ templateNo: templates.templateNo })
    .from(templates)
    .where(where)
    .orderBy(desc(templates.templateNo))
    .limit(filter.pageSize)
    .offset(offsetOf(filter))
    .as('page');
  const rows = await q
    .select(summaryColumns)
    .from(page)
    .innerJoin(templates, eq(templates.templateNo, page.templateNo))
    .innerJoin(author, eq(author.userNo, templates.authorUserNo))
    .orderBy(desc(templates.templateNo));
  return {
    totalCount: Number(total?.n ?? 0),
    list: rows.map((row) => presentSummary(user, row)),
    abilities: { create: canManageTemplates(user) === 'allowed' },
  };
}

/** Every approved template, by title: what the note-create picker offers. */
export async function approvedTemplates(q: Queryable): Promise<TemplateChoice[]> {
  const rows = await q
    .select({ template: templates, revision: templateRevisions })
    .from(templates)
    .innerJoin(
      templateRevisions,
      and(eq(templateRevisions.templateNo, templates.templateNo), eq(templateRevisions.revision, templates.approvedRevision)),
    )
    .where(and(sql`${templates.deletedAt} is null`, isNotNull(templates.approvedRevision)))
    .orderBy(asc(templates.title));
  return rows.map(({ template, revision }) => ({
    templateNo: template.templateNo,
    title: template.title,
    description: template.description,
    version: approvedVersionOf(revision),
    blocksHash: revision.blocksHash,
  }));
}

/** How many templates the caller may see (the dashboard's count). */
export async function countVisibleTemplates(q: Queryable, user: AuthUser): Promise<number> {
  const [row] = await q.select({ n: count() }).from(templates).where(visibleTemplatesSql(user));
  return Number(row?.n ?? 0);
}

/** The template if the caller may read it, else 9002 as if it did not exist (deleted, or a draft hidden from them). */
export async function requireReadableTemplate(q: Queryable, user: AuthUser, templateNo: number): Promise<TemplateRecord> {
  const [template] = await q.select().from(templates).where(eq(templates.templateNo, templateNo));
  enforce(canReadTemplate(user, template), READ_REFUSALS);
  return template as TemplateRecord;
}

/**
 * Locks the template's row until the transaction ends. Appends of live updates take it `share`; changes
 * that end writing (check-in, deletion) take it `update`, so an update is stored before them or refused after.
 */
export async function lockTemplate(tx: Tx, templateNo: number, strength: 'share' | 'update'): Promise<TemplateRecord | undefined> {
  const [row] = await tx.select().from(templates).where(eq(templates.templateNo, templateNo)).for(strength);
  return row;
}

/** The templates' rows locked together (inside a transaction), in template order, by template. */
export async function lockTemplates(
  tx: Queryable,
  templateNos: number[],
  strength: 'share' | 'update',
): Promise<Map<number, TemplateRecord>> {
  if (!templateNos.length) return new Map();
  const rows = await tx
    .select()
    .from(templates)
    .where(inArray(templates.templateNo, templateNos))
    .orderBy(asc(templates.templateNo))
    .for(strength);
  return new Map(rows.map((row) => [row.templateNo, row]));
}

export async function revisionOf(q: Queryable, templateNo: number, revision: number): Promise<RevisionRecord | undefined> {
  const [row] = await q
    .select()
    .from(templateRevisions)
    .where(and(eq(templateRevisions.templateNo, templateNo), eq(templateRevisions.revision, revision)));
  return row;
}

/**
 * The revision waiting for approval, if the template is checked in, with who checked it in and who wrote
 * in it (or in a revision sent back since the last approval), as the two-person rule reads them.
 */
export async function waitingRevision(q: Queryable, template: TemplateRecord): Promise<WaitingRevision | null> {
  if (template.state !== TEMPLATE_STATE.checking) return null;
  const revision = await revisionOf(q, template.templateNo, template.revision);
  if (!revision) return null;
  const writers = await q
    .selectDistinct({ userNo: templateWriters.userNo })
    .from(templateWriters)
    .where(
      and(
        eq(templateWriters.templateNo, template.templateNo),
        gt(templateWriters.revision, template.approvedRevision ?? 0),
        lte(templateWriters.revision, template.revision),
      ),
    );
  return { checkedByUserNo: revision.checkedByUserNo, writerUserNos: writers.map((w) => w.userNo) };
}

/**
 * The greatest version the template was approved under, or null before its first approval: a new one must
 * be greater. The latest approved is the greatest, but for versions approved when they were compared as
 * two integers (1.10 after 1.9).
 */
export async function lastApprovedVersion(q: Queryable, template: TemplateRecord): Promise<string | null> {
  if (template.approvedRevision === null) return null;
  const [row] = await q
    .select({ version: sql<string>`${templateRevisions.version}::text` })
    .from(templateRevisions)
    .where(and(eq(templateRevisions.templateNo, template.templateNo), isNotNull(templateRevisions.approvedAt)))
    .orderBy(desc(templateRevisions.version), desc(templateRevisions.revision))
    .limit(1);
  return row?.version ?? null;
}

/** Who wrote in each revision of a template, by name. */
async function writersByRevision(q: Queryable, templateNo: number): Promise<Map<number, string[]>> {
  const rows = await q
    .select({ revision: templateWriters.revision, name: users.name })
    .from(templateWriters)
    .innerJoin(users, eq(users.userNo, templateWriters.userNo))
    .where(eq(templateWriters.templateNo, templateNo))
    .orderBy(asc(users.name));
  const writers = new Map<number, string[]>();
  for (const row of rows) writers.set(row.revision, [...(writers.get(row.revision) ?? []), row.name]);
  return writers;
}

async function revisionsOf(q: Queryable, templateNo: number): Promise<TemplateRevision[]> {
  const rows = await q
    .select({ revision: templateRevisions, checkedBy: checker.name, approvedBy: approver.name })
    .from(templateRevisions)
    .innerJoin(checker, eq(checker.userNo, templateRevisions.checkedByUserNo))
    .leftJoin(approver, eq(approver.userNo, templateRevisions.approvedByUserNo))
    .where(eq(templateRevisions.templateNo, templateNo))
    .orderBy(desc(templateRevisions.revision));
  const writers = await writersByRevision(q, templateNo);
  return rows.map(({ revision, checkedBy, approvedBy }) =>
    presentRevision(revision, { checkedBy, approvedBy: approvedBy ?? null, writtenBy: writers.get(revision.revision) ?? [] }),
  );
}

/** The template with its revisions, who may not approve it, and the version an approval would suggest. */
export async function templateDetail(q: Queryable, user: AuthUser, templateNo: number): Promise<TemplateDetail> {
  const [row] = await q
    .select(summaryColumns)
    .from(templates)
    .innerJoin(author, eq(author.userNo, templates.authorUserNo))
    .where(eq(templates.templateNo, templateNo));
  if (!row) throw new AppError(READ_REFUSALS.missing);
  const revisions = await revisionsOf(q, templateNo);
  const waiting = waitingOf(row);
  const excludedNos = waiting ? approvalExcludedUserNos(row.template, waiting) : [row.template.authorUserNo];
  const excluded = await q
    .select({ userId: users.userId, name: users.name })
    .from(users)
    .where(inArray(users.userNo, excludedNos))
    .orderBy(asc(users.name));
  const [draft] = await q.select({ savedAt: templateDrafts.savedAt }).from(templateDrafts).where(eq(templateDrafts.templateNo, templateNo));
  return {
    ...presentSummary(user, row),
    revisions,
    approvalExcluded: excluded,
    suggestedVersion: suggestedTemplateVersion(await lastApprovedVersion(q, row.template)),
    tempSavedAt: draft?.savedAt.toISOString() ?? null,
  };
}

export async function titleTaken(q: Queryable, title: string, exceptTemplateNo?: number): Promise<boolean> {
  const [row] = await q
    .select({ no: templates.templateNo })
    .from(templates)
    .where(
      and(
        eq(templates.title, title),
        sql`${templates.deletedAt} is null`,
        exceptTemplateNo ? ne(templates.templateNo, exceptTemplateNo) : undefined,
      ),
    );
  return row !== undefined;
}

/** The approved content a note starts from: the template's latest approved revision. */
export async function approvedContent(
  q: Queryable,
  template: TemplateRecord,
): Promise<{ revision: RevisionRecord; blocks: SavedBlock[] } | null> {
  if (template.approvedRevision === null) return null;
  const revision = await revisionOf(q, template.templateNo, template.approvedRevision);
  return revision ? { revision, blocks: revision.blocks as SavedBlock[] } : null;
}

/** A template and its live draft, as its editor opens them: for those who manage templates. Recorded as opened (the home). */
export async function templateEditor({ db, live }: Services, user: AuthUser, templateNo: number): Promise<TemplateEditorAnswer> {
  enforce(canManageTemplates(user), MANAGE_REFUSALS);
  const template = await requireReadableTemplate(db, user, templateNo);
  await recordOpen(db, user.userNo, 'template', template.templateNo);
  const content = await live.snapshot(templateDocumentName(template.templateNo));
  return { template: await templateDetail(db, user, template.templateNo), blockList: content.savedBlocks('TEMPLATE') };
}

/**
 * The template, if the caller may open it for editing now (`editCheck`): 7003 while a checked-in
 * revision waits for approval. It changes nothing: starting a new draft is `reopen`.
 */
export async function templateForEditing(q: Queryable, user: AuthUser, templateNo: number): Promise<TemplateDetail> {
  const template = await requireReadableTemplate(q, user, templateNo);
  enforce(canEditTemplate(user, template), EDIT_REFUSALS);
  return templateDetail(q, user, template.templateNo);
}

/** The revision the viewer shows when none is asked for: the latest approved one, else the latest checked in. */
function defaultViewedRevision(template: TemplateRecord): number | null {
  return template.approvedRevision ?? (template.revision > 0 ? template.revision : null);
}

/**
 * One checked-in revision, read-only, with who wrote each block; approved ones only for those who do not
 * manage templates (their template screen opens with it: recorded as opened, for the home).
 */
export async function templateViewer(
  q: Queryable,
  user: AuthUser,
  input: CallRequest<typeof api.templates.viewer>,
): Promise<TemplateViewerAnswer> {
  const template = await requireReadableTemplate(q, user, input.templateNo);
  const wanted = input.revision ?? defaultViewedRevision(template);
  const row = wanted === null ? undefined : await revisionOf(q, template.templateNo, wanted);
  enforce(canViewRevision(user, wanted, row), VIEW_REFUSALS);
  await recordOpen(q, user.userNo, 'template', template.templateNo);
  const viewed = row as RevisionRecord;
  const detail = await templateDetail(q, user, template.templateNo);
  const revision = detail.revisions.find((r) => r.revision === viewed.revision);
  if (!revision) throw new AppError(ERR.notFound);
  const people = await blockAuthors(q, templateDocumentName(template.templateNo), new Uint8Array(viewed.documentState));
  // The template viewer names its authors, each name once.
  const authors = Object.fromEntries(
    Object.entries(people).map(([blockUid, persons]) => [blockUid, [...new Set(persons.map((person) => person.name))].sort()]),
  );
  return { template: detail, revision, blockList: viewed.blocks as SavedBlock[], authors };
}
