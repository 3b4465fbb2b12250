import {
  SIGNATURE_STATUS,
  type NoteModifier,
  type NoteSummary,
  type NoteTemplateOrigin,
  type SavedBlock,
  type SignatureEntry,
  type ViewerAnswer,
} from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { noteAbilities } from './policy.js';
import type { NoteContext } from './record.js';

/** What a note's summary shows besides the note itself, read for one note or a project's list at once. */
export interface NoteSummaryFacts {
  writerId: string;
  writerName: string;
  /** Who holds the note open for writing now. */
  modifiers: NoteModifier[];
  signatures: SignatureEntry[];
  /** Who has written in it (user IDs). */
  writers: string[];
  template: NoteTemplateOrigin | null;
}

/** A note as its lists and pages show it, with what the caller may do with it (the note policy's verdicts). */
export function noteSummaryOf(ctx: NoteContext, user: AuthUser, facts: NoteSummaryFacts): NoteSummary {
  const { note } = ctx;
  const pendingForCaller = facts.signatures.some((s) => s.userId === user.userId && s.status === SIGNATURE_STATUS.pending);
  return {
    no: note.noteNo,
    projectNo: note.projectNo,
    title: note.title,
    labNoteNumber: note.labNoteNumber,
    version: note.version,
    status: note.status,
    writer: facts.writerId,
    name: facts.writerName,
    importedAuthors: note.importedAuthors ?? null,
    createdAt: note.createdAt.toISOString(),
    updatedAt: note.updatedAt.toISOString(),
    modifiers: facts.modifiers,
    signatureList: facts.signatures,
    // Whoever wrote in a note cannot review it (mayReview); the dialog offers them participant only.
    reviewersExcluded: facts.writers,
    template: facts.template,
    abilities: noteAbilities(user, ctx, pendingForCaller),
  };
}

/** A note's last saved version as the viewer shows it (no version yet: no blocks, nobody, never). */
export function viewerAnswerOf(
  note: NoteSummary,
  version: number,
  saved: { blocks: SavedBlock[]; savedAt: Date } | undefined,
  savedBy: string | null,
): ViewerAnswer {
  return { note, version, blockList: saved?.blocks ?? [], savedAt: saved?.savedAt.toISOString() ?? null, savedBy };
}
