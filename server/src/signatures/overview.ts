import { and, asc, count, desc, eq, exists, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  SIGNATURE_REQUEST_STATES,
  SIGNATURE_STATUS,
  type api,
  type CallAnswer,
  type CallRequest,
  type SignatureOverviewNote,
  type SignatureRequestState,
  type SignatureStatus,
} from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { labNotes, noteSignatures, projects, signatureReminders, users } from '../db/schema.js';
import { readableNotesSql, type NoteCase } from '../notes/policy.js';
import { requireVisibleNote } from '../notes/queries.js';
import type { NoteRecord } from '../notes/record.js';
import { requireReadableProject } from '../projects/queries.js';
import type { ProjectRecord } from '../projects/record.js';
import { overviewRequestOf, type OverviewRow, type ReminderSummary } from './presenters.js';

/*
 * The signature overview: every request of a note (answered, waiting, cancelled, removed), with who asked
 * and when, the signer's answer as recorded, the reminders sent, and the caller's verdict on reminding.
 * A project's overview lists its notes the caller may read (`readableNotesSql`), newest first, paged by
 * note; its queries run on `lab_notes_project_idx`, `note_signatures_note_idx` and
 * `signature_reminders_signature_idx`.
 */

/** Where a request stands, as a condition on `note_signatures` (the overview's states). */
function stateSql(state: SignatureRequestState): SQL {
  const live = (status: SignatureStatus) => and(isNull(noteSignatures.removedAt), eq(noteSignatures.status, status)) as SQL;
  switch (state) {
    case 'waiting':
      return live(SIGNATURE_STATUS.pending);
    case 'signed':
      return live(SIGNATURE_STATUS.signed);
    case 'declined':
      return live(SIGNATURE_STATUS.declined);
    case 'cancelled':
      return live(SIGNATURE_STATUS.cancelled);
    case 'removed':
      return isNotNull(noteSignatures.removedAt);
  }
}

/** A status letter written into the SQL text (a constant, not a parameter, so that GROUP BY matches the select). */
const letter = (status: string) => sql.raw(`'${status}'`);

/** The state of the row being read, as SQL (for counting by state). */
const stateColumn = sql<SignatureRequestState>`case when ${noteSignatures.removedAt} is not null then 'removed'
  when ${noteSignatures.status} = ${letter(SIGNATURE_STATUS.pending)} then 'waiting'
  when ${noteSignatures.status} = ${letter(SIGNATURE_STATUS.signed)} then 'signed'
  when ${noteSignatures.status} = ${letter(SIGNATURE_STATUS.declined)} then 'declined'
  else 'cancelled' end`;

const requesters = alias(users, 'requesters');
const removers = alias(users, 'removers');

/** The requests of notes (those in `state` only, when given), oldest first, with the people they name. */
async function requestsOf(q: Queryable, noteNos: number[], state: SignatureRequestState | undefined): Promise<OverviewRow[]> {
  if (!noteNos.length) return [];
  return q
    .select({
      signature: noteSignatures,
      signer: { userId: users.userId, name: users.name },
      requester: { userId: requesters.userId, name: requesters.name },
      removerId: removers.userId,
      removerName: removers.name,
    })
    .from(noteSignatures)
    .innerJoin(users, eq(users.userNo, noteSignatures.userNo))
    .innerJoin(requesters, eq(requesters.userNo, noteSignatures.requestedByUserNo))
    .leftJoin(removers, eq(removers.userNo, noteSignatures.removedByUserNo))
    .where(and(inArray(noteSignatures.noteNo, noteNos), state ? stateSql(state) : undefined))
    .orderBy(asc(noteSignatures.signatureId));
}

/** Each request's reminders: how many, and the last one's time and sender. */
async function remindersOf(q: Queryable, signatureIds: number[]): Promise<Map<number, ReminderSummary>> {
  const result = new Map<number, ReminderSummary>();
  if (!signatureIds.length) return result;
  const rows = await q
    .select({
      signatureId: signatureReminders.signatureId,
      at: signatureReminders.remindedAt,
      userId: users.userId,
      name: users.name,
      count: sql<number>`(count(*) over (partition by ${signatureReminders.signatureId}))::int`,
    })
    .from(signatureReminders)
    .innerJoin(users, eq(users.userNo, signatureReminders.remindedByUserNo))
    .where(inArray(signatureReminders.signatureId, signatureIds))
    .orderBy(asc(signatureReminders.signatureId), desc(signatureReminders.remindedAt));
  for (const row of rows) {
    if (!result.has(row.signatureId)) {
      result.set(row.signatureId, { count: Number(row.count), lastAt: row.at, lastBy: { userId: row.userId, name: row.name } });
    }
  }
  return result;
}

/** The time of a request's last reminder (the once-a-day check), if any. */
export async function lastReminderAt(q: Queryable, signatureId: number): Promise<Date | null> {
  const [row] = await q
    .select({ at: signatureReminders.remindedAt })
    .from(signatureReminders)
    .where(eq(signatureReminders.signatureId, signatureId))
    .orderBy(desc(signatureReminders.remindedAt))
    .limit(1);
  return row?.at ?? null;
}

type OverviewNoteFacts = Pick<NoteRecord, 'noteNo' | 'labNoteNumber' | 'title' | 'status' | 'writerUserNo' | 'deletedAt'>;

/** Notes with their requests, as the overview answers them, each request with the caller's reminder verdict. */
async function overviewOf(
  q: Queryable,
  user: AuthUser,
  project: ProjectRecord,
  notes: readonly OverviewNoteFacts[],
  state: SignatureRequestState | undefined,
): Promise<SignatureOverviewNote[]> {
  const rows = await requestsOf(
    q,
    notes.map((n) => n.noteNo),
    state,
  );
  const reminders = await remindersOf(
    q,
    rows.map((r) => r.signature.signatureId),
  );
  const now = new Date();
  return notes.map((note) => {
    const found: Pick<NoteCase, 'note' | 'project'> = { note, project };
    return {
      labNoteNo: note.noteNo,
      labNoteNumber: note.labNoteNumber,
      title: note.title,
      status: note.status,
      requests: rows
        .filter((row) => row.signature.noteNo === note.noteNo)
        .map((row) => overviewRequestOf(row, reminders.get(row.signature.signatureId) ?? null, user, found, now)),
    };
  });
}

/** `/v1/project/note/signature/overview`: one note's requests, for whoever may read the note. */
export async function noteSignatureOverview(
  q: Queryable,
  user: AuthUser,
  input: CallRequest<typeof api.signatureOverview.noteOverview>,
): Promise<CallAnswer<typeof api.signatureOverview.noteOverview>> {
  const ctx = await requireVisibleNote(q, user, input.labNoteNo);
  const [note] = await overviewOf(q, user, ctx.project, [ctx.note], undefined);
  return note as SignatureOverviewNote;
}

/**
 * `/v1/project/signature/overview`: the project's notes the caller may read, newest first, each with its
 * requests (only those in `status` and only notes having one, when given), and the count of requests in
 * each state over all of those notes.
 */
export async function projectSignatureOverview(
  q: Queryable,
  user: AuthUser,
  input: CallRequest<typeof api.signatureOverview.projectOverview>,
): Promise<CallAnswer<typeof api.signatureOverview.projectOverview>> {
  const { project } = await requireReadableProject(q, user, input.projectNo);
  const readable = and(eq(labNotes.projectNo, project.projectNo), readableNotesSql(user));
  const inState = input.status
    ? exists(
        q
          .select({ one: sql`1` })
          .from(noteSignatures)
          .where(and(eq(noteSignatures.noteNo, labNotes.noteNo), stateSql(input.status))),
      )
    : undefined;
  const where = and(readable, inState);
  const [total] = await q
    .select({ n: count() })
    .from(labNotes)
    .innerJoin(projects, eq(projects.projectNo, labNotes.projectNo))
    .where(where);
  const notes = await q
    .select({
      noteNo: labNotes.noteNo,
      labNoteNumber: labNotes.labNoteNumber,
      title: labNotes.title,
      status: labNotes.status,
      writerUserNo: labNotes.writerUserNo,
      deletedAt: labNotes.deletedAt,
    })
    .from(labNotes)
    .innerJoin(projects, eq(projects.projectNo, labNotes.projectNo))
    .where(where)
    .orderBy(desc(labNotes.noteNo))
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize);
  const byState = await q
    .select({ state: stateColumn, n: count() })
    .from(noteSignatures)
    .innerJoin(labNotes, eq(labNotes.noteNo, noteSignatures.noteNo))
    .innerJoin(projects, eq(projects.projectNo, labNotes.projectNo))
    .where(readable)
    .groupBy(stateColumn);
  const counts = Object.fromEntries(SIGNATURE_REQUEST_STATES.map((state) => [state, 0])) as Record<SignatureRequestState, number>;
  for (const row of byState) counts[row.state] = Number(row.n);
  return {
    list: await overviewOf(q, user, project, notes, input.status),
    totalCount: Number(total?.n ?? 0),
    counts,
  };
}
