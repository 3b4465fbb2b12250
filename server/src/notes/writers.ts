import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { fixedStatement } from '../db/fixedStatement.js';
import { noteWriters, users } from '../db/schema.js';

/** Records that a user wrote in a note (idempotent). */
export async function recordNoteWriter(q: Queryable, noteNo: number, userNo: number): Promise<void> {
  await recordNoteWriters(q, [{ noteNo, userNo }]);
}

/**
 * Of fixed text (see fixedStatement): teams opening notes record their writers in batches during
 * their first burst of edits, where drizzle's building of a many-row insert held the event loop.
 */
const insertNoteWriters = fixedStatement(
  'insert_note_writers',
  `insert into note_writers (note_no, user_no) select * from unnest($1::int[], $2::int[]) on conflict do nothing`,
);

/** Records that users wrote in notes, in one statement (idempotent). */
export async function recordNoteWriters(q: Queryable, rows: Array<{ noteNo: number; userNo: number }>): Promise<void> {
  await insertNoteWriters(q, [rows.map((row) => row.noteNo), rows.map((row) => row.userNo)]);
}

/** Who has written in each note, as user IDs (the creator is recorded at creation). */
export async function writersOf(q: Queryable, noteNos: number[]): Promise<Map<number, string[]>> {
  const result = new Map<number, string[]>();
  if (!noteNos.length) return result;
  const rows = await q
    .select({ noteNo: noteWriters.noteNo, userId: users.userId })
    .from(noteWriters)
    .innerJoin(users, eq(users.userNo, noteWriters.userNo))
    .where(inArray(noteWriters.noteNo, noteNos));
  for (const row of rows) result.set(row.noteNo, [...(result.get(row.noteNo) ?? []), row.userId]);
  return result;
}

/** Which of these users have written in the note. */
export async function writersAmong(q: Queryable, noteNo: number, userNos: number[]): Promise<number[]> {
  if (!userNos.length) return [];
  const rows = await q
    .select({ userNo: noteWriters.userNo })
    .from(noteWriters)
    .where(and(eq(noteWriters.noteNo, noteNo), inArray(noteWriters.userNo, userNos)));
  return rows.map((r) => r.userNo);
}
