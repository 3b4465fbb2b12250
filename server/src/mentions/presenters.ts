import type { MentionPerson } from '@eln/shared';
import type { NoteContext } from '../notes/queries.js';
import { personMayReadNote } from '../notes/policy.js';

/** A person as the mention queries read them. */
export interface PersonRow {
  userNo: number;
  userId: string;
  name: string;
  level: number;
  active: boolean;
  department: string | null;
  /** Listed as a participant of the note's project. */
  listed: boolean;
}

/** A person as the suggestions and the chips show them, with the notes policy's verdict on reading the note. */
export function toMentionPerson(row: PersonRow, ctx: NoteContext): MentionPerson {
  const leader = row.userNo === ctx.project.leaderUserNo;
  return {
    userId: row.userId,
    name: row.name,
    department: row.department,
    leader,
    canRead: personMayReadNote(row, { note: ctx.note, project: ctx.project, participant: leader || row.listed }),
  };
}
