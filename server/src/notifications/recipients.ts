import { and, eq } from 'drizzle-orm';
import type { NotificationEvent } from '@eln/shared';
import type { Queryable, Tx } from '../db/client.js';
import { labNotes, noteWriters, projectParticipants, projects, users } from '../db/schema.js';
import { administratorsSql } from '../users/policy.js';
import { notify } from './notify.js';

/*
 * Who an event is told to. notify() leaves out the one who did it and anyone inactive, and the reader's
 * rules decide again, whenever a notification is shown, whether they may still see it.
 */

/** "My note": its writer and everyone who has written in it (note_writers). */
export async function writersOfNote(q: Queryable, noteNo: number): Promise<number[]> {
  const [note] = await q.select({ writerUserNo: labNotes.writerUserNo }).from(labNotes).where(eq(labNotes.noteNo, noteNo));
  const cowriters = await q.select({ userNo: noteWriters.userNo }).from(noteWriters).where(eq(noteWriters.noteNo, noteNo));
  return [...(note ? [note.writerUserNo] : []), ...cowriters.map((row) => row.userNo)];
}

/** Tells "my note"'s writers (writersOfNote) of what someone did to it. */
export async function notifyWriters(
  tx: Tx,
  event: NotificationEvent,
  note: { noteNo: number; projectNo: number },
  actorUserNo: number,
  payload: Record<string, unknown>,
): Promise<void> {
  await notify(tx, {
    event,
    recipients: await writersOfNote(tx, note.noteNo),
    actorUserNo,
    noteNo: note.noteNo,
    projectNo: note.projectNo,
    payload,
  });
}

/** Those who take part in a project: its leader and its listed participants. */
export async function membersOfProject(q: Queryable, projectNo: number): Promise<number[]> {
  const [project] = await q.select({ leaderUserNo: projects.leaderUserNo }).from(projects).where(eq(projects.projectNo, projectNo));
  const listed = await q
    .select({ userNo: projectParticipants.userNo })
    .from(projectParticipants)
    .where(eq(projectParticipants.projectNo, projectNo));
  return [...(project ? [project.leaderUserNo] : []), ...listed.map((row) => row.userNo)];
}

/** Every active administrator. */
export async function activeAdministrators(q: Queryable): Promise<number[]> {
  const rows = await q
    .select({ userNo: users.userNo })
    .from(users)
    .where(and(administratorsSql(), eq(users.active, true)));
  return rows.map((row) => row.userNo);
}
