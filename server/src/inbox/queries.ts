import { and, count, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  HOME_PATHS,
  LIMITS,
  NOTE_STATUS,
  PROJECT_STATUS,
  SIGNATURE_STATUS,
  TEMPLATE_STATE,
  type InboxAnswer,
  type InboxNote,
  type InboxRecent,
  type InboxRequest,
  type InboxSectionAnswer,
  type InboxSignature,
  type InboxTemplate,
} from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { offsetOf } from '../db/paging.js';
import {
  auditLog,
  labNotes,
  noteDrafts,
  noteSignatures,
  noteWriters,
  projects,
  recentOpens,
  schemaTypes,
  templateRevisions,
  templates,
  users,
} from '../db/schema.js';
import { unsavedNoteSql } from '../notes/drafts.js';
import { noteOpenForWriting, readableNotesSql } from '../notes/policy.js';
import { visibleSchemaTypesSql } from '../schemas/policy.js';
import { approvableTemplatesSql, canManageTemplates, visibleTemplatesSql } from '../templates/policy.js';
import { activitySection } from './activity.js';

/*
 * The home's sections (`/v1/inbox`), each read on its own. Every record a section lists is one its caller
 * may read now, by the rules of the record's own policy applied at query time: someone removed from a
 * project stops seeing its notes, requests and events in every section at once.
 */

type Paging = { page: number; pageSize: number };

/**
 * One section of the caller's home, in a transaction without parallel workers: a section's reads are short,
 * and on a few busy cores the planner's parallel plans waited for their workers (a parallel scan of every
 * note's project index, 58 ms, where looking up the caller's 570 notes by key takes 2).
 */
export function inboxSection(q: Queryable, user: AuthUser, input: InboxRequest): Promise<InboxAnswer> {
  return q.transaction(async (tx) => {
    await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    return sectionOf(tx, user, input);
  });
}

function sectionOf(q: Queryable, user: AuthUser, input: InboxRequest): Promise<InboxAnswer> {
  switch (input.section) {
    case 'signatures':
      return signatureSection(q, user, input);
    case 'templates':
      return templateSection(q, user, input);
    case 'notes':
      return noteSection(q, user, input);
    case 'recent':
      return recentSection(q, user);
    case 'activity':
      return activitySection(q, user, input);
  }
}

/**
 * The notes the user writes or co-writes: those they created (`writer_user_no`) and those whose live
 * document took an update of theirs (note_writers, by its user index). Read first, as numbers: inside the
 * sections' queries the planner joined them to every note (a sequential read of lab_notes, 40-80 ms at
 * 100,000 notes) rather than look each one up by its key.
 */
const ownNotes = alias(labNotes, 'own_notes');
async function writtenNotesSql(q: Queryable, userNo: number): Promise<SQL> {
  const rows = await q
    .select({ noteNo: noteWriters.noteNo })
    .from(noteWriters)
    .where(eq(noteWriters.userNo, userNo))
    .union(q.select({ noteNo: ownNotes.noteNo }).from(ownNotes).where(eq(ownNotes.writerUserNo, userNo)));
  return sql`${labNotes.noteNo} = any(${`{${rows.map((row) => row.noteNo).join(',')}}`}::integer[])`;
}

const asIso = (at: Date) => at.toISOString();
/**
 * How many rows the query finds before its limit, on each row: a page and its count in one statement (the
 * rows are all read for the page's order anyway), instead of a second statement to count them.
 */
const totalOver = () => sql<number>`count(*) over ()`.mapWith(Number);
const totalOf = (rows: ReadonlyArray<{ total: number }>) => rows[0]?.total ?? 0;

/** A page of rows from two kinds of item, merged newest first: each part is asked for as many rows as the page reaches. */
function mergedPage<T extends { at: string }>(parts: T[][], paging: Paging): T[] {
  return parts
    .flat()
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(offsetOf(paging), offsetOf(paging) + paging.pageSize);
}

const requester = alias(users, 'requester');
const signer = alias(users, 'signer');

const signatureColumns = {
  signatureId: noteSignatures.signatureId,
  meaning: noteSignatures.type,
  noteNo: labNotes.noteNo,
  labNoteNumber: labNotes.labNoteNumber,
  noteTitle: labNotes.title,
  projectNo: projects.projectNo,
  projectTitle: projects.title,
};

type SignatureRow = { signatureId: number; meaning: InboxSignature['meaning']; noteNo: number; labNoteNumber: string; noteTitle: string };
type ProjectColumns = { projectNo: number; projectTitle: string };

function presentSignature(
  kind: InboxSignature['kind'],
  row: SignatureRow & ProjectColumns & { byId: string; byName: string; at: Date | null; reason: string | null },
): InboxSignature {
  return {
    kind,
    signatureId: row.signatureId,
    note: { labNoteNo: row.noteNo, labNoteNumber: row.labNoteNumber, title: row.noteTitle },
    project: { projectNo: row.projectNo, title: row.projectTitle },
    meaning: row.meaning,
    by: { userId: row.byId, name: row.byName },
    at: asIso(row.at ?? new Date(0)),
    reason: row.reason,
    path: HOME_PATHS.note(row.noteNo),
  };
}

/** The first `reach` signatures passing `where` with their note, its project and `person` (who asked, or who answered), newest `at` first. */
function signaturesWith(
  q: Queryable,
  person: typeof requester | typeof signer,
  personNo: typeof noteSignatures.userNo | typeof noteSignatures.requestedByUserNo,
  at: typeof noteSignatures.requestedAt | typeof noteSignatures.signedAt,
  where: SQL | undefined,
  reach: number,
) {
  return q
    .select({ ...signatureColumns, byId: person.userId, byName: person.name, at, reason: noteSignatures.description, total: totalOver() })
    .from(noteSignatures)
    .innerJoin(labNotes, eq(labNotes.noteNo, noteSignatures.noteNo))
    .innerJoin(projects, eq(projects.projectNo, labNotes.projectNo))
    .innerJoin(person, eq(person.userNo, personNo))
    .where(where)
    .orderBy(desc(at), desc(noteSignatures.signatureId))
    .limit(reach);
}

/**
 * "Waiting for me", signatures: the requests still asked of the caller (pending, not withdrawn, on a note
 * they may read: note_signatures_pending_signer_idx lists them), and the notes they write or co-write that
 * a signer declined (returned to them), while those notes are still open for writing; newest first.
 */
async function signatureSection(q: Queryable, user: AuthUser, paging: Paging): Promise<InboxSectionAnswer<'signatures'>> {
  const requested = and(
    eq(noteSignatures.userNo, user.userNo),
    eq(noteSignatures.status, SIGNATURE_STATUS.pending),
    isNull(noteSignatures.removedAt),
    readableNotesSql(user),
  );
  const declined = and(
    await writtenNotesSql(q, user.userNo),
    eq(noteSignatures.status, SIGNATURE_STATUS.declined),
    isNull(noteSignatures.removedAt),
    readableNotesSql(user),
    inArray(labNotes.status, [NOTE_STATUS.writing, NOTE_STATUS.requested]),
    eq(projects.status, PROJECT_STATUS.inProgress),
  );
  const reach = offsetOf(paging) + paging.pageSize;
  const [requests, returned] = await Promise.all([
    signaturesWith(q, requester, noteSignatures.requestedByUserNo, noteSignatures.requestedAt, requested, reach),
    signaturesWith(q, signer, noteSignatures.userNo, noteSignatures.signedAt, declined, reach),
  ]);
  return {
    section: 'signatures',
    list: mergedPage(
      [
        requests.map((row) => presentSignature('request', { ...row, reason: null })),
        returned.map((row) => presentSignature('declined', row)),
      ],
      paging,
    ),
    totalCount: totalOf(requests) + totalOf(returned),
  };
}

const checker = alias(users, 'checker');
const returner = alias(users, 'returner');
/** The revision a template's state is about: its latest checked-in one. */
const currentRevision = and(eq(templateRevisions.templateNo, templates.templateNo), eq(templateRevisions.revision, templates.revision));
/** Who sent the template back last: its latest `template.returned` record (audit_log_target_idx). */
const lastReturnerNo = sql`(select ${auditLog.actorUserNo} from ${auditLog} where ${auditLog.targetType} = 'template'
  and ${auditLog.targetId} = ${templates.templateNo}::text and ${auditLog.action} = 'template.returned' order by ${auditLog.seq} desc limit 1)`;

function presentTemplate(
  kind: InboxTemplate['kind'],
  row: {
    templateNo: number;
    title: string;
    revision: number;
    byId: string | null;
    byName: string | null;
    at: Date | null;
    reason: string | null;
  },
): InboxTemplate {
  return {
    kind,
    templateNo: row.templateNo,
    title: row.title,
    revision: row.revision,
    by: row.byId !== null && row.byName !== null ? { userId: row.byId, name: row.byName } : null,
    at: asIso(row.at ?? new Date(0)),
    reason: row.reason,
    path: HOME_PATHS.template(row.templateNo),
  };
}

/**
 * "Waiting for me", templates: those checked in that the caller may approve or send back (the two-person
 * rule of templates/policy.ts), and the caller's own templates sent back and not checked in again, for
 * those who manage templates; newest first.
 */
async function templateSection(q: Queryable, user: AuthUser, paging: Paging): Promise<InboxSectionAnswer<'templates'>> {
  if (canManageTemplates(user) !== 'allowed') return { section: 'templates', list: [], totalCount: 0 };
  const approvable = approvableTemplatesSql(user);
  const returned = and(
    eq(templates.authorUserNo, user.userNo),
    eq(templates.state, TEMPLATE_STATE.draft),
    visibleTemplatesSql(user),
    isNotNull(templateRevisions.returnedAt),
  );
  const reach = offsetOf(paging) + paging.pageSize;
  const columns = { templateNo: templates.templateNo, title: templates.title, revision: templates.revision, total: totalOver() };
  const [waiting, sentBack] = await Promise.all([
    q
      .select({ ...columns, byId: checker.userId, byName: checker.name, at: templateRevisions.checkedAt })
      .from(templates)
      .innerJoin(templateRevisions, currentRevision)
      .innerJoin(checker, eq(checker.userNo, templateRevisions.checkedByUserNo))
      .where(approvable)
      .orderBy(desc(templateRevisions.checkedAt), desc(templates.templateNo))
      .limit(reach),
    q
      .select({
        ...columns,
        byId: returner.userId,
        byName: returner.name,
        at: templateRevisions.returnedAt,
        reason: templateRevisions.returnReason,
      })
      .from(templates)
      .innerJoin(templateRevisions, currentRevision)
      .leftJoin(returner, eq(returner.userNo, lastReturnerNo))
      .where(returned)
      .orderBy(desc(templateRevisions.returnedAt), desc(templates.templateNo))
      .limit(reach),
  ]);
  return {
    section: 'templates',
    list: mergedPage(
      [waiting.map((row) => presentTemplate('approve', { ...row, reason: null })), sentBack.map((row) => presentTemplate('returned', row))],
      paging,
    ),
    totalCount: totalOf(waiting) + totalOf(sentBack),
  };
}

/** Pending requests on the note being read. */
const pendingOnNote = sql`(select count(*) from ${noteSignatures} where ${noteSignatures.noteNo} = ${labNotes.noteNo}
  and ${noteSignatures.status} = ${SIGNATURE_STATUS.pending} and ${noteSignatures.removedAt} is null)`;
/** When the note last changed: its last save or change of status, or its temporary save if later. */
const changedAt = sql<Date>`greatest(${labNotes.updatedAt}, ${noteDrafts.savedAt})`;

/**
 * "My notes": the notes the caller writes or co-writes, may still read, and has not finished: open for
 * writing and never saved or changed since their last version (`unsavedNoteSql`), or with signature
 * requests still unanswered; the last changed first.
 */
async function noteSection(q: Queryable, user: AuthUser, paging: Paging): Promise<InboxSectionAnswer<'notes'>> {
  const where = and(
    await writtenNotesSql(q, user.userNo),
    readableNotesSql(user),
    or(
      and(
        inArray(labNotes.status, [NOTE_STATUS.writing, NOTE_STATUS.requested]),
        eq(projects.status, PROJECT_STATUS.inProgress),
        unsavedNoteSql(),
      ),
      sql`${pendingOnNote} > 0`,
    ),
  );
  const rows = await q
    .select({
      note: labNotes,
      projectTitle: projects.title,
      projectStatus: projects.status,
      drafted: isNotNull(noteDrafts.noteNo).mapWith(Boolean),
      pending: pendingOnNote.mapWith(Number),
      changedAt: changedAt.mapWith(labNotes.updatedAt),
      total: totalOver(),
    })
    .from(labNotes)
    .innerJoin(projects, eq(projects.projectNo, labNotes.projectNo))
    .leftJoin(noteDrafts, eq(noteDrafts.noteNo, labNotes.noteNo))
    .where(where)
    .orderBy(desc(changedAt), desc(labNotes.noteNo))
    .limit(paging.pageSize)
    .offset(offsetOf(paging));
  // A page past the last has no row to carry the count.
  const [counted] = rows.length
    ? [{ n: totalOf(rows) }]
    : await q.select({ n: count() }).from(labNotes).innerJoin(projects, eq(projects.projectNo, labNotes.projectNo)).where(where);
  return {
    section: 'notes',
    list: rows.map((row): InboxNote => {
      const open = noteOpenForWriting(row.note, { status: row.projectStatus });
      return {
        note: { labNoteNo: row.note.noteNo, labNoteNumber: row.note.labNoteNumber, title: row.note.title },
        project: { projectNo: row.note.projectNo, title: row.projectTitle },
        status: row.note.status,
        version: row.note.version,
        unsaved: !open ? null : row.note.version === 0 ? 'neverSaved' : row.drafted ? 'changedSinceSave' : null,
        pendingSignatures: row.pending,
        changedAt: asIso(row.changedAt),
        path: HOME_PATHS.note(row.note.noteNo),
      };
    }),
    totalCount: Number(counted?.n ?? 0),
  };
}

/**
 * "Recently opened": the notes, templates and schema types the caller opened last (recent_opens, by its
 * user index), those they may still read by each one's own rule, at most LIMITS.homeRecent, newest first.
 */
async function recentSection(q: Queryable, user: AuthUser): Promise<InboxSectionAnswer<'recent'>> {
  const rows = await q
    .select({
      kind: recentOpens.kind,
      no: recentOpens.recordNo,
      openedAt: recentOpens.openedAt,
      noteTitle: labNotes.title,
      labNoteNumber: labNotes.labNoteNumber,
      projectTitle: projects.title,
      templateTitle: templates.title,
      schemaTitle: schemaTypes.title,
    })
    .from(recentOpens)
    .leftJoin(labNotes, and(eq(recentOpens.kind, 'note'), eq(labNotes.noteNo, recentOpens.recordNo)))
    .leftJoin(projects, eq(projects.projectNo, labNotes.projectNo))
    .leftJoin(templates, and(eq(recentOpens.kind, 'template'), eq(templates.templateNo, recentOpens.recordNo)))
    .leftJoin(schemaTypes, and(eq(recentOpens.kind, 'schema'), eq(schemaTypes.schemasTypeNo, recentOpens.recordNo)))
    .where(
      and(
        eq(recentOpens.userNo, user.userNo),
        or(
          and(isNotNull(labNotes.noteNo), readableNotesSql(user)),
          and(isNotNull(templates.templateNo), visibleTemplatesSql(user)),
          and(isNotNull(schemaTypes.schemasTypeNo), visibleSchemaTypesSql(user)),
        ),
      ),
    )
    .orderBy(desc(recentOpens.openedAt), desc(recentOpens.recordNo))
    .limit(LIMITS.homeRecent);
  return {
    section: 'recent',
    list: rows.map((row): InboxRecent => {
      const base = { kind: row.kind, no: row.no, openedAt: asIso(row.openedAt) };
      if (row.kind === 'note')
        return {
          ...base,
          title: row.noteTitle ?? '',
          number: row.labNoteNumber,
          projectTitle: row.projectTitle,
          path: HOME_PATHS.note(row.no),
        };
      if (row.kind === 'template')
        return { ...base, title: row.templateTitle ?? '', number: null, projectTitle: null, path: HOME_PATHS.template(row.no) };
      return { ...base, title: row.schemaTitle ?? '', number: null, projectTitle: null, path: HOME_PATHS.schema(row.no) };
    }),
  };
}
