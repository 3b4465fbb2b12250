import { withStatuses, type CallRequest, type TempAnswer, type api } from '@eln/shared';
import type { Actor } from '../../auth/authUser.js';
import { templateDrafts } from '../../db/schema.js';
import { enforce } from '../../http/verdicts.js';
import { checkClientListAfterAnswer } from '../../notes/clientList.js';
import { assertContentRules } from '../../notes/contentCheck.js';
import { tempAnswer } from '../../notes/drafts.js';
import type { Services } from '../../services.js';
import { liveDraft } from './draft.js';
import { canWriteTemplate, WRITE_REFUSALS } from '../policy.js';
import { requireReadableTemplate } from '../queries.js';

/**
 * The temporary save of a draft: the blocks of the server's copy of the live document, with their
 * statuses against the last approved version, kept until the draft is checked in (or its writer leaves).
 */
export async function tempSaveTemplate(
  services: Services,
  actor: Actor,
  input: CallRequest<typeof api.templates.tempSave>,
): Promise<TempAnswer> {
  const { db, live, draftsDb } = services;
  const { user } = actor;
  const template = await requireReadableTemplate(db, user, input.templateNo);
  enforce(canWriteTemplate(user, template), WRITE_REFUSALS);
  const { content, baseline, current, changed } = await liveDraft(db, live, template);
  assertContentRules(content, baseline);
  const blocks = withStatuses(current, baseline.blocks);
  const savedAt = new Date();
  // A draft is derived from the live document (stored synchronously): its commit need not wait for the disk.
  await draftsDb
    .insert(templateDrafts)
    .values({ templateNo: template.templateNo, blocks, savedByUserNo: user.userNo, savedAt })
    .onConflictDoUpdate({ target: templateDrafts.templateNo, set: { blocks, savedByUserNo: user.userNo, savedAt } });
  // Scheduled last: nothing awaits between here and the answer going out, so it runs after.
  checkClientListAfterAnswer(services, template.templateNo, input.blockList, blocks);
  return tempAnswer(blocks, changed, savedAt);
}
