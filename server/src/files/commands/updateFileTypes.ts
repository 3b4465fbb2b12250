import type { api, CallRequest, FileTypesAnswer } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { extraFileTypes } from '../../db/schema.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { addedFileTypes, fileTypesAnswer } from '../fileTypes.js';
import { canUpdateFileTypes, TYPES_REFUSALS } from '../policy.js';

/**
 * Replaces the file types added to the spec's list, audited with the list before and after. Files already
 * stored stay whatever their type's fate: a removed type refuses new uploads only.
 */
export async function updateFileTypes(
  { db }: Services,
  actor: Actor,
  input: CallRequest<typeof api.files.updateTypes>,
): Promise<FileTypesAnswer> {
  enforce(canUpdateFileTypes(actor.user), TYPES_REFUSALS);
  return db.transaction(async (tx) => {
    const before = await addedFileTypes(tx);
    await tx.delete(extraFileTypes);
    if (input.types.length > 0) await tx.insert(extraFileTypes).values(input.types);
    const answer = await fileTypesAnswer(tx, actor.user);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'file.typesUpdated',
      target: { type: 'fileTypes', id: 'extra' },
      before: { types: before },
      after: { types: answer.extra },
    });
    return answer;
  });
}
