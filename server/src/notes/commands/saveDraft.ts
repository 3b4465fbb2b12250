import { ERR, type api, type CallRequest, type TempAnswer } from '@eln/shared';
import type { Actor } from '../../auth/authUser.js';
import { AppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { checkClientListAfterAnswer } from '../clientList.js';
import { assertContentRules } from '../contentCheck.js';
import { storeDraft, tempAnswer } from '../drafts.js';
import { currentBlocks, requireWritableNote } from '../queries.js';

/**
 * A temp save (`/note/temp`): the server's own copy of the live document, derived into blocks and checked
 * against the content rules, becomes the note's draft. Every few seconds of typing sends one, so it does
 * what it must and no more: the client's list is compared only after the answer has gone out.
 */
export async function saveDraft(services: Services, actor: Actor, input: CallRequest<typeof api.notes.saveDraft>): Promise<TempAnswer> {
  const ctx = await requireWritableNote(services.db, actor.user, input.labNoteNo);
  try {
    const { content, saved, blocks, changed } = await currentBlocks(services, ctx);
    assertContentRules(content, saved);
    const savedAt = new Date();
    await storeDraft(services.draftsDb, ctx.note.noteNo, blocks, actor.user.userNo, savedAt);
    // Scheduled last: nothing awaits between here and the answer going out, so it runs after.
    checkClientListAfterAnswer(services, ctx.note.noteNo, input.blockList, blocks);
    return tempAnswer(blocks, changed, savedAt);
  } catch (error) {
    if (error instanceof AppError) throw error;
    services.log.error({ err: error, noteNo: ctx.note.noteNo }, 'temporary save failed');
    throw new AppError(ERR.noteTemp);
  }
}
