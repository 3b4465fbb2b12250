import { and, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  HOME_PATHS,
  SIGNATURE_TYPES,
  type ActivityEvent,
  type InboxActivity,
  type InboxSectionAnswer,
  type SignatureType,
} from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { rowsOf, type Queryable } from '../db/client.js';
import { auditLog, labNotes, projects, templates, users } from '../db/schema.js';
import { readableNotesSql } from '../notes/policy.js';
import { visibleProjectsSql } from '../projects/policy.js';
import { visibleTemplatesSql } from '../templates/policy.js';

/*
 * "In my projects": what happened, read from the audit trail. Of its records, those of the actions below
 * whose target the caller may read now (a note of a project they read and not deleted, such a project, a
 * template they see), newest first, a page at a time before a cursor (a record's `seq`).
 */

/** The audit actions the activity shows, by the kind of record they name, and the event each one is. */
const NOTE_ACTIONS = {
  'note.created': 'noteCreated',
  'note.saved': 'versionSaved',
  'note.restored': 'versionSaved',
  'signature.signed': 'signatureGiven',
  'signature.removed': 'signatureRemoved',
} as const satisfies Record<string, ActivityEvent>;
const PROJECT_ACTIONS = { 'project.finished': 'projectClosed' } as const satisfies Record<string, ActivityEvent>;
const TEMPLATE_ACTIONS = { 'template.approved': 'templateApproved' } as const satisfies Record<string, ActivityEvent>;
/** Each action's event and the kind of record it names. */
const EVENTS: ReadonlyMap<string, { event: ActivityEvent; type: string }> = new Map(
  [
    ['note', NOTE_ACTIONS],
    ['project', PROJECT_ACTIONS],
    ['template', TEMPLATE_ACTIONS],
  ].flatMap(([type, actions]) =>
    Object.entries(actions as Record<string, ActivityEvent>).map(([action, event]) => [action, { event, type: type as string }]),
  ),
);

/**
 * Up to this many readable notes, the page is found from them: each note's newest records by the
 * trail's target index (audit_log_target_idx), at most a page of them a note. Beyond it (an administrator,
 * who reads every note, or someone in hundreds of projects), most records name a note the caller reads,
 * and the trail is read newest first by action (audit_log_action_idx), each record's note checked, until
 * a page is found: reading thousands of notes' records would cost more than the records passed over.
 */
const TARGETED_NOTES = 2_000;

const asInts = (nos: readonly number[]) => `{${nos.join(',')}}`;
/** The record's target as the integer it names (the trail keeps target ids as text; a number for these kinds). */
const targetNo = sql`(case when ${auditLog.targetId} ~ '^[0-9]{1,9}$' then ${auditLog.targetId}::integer end)`;

/** The readable notes (and their projects) to read records of, or null when there are too many of them. */
async function readTargets(q: Queryable, user: AuthUser): Promise<{ notes: number[]; projects: number[] } | null> {
  const visible = visibleProjectsSql(user);
  if (!visible) return null;
  // The projects first (a member's few, by the projects' rule), then their notes by lab_notes_project_idx.
  const projectNos = (await q.select({ projectNo: projects.projectNo }).from(projects).where(visible)).map((row) => row.projectNo);
  if (!projectNos.length) return { notes: [], projects: [] };
  const notes = await q
    .select({ noteNo: labNotes.noteNo })
    .from(labNotes)
    .innerJoin(projects, eq(projects.projectNo, labNotes.projectNo))
    .where(and(sql`${labNotes.projectNo} = any(${asInts(projectNos)}::integer[])`, readableNotesSql(user)))
    .limit(TARGETED_NOTES + 1);
  return notes.length > TARGETED_NOTES ? null : { notes: notes.map((row) => row.noteNo), projects: projectNos };
}

/** The newest `take` records before `before` among those of the given targets (each target's by the target index). */
function ofTargets(type: string, nos: readonly number[], actions: readonly string[], before: number, take: number): SQL {
  return sql`(select s.seq from unnest(${asInts(nos)}::text[]) as t(id) cross join lateral (
    select ${auditLog.seq} as seq from ${auditLog} where ${auditLog.targetType} = ${type} and ${auditLog.targetId} = t.id
      and ${inArray(auditLog.action, [...actions])} and ${auditLog.seq} < ${before}::bigint
    order by ${auditLog.seq} desc limit ${take}) s)`;
}

/**
 * The newest `take` records of one action before `before` whose target passes `readable`, read backwards
 * along audit_log_action_idx (or, for an action in most records, the trail's primary key). Not filtered
 * by the target's kind: each of these actions names one kind of record (presentRecords checks it), and
 * with both conditions the planner took a rare action's records as rarer still, gathered all of them by
 * two bitmap indexes and sorted them (15 ms for 1,428 closed projects) instead of reading the newest few.
 */
function ofAction(action: string, readable: SQL, before: number, take: number): SQL {
  return sql`(select ${auditLog.seq} as seq from ${auditLog} where ${auditLog.action} = ${action}
    and ${auditLog.seq} < ${before}::bigint and ${readable} order by ${auditLog.seq} desc limit ${take})`;
}

/** The `seq` of the page's records (and one more, telling whether a next page exists), newest first. */
async function pageSeqs(q: Queryable, user: AuthUser, before: number, take: number): Promise<number[]> {
  const targets = await readTargets(q, user);
  const readableNote = sql`exists (select 1 from ${labNotes} inner join ${projects} on ${projects.projectNo} = ${labNotes.projectNo}
    where ${labNotes.noteNo} = ${targetNo} and ${readableNotesSql(user)})`;
  const readableProject = sql`exists (select 1 from ${projects} where ${projects.projectNo} = ${targetNo} and ${visibleProjectsSql(user) ?? sql`true`})`;
  const visibleTemplate = sql`exists (select 1 from ${templates} where ${templates.templateNo} = ${targetNo} and ${visibleTemplatesSql(user) ?? sql`true`})`;
  // Templates are seen by the templates' rule, not by project: every approved one by everyone.
  const templateParts = Object.keys(TEMPLATE_ACTIONS).map((action) => ofAction(action, visibleTemplate, before, take));
  const parts = targets
    ? [
        ...(targets.notes.length ? [ofTargets('note', targets.notes, Object.keys(NOTE_ACTIONS), before, take)] : []),
        ...(targets.projects.length ? [ofTargets('project', targets.projects, Object.keys(PROJECT_ACTIONS), before, take)] : []),
        ...templateParts,
      ]
    : [
        ...Object.keys(NOTE_ACTIONS).map((action) => ofAction(action, readableNote, before, take)),
        ...Object.keys(PROJECT_ACTIONS).map((action) => ofAction(action, readableProject, before, take)),
        ...templateParts,
      ];
  const rows = rowsOf<{ seq: string | number }>(
    await q.execute(sql`select seq from (${sql.join(parts, sql` union all `)}) page order by seq desc limit ${take}`),
  );
  return rows.map((row) => Number(row.seq));
}

type Json = Record<string, unknown> | null;
const field = (record: Json, key: string) => (record && typeof record === 'object' ? record[key] : undefined);
const textOf = (value: unknown) => (typeof value === 'number' || typeof value === 'string' ? String(value) : null);
const meaningOf = (value: unknown): SignatureType | null =>
  SIGNATURE_TYPES.includes(value as SignatureType) ? (value as SignatureType) : null;

/** The page's records with the names and titles they show: the notes, projects and templates they name, and who acted. */
async function presentRecords(q: Queryable, user: AuthUser, seqs: number[]): Promise<InboxActivity[]> {
  if (!seqs.length) return [];
  const records = await q
    .select({
      seq: auditLog.seq,
      at: auditLog.at,
      action: auditLog.action,
      actorUserNo: auditLog.actorUserNo,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      before: auditLog.before,
      after: auditLog.after,
      reason: auditLog.reason,
    })
    .from(auditLog)
    .where(inArray(auditLog.seq, seqs))
    .orderBy(desc(auditLog.seq));
  const numbersOf = (type: string) => [...new Set(records.filter((r) => r.targetType === type).map((r) => Number(r.targetId)))];
  const noteNos = numbersOf('note');
  const projectNos = numbersOf('project');
  const templateNos = numbersOf('template');
  const signerIds = [...new Set(records.map((r) => textOf(field(r.before as Json, 'signer'))).filter((id) => id !== null))];
  const actorNos = [...new Set(records.map((r) => r.actorUserNo).filter((no) => no !== null))];
  // Only the look-ups the page needs: a page of notes' events asks for no project or template.
  const [notes, projectRows, templateRows, people] = await Promise.all([
    noteNos.length
      ? q
          .select({
            noteNo: labNotes.noteNo,
            labNoteNumber: labNotes.labNoteNumber,
            title: labNotes.title,
            projectNo: projects.projectNo,
            projectTitle: projects.title,
          })
          .from(labNotes)
          .innerJoin(projects, eq(projects.projectNo, labNotes.projectNo))
          .where(and(inArray(labNotes.noteNo, noteNos), readableNotesSql(user)))
      : [],
    projectNos.length
      ? q.select({ projectNo: projects.projectNo, title: projects.title }).from(projects).where(inArray(projects.projectNo, projectNos))
      : [],
    templateNos.length
      ? q
          .select({ templateNo: templates.templateNo, title: templates.title })
          .from(templates)
          .where(inArray(templates.templateNo, templateNos))
      : [],
    // Who acted, by number, and whose signature was removed, by the ID its record keeps.
    q
      .select({ userNo: users.userNo, userId: users.userId, name: users.name })
      .from(users)
      .where(or(inArray(users.userNo, [...actorNos, 0]), inArray(users.userId, [...signerIds, '']))),
  ]);
  const noteOf = new Map(notes.map((row) => [row.noteNo, row]));
  const projectOf = new Map(projectRows.map((row) => [row.projectNo, row]));
  const templateOf = new Map(templateRows.map((row) => [row.templateNo, row]));
  const actorOf = new Map(people.map((row) => [row.userNo, row.name]));
  const signerOf = new Map(people.map((row) => [row.userId, row.name]));
  return records.flatMap((record): InboxActivity[] => {
    const known = EVENTS.get(record.action);
    if (!known || known.type !== record.targetType) return [];
    const { event } = known;
    const no = Number(record.targetId);
    const before = record.before as Json;
    const after = record.after as Json;
    const common = {
      seq: record.seq,
      event,
      at: record.at.toISOString(),
      actor: record.actorUserNo === null ? null : (actorOf.get(record.actorUserNo) ?? null),
      version: textOf(field(after, 'version')),
      meaning: meaningOf(field(event === 'signatureRemoved' ? before : after, 'meaning')),
      signer: null,
      reason: null,
      note: null,
      project: null,
      template: null,
    };
    if (record.targetType === 'note') {
      const note = noteOf.get(no);
      if (!note) return [];
      const signerId = textOf(field(before, 'signer'));
      return [
        {
          ...common,
          note: { labNoteNo: note.noteNo, labNoteNumber: note.labNoteNumber, title: note.title },
          project: { projectNo: note.projectNo, title: note.projectTitle },
          signer: event === 'signatureRemoved' && signerId ? (signerOf.get(signerId) ?? signerId) : null,
          reason: event === 'signatureRemoved' ? record.reason : null,
          path: HOME_PATHS.note(note.noteNo),
        },
      ];
    }
    if (record.targetType === 'project') {
      const project = projectOf.get(no);
      return project ? [{ ...common, project: { projectNo: no, title: project.title }, path: HOME_PATHS.project(no) }] : [];
    }
    const template = templateOf.get(no);
    return template ? [{ ...common, template: { templateNo: no, title: template.title }, path: HOME_PATHS.template(no) }] : [];
  });
}

/** "In my projects": a page of events before `before` (the newest without it), and the cursor of the next page. */
export async function activitySection(
  q: Queryable,
  user: AuthUser,
  input: { before?: number; pageSize: number },
): Promise<InboxSectionAnswer<'activity'>> {
  const seqs = await pageSeqs(q, user, input.before ?? Number.MAX_SAFE_INTEGER, input.pageSize + 1);
  const shown = seqs.slice(0, input.pageSize);
  return {
    section: 'activity',
    list: await presentRecords(q, user, shown),
    next: seqs.length > input.pageSize ? (shown.at(-1) ?? null) : null,
  };
}
