import { ERR, noteDocumentName, type api, type CallAnswer, type CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { isUniqueViolation } from '../../db/errors.js';
import { documentUpdates, labNotes } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import { canCreateNote, CREATE_NOTE_REFUSALS } from '../../projects/policy.js';
import { requireReadableProject } from '../../projects/queries.js';
import type { Services } from '../../services.js';
import { initialNoteState, templateStart } from '../../templates/noteStart.js';
import { nextLabNoteNumber } from '../labNoteNumbers.js';
import { recordNoteWriter } from '../writers.js';
import { emitWebhook } from '../../webhooks/emit.js';

/**
 * A new note in a project the caller takes part in, blank or started from a template's approved version,
 * numbered in the year's sequence; its creator is its first writer. A title taken in the project answers 2018.
 */
export async function createNote(
  { db, config }: Services,
  actor: Actor,
  input: CallRequest<typeof api.notes.create>,
): Promise<CallAnswer<typeof api.notes.create>> {
  const { user } = actor;
  const { project, participant } = await requireReadableProject(db, user, input.projectNo);
  enforce(canCreateNote(project, participant), CREATE_NOTE_REFUSALS);
  const origin = input.templateNo === undefined ? null : await templateStart(db, user, input.templateNo);
  try {
    return await db.transaction(async (tx) => {
      const [note] = await tx
        .insert(labNotes)
        .values({
          projectNo: project.projectNo,
          title: input.title,
          labNoteNumber: await nextLabNoteNumber(tx, config.timeZone),
          writerUserNo: user.userNo,
          templateNo: origin?.templateNo ?? null,
          templateRevision: origin?.revision ?? null,
        })
        .returning();
      if (!note) throw new Error('note insert returned nothing');
      await recordNoteWriter(tx, note.noteNo, user.userNo);
      // The template's approved content becomes the note's first live state; later template versions do not touch it.
      if (origin)
        await tx
          .insert(documentUpdates)
          .values({ documentName: noteDocumentName(note.noteNo), update: await initialNoteState(tx, origin, note.noteNo) });
      await appendAudit(tx, {
        ...auditedActor(actor),
        action: 'note.created',
        target: { type: 'note', id: note.noteNo },
        after: {
          projectNo: project.projectNo,
          title: note.title,
          labNoteNumber: note.labNoteNumber,
          ...(origin
            ? {
                template: {
                  templateNo: origin.templateNo,
                  version: origin.version,
                  revision: origin.revision,
                  blocksHash: origin.blocksHash,
                },
              }
            : {}),
        },
      });
      await emitWebhook(tx, {
        event: 'note.created',
        projectNo: project.projectNo,
        noteNo: note.noteNo,
        data: {
          projectNo: project.projectNo,
          labNoteNo: note.noteNo,
          labNoteNumber: note.labNoteNumber,
          writerUserNo: user.userNo,
          templateNo: origin?.templateNo ?? null,
        },
      });
      return { labNoteNo: note.noteNo, labNoteNumber: note.labNoteNumber };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(ERR.noteDuplicate);
    throw error;
  }
}
