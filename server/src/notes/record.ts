import type { labNotes } from '../db/schema.js';
import type { ProjectRecord } from '../projects/record.js';

export type NoteRecord = typeof labNotes.$inferSelect;

/** A note as a caller meets it: with its project and whether the caller takes part in that project. */
export interface NoteContext {
  note: NoteRecord;
  project: ProjectRecord;
  /** Listed in the project's signatureList. */
  participant: boolean;
}
