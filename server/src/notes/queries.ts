import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  differsFromSaved,
  ERR,
  noteDocumentName,
  withStatuses,
  type BlockListAnswer,
  type NoteModifier,
  type NoteTemplateOrigin,
  type NoteSummary,
  type SavedBlock,
  type ViewerAnswer,
} from '@eln/shared';
import { signaturesOf } from '../signatures/queries.js';
import { writersOf } from './writers.js';
import type { AuthUser } from '../auth/authUser.js';
import { tableText } from '../collab/documents/contentSnapshots.js';
import { AppError } from '../http/errors.js';
import { recordOpen } from '../inbox/recentOpens.js';
import { enforce } from '../http/verdicts.js';
import type { Services } from '../services.js';
import type { Queryable, Tx } from '../db/client.js';
import { builtOnce } from '../db/builtOnce.js';
import { fixedStatement } from '../db/fixedStatement.js';
import { labNotes, noteHolds, noteVersions, projectParticipants, projects, templateRevisions, templates, users } from '../db/schema.js';
import { participantColumn } from '../projects/queries.js';
import { canReadProject, takesPart } from '../projects/policy.js';
import type { ProjectRecord } from '../projects/record.js';
import { savedContent } from './contentCheck.js';
import { canReadNote, canWriteNote, READ_REFUSALS, WRITE_REFUSALS } from './policy.js';
import { noteSummaryOf, viewerAnswerOf } from './presenters.js';
import type { NoteContext, NoteRecord } from './record.js';

export type { NoteContext, NoteRecord } from './record.js';

/** Whether the user takes part in the project: its leader, or a listed participant (`takesPart`). */
async function takesPartIn(q: Queryable, project: ProjectRecord, userNo: number): Promise<boolean> {
  const [row] = await q
    .select({ n: projectParticipants.userNo })
    .from(projectParticipants)
    .where(and(eq(projectParticipants.projectNo, project.projectNo), eq(projectParticipants.userNo, userNo)));
  return takesPart({ userNo }, project, row !== undefined);
}

/**
 * The note with its project, if the user may see the project; deleted notes included (callers decide).
 * One query: every note call and live connection starts here.
 */
export async function findNoteFor(q: Queryable, user: AuthUser, noteNo: number): Promise<NoteContext | undefined> {
  const [row] = await builtOnce(q, 'noteForUser', noteForUser).execute({ noteNo, userNo: user.userNo });
  return row && canReadProject(user, row.project, row.participant) === 'allowed' ? row : undefined;
}

const noteForUser = (q: Queryable) =>
  q
    .select({ note: labNotes, project: projects, participant: participantColumn({ userNo: sql.placeholder('userNo') }) })
    .from(labNotes)
    .innerJoin(projects, eq(projects.projectNo, labNotes.projectNo))
    .where(eq(labNotes.noteNo, sql.placeholder('noteNo')))
    .prepare('note_for_user');

/** The note if the user may read it: 2013 when there is none (or it is hidden), 2014 when deleted. */
export async function requireVisibleNote(q: Queryable, user: AuthUser, noteNo: number): Promise<NoteContext> {
  const ctx = await findNoteFor(q, user, noteNo);
  enforce(canReadNote(ctx), READ_REFUSALS);
  // `canReadNote` allows a found note only.
  return ctx as NoteContext;
}

/** The note if the user may write it now (`canWriteNote`), else the refusal's code. */
export async function requireWritableNote(q: Queryable, user: AuthUser, noteNo: number): Promise<NoteContext> {
  const ctx = await requireVisibleNote(q, user, noteNo);
  enforce(canWriteNote(ctx), WRITE_REFUSALS);
  return ctx;
}

/**
 * Locks the note's row until the transaction ends. Appends of live updates take it `share` (they run
 * side by side); changes that end writing take it `update` (signing) or update the row (finishing,
 * deleting), which waits for the appends in flight and makes later ones wait and then see the change.
 */
export async function lockNote(
  tx: Tx,
  noteNo: number,
  strength: 'share' | 'update',
): Promise<Pick<NoteRecord, 'status' | 'deletedAt' | 'projectNo'> | undefined> {
  const [row] = await tx
    .select({ status: labNotes.status, deletedAt: labNotes.deletedAt, projectNo: labNotes.projectNo })
    .from(labNotes)
    .where(eq(labNotes.noteNo, noteNo))
    .for(strength);
  return row;
}

/** What the live store's write check needs of a note (see noteOpenForWriting). */
export type NoteWriteFacts = Pick<NoteRecord, 'status' | 'deletedAt'> & { projectStatus: ProjectRecord['status'] };

/**
 * The notes' rows locked `share` together, in note order (so two groups of locks never wait on each
 * other crosswise). Of fixed text (see fixedStatement): the live store runs it with every group commit.
 */
const lockNotesShared = fixedStatement<{ note_no: number; status: NoteRecord['status']; deleted_at: Date | string | null }>(
  'lock_notes_shared',
  'select note_no, status, deleted_at from lab_notes where note_no = any($1::int[]) order by note_no for share',
);
/**
 * The notes' projects' status. A statement of its own, sent right behind the locks: PostgreSQL runs it
 * once they are taken, on a snapshot of its own, so it sees a project change committed while it waited.
 */
const projectStatusOfNotes = fixedStatement<{ note_no: number; status: ProjectRecord['status'] }>(
  'project_status_of_notes',
  'select n.note_no, p.status from lab_notes n join projects p on p.project_no = n.project_no where n.note_no = any($1::int[])',
);

/** The notes locked `share` with what decides whether they may be written (see DocumentKind.writable), by note. */
export async function lockNotesForWriting(tx: Queryable, noteNos: number[]): Promise<Map<number, NoteWriteFacts>> {
  if (!noteNos.length) return new Map();
  // Sent together, not one after the other's answer (one connection runs them in the order sent).
  const [notes, projectStatuses] = await Promise.all([lockNotesShared(tx, [noteNos]), projectStatusOfNotes(tx, [noteNos])]);
  const projectStatus = new Map(projectStatuses.map((row) => [row.note_no, row.status]));
  return new Map(
    notes.flatMap((note) => {
      const status = projectStatus.get(note.note_no);
      return status === undefined
        ? []
        : [
            [
              note.note_no,
              { status: note.status, deletedAt: note.deleted_at === null ? null : new Date(note.deleted_at), projectStatus: status },
            ] as const,
          ];
    }),
  );
}

export async function modifiersOf(q: Queryable, noteNos: number[]): Promise<Map<number, NoteModifier[]>> {
  const result = new Map<number, NoteModifier[]>();
  if (!noteNos.length) return result;
  const rows = await q
    .selectDistinct({ noteNo: noteHolds.noteNo, userId: users.userId, name: users.name })
    .from(noteHolds)
    .innerJoin(users, eq(users.userNo, noteHolds.userNo))
    .where(inArray(noteHolds.noteNo, noteNos))
    .orderBy(asc(users.name));
  for (const row of rows) result.set(row.noteNo, [...(result.get(row.noteNo) ?? []), { userId: row.userId, name: row.name }]);
  return result;
}

export async function summarize(q: Queryable, ctx: NoteContext, user: AuthUser): Promise<NoteSummary> {
  const [writer] = await q.select().from(users).where(eq(users.userNo, ctx.note.writerUserNo));
  const modifiers = (await modifiersOf(q, [ctx.note.noteNo])).get(ctx.note.noteNo) ?? [];
  const signatures = (await signaturesOf(q, [ctx.note.noteNo])).get(ctx.note.noteNo) ?? [];
  const writers = (await writersOf(q, [ctx.note.noteNo])).get(ctx.note.noteNo) ?? [];
  const origins = await templateOriginsOf(q, [ctx.note]);
  return noteSummaryOf(ctx, user, {
    writerId: writer?.userId ?? '',
    writerName: writer?.name ?? '',
    modifiers,
    signatures,
    writers,
    template: noteOrigin(origins.get(ctx.note.noteNo)),
  });
}

/** A note's template origin as its answers show it (the revision is history's). */
function noteOrigin(origin: (NoteTemplateOrigin & { revision: number }) | undefined): NoteTemplateOrigin | null {
  return origin ? { templateNo: origin.templateNo, title: origin.title, version: origin.version, blocksHash: origin.blocksHash } : null;
}

/** The template version each note was made from, with its revision (notes made blank have none). */
export async function templateOriginsOf(
  q: Queryable,
  notes: readonly Pick<NoteRecord, 'noteNo' | 'templateNo' | 'templateRevision'>[],
): Promise<Map<number, NoteTemplateOrigin & { revision: number }>> {
  const fromTemplates = notes.filter((n) => n.templateNo !== null && n.templateRevision !== null);
  const origins = new Map<number, NoteTemplateOrigin & { revision: number }>();
  if (!fromTemplates.length) return origins;
  const rows = await q
    .select({
      templateNo: templates.templateNo,
      title: templates.title,
      revision: templateRevisions.revision,
      version: templateRevisions.version,
      blocksHash: templateRevisions.blocksHash,
    })
    .from(templateRevisions)
    .innerJoin(templates, eq(templates.templateNo, templateRevisions.templateNo))
    .where(inArray(templateRevisions.templateNo, [...new Set(fromTemplates.map((n) => n.templateNo as number))]));
  for (const note of fromTemplates) {
    const row = rows.find((r) => r.templateNo === note.templateNo && r.revision === note.templateRevision);
    if (row) origins.set(note.noteNo, { ...row, version: row.version ?? '' });
  }
  return origins;
}

/** The live notes of a project, newest first, with who is modifying each now. */
export async function listProjectNotes(q: Queryable, project: ProjectRecord, user: AuthUser): Promise<NoteSummary[]> {
  const rows = await q
    .select({ note: labNotes, writerId: users.userId, writerName: users.name })
    .from(labNotes)
    .innerJoin(users, eq(users.userNo, labNotes.writerUserNo))
    .where(and(eq(labNotes.projectNo, project.projectNo), isNull(labNotes.deletedAt)))
    .orderBy(sql`${labNotes.noteNo} desc`);
  const participant = await takesPartIn(q, project, user.userNo);
  const noteNos = rows.map((r) => r.note.noteNo);
  const modifiers = await modifiersOf(q, noteNos);
  const signatures = await signaturesOf(q, noteNos);
  const writers = await writersOf(q, noteNos);
  const origins = await templateOriginsOf(
    q,
    rows.map((r) => r.note),
  );
  return rows.map((r) =>
    noteSummaryOf({ note: r.note, project, participant }, user, {
      writerId: r.writerId,
      writerName: r.writerName,
      modifiers: modifiers.get(r.note.noteNo) ?? [],
      signatures: signatures.get(r.note.noteNo) ?? [],
      writers: writers.get(r.note.noteNo) ?? [],
      template: noteOrigin(origins.get(r.note.noteNo)),
    }),
  );
}

export async function savedVersion(q: Queryable, noteNo: number, version: number) {
  if (version === 0) return undefined;
  const [row] = await q
    .select()
    .from(noteVersions)
    .where(and(eq(noteVersions.noteNo, noteNo), eq(noteVersions.version, version)));
  return row ? { ...row, blocks: row.blocks as SavedBlock[] } : undefined;
}

/** The live document's blocks against the saved version, derived again only for blocks changed since the last call. */
export async function currentBlocks({ db, live }: Pick<Services, 'db' | 'live'>, ctx: NoteContext) {
  const content = await live.snapshot(noteDocumentName(ctx.note.noteNo));
  const saved = await savedContent(db, ctx.note.noteNo, ctx.note.version);
  const current = content.savedBlocks('LABNOTE');
  return { content, saved, blocks: withStatuses(current, saved.blocks), changed: differsFromSaved(current, saved.blocks, tableText) };
}

/** A note the user may read, with its live document's blocks and their statuses against the saved version. */
export async function noteBlockList(services: Pick<Services, 'db' | 'live'>, user: AuthUser, labNoteNo: number): Promise<BlockListAnswer> {
  const ctx = await requireVisibleNote(services.db, user, labNoteNo);
  const { blocks, changed } = await currentBlocks(services, ctx);
  return { note: await summarize(services.db, ctx, user), blockList: blocks, changed };
}

/**
 * A note the user may read, with its last saved version; a failure to read that answers 2017. The editor
 * reads it when it opens the note (and after each save): the open is recorded for the home's "Recently opened".
 */
export async function noteViewer({ db, log }: Pick<Services, 'db' | 'log'>, user: AuthUser, labNoteNo: number): Promise<ViewerAnswer> {
  const ctx = await requireVisibleNote(db, user, labNoteNo);
  await recordOpen(db, user.userNo, 'note', ctx.note.noteNo);
  try {
    const version = await savedVersion(db, ctx.note.noteNo, ctx.note.version);
    const [savedBy] = version ? await db.select({ name: users.name }).from(users).where(eq(users.userNo, version.savedByUserNo)) : [];
    return viewerAnswerOf(await summarize(db, ctx, user), ctx.note.version, version, savedBy?.name ?? null);
  } catch (error) {
    log.error({ err: error, noteNo: ctx.note.noteNo }, 'viewer failed');
    throw new AppError(ERR.viewer);
  }
}

/** The notes the user holds open for writing now. */
export async function notesHeldBy(q: Queryable, userNo: number): Promise<number[]> {
  const held = await q.selectDistinct({ noteNo: noteHolds.noteNo }).from(noteHolds).where(eq(noteHolds.userNo, userNo));
  return held.map((h) => h.noteNo);
}

/** Every note of a project, deleted ones included. */
export async function noteNosOfProject(q: Queryable, projectNo: number): Promise<number[]> {
  const notes = await q.select({ noteNo: labNotes.noteNo }).from(labNotes).where(eq(labNotes.projectNo, projectNo));
  return notes.map((n) => n.noteNo);
}
