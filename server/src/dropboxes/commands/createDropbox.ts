import { checkDropboxRows, ERR, type CallRequest, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { dropboxes } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canManageDropboxes, MANAGE_REFUSALS } from '../policy.js';
import { replaceRows, titleTaken } from '../queries.js';
import { refuseDuplicateTitle, requireStorable } from './rows.js';

/** A new dropbox with the rows an import preview read, checked again here; audited with its rows. */
export async function createDropbox(
  { db }: Services,
  actor: Actor,
  input: CallRequest<typeof api.dropboxes.create>,
): Promise<{ dropboxNo: number }> {
  enforce(canManageDropboxes(actor.user), MANAGE_REFUSALS);
  if (await titleTaken(db, input.title)) throw new AppError(ERR.dropboxDuplicate);
  const rows = requireStorable(checkDropboxRows(input.rows));
  return db
    .transaction(async (tx) => {
      const [created] = await tx
        .insert(dropboxes)
        .values({ title: input.title, status: input.status, createdByUserNo: actor.user.userNo, updatedByUserNo: actor.user.userNo })
        .returning();
      if (!created) throw new Error('dropbox insert returned nothing');
      await replaceRows(tx, created.dropboxNo, rows);
      await appendAudit(tx, {
        ...auditedActor(actor),
        action: 'dropbox.created',
        target: { type: 'dropbox', id: created.dropboxNo },
        after: { title: created.title, status: created.status, rows },
      });
      return { dropboxNo: created.dropboxNo };
    })
    .catch(refuseDuplicateTitle);
}
