import { eq } from 'drizzle-orm';
import { ERR, type CallRequest, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { dropboxes } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canManageDropboxes, MANAGE_REFUSALS } from '../policy.js';
import { lockDropbox, titleTaken } from '../queries.js';
import { refuseDuplicateTitle } from './rows.js';

/** Changes a dropbox's title and status; unchanged ones record nothing. */
export async function updateDropbox({ db }: Services, actor: Actor, input: CallRequest<typeof api.dropboxes.update>): Promise<null> {
  enforce(canManageDropboxes(actor.user), MANAGE_REFUSALS);
  if (await titleTaken(db, input.title, input.dropboxNo)) throw new AppError(ERR.dropboxDuplicate);
  await db
    .transaction(async (tx) => {
      const before = await lockDropbox(tx, input.dropboxNo);
      if (before.title === input.title && before.status === input.status) return;
      await tx
        .update(dropboxes)
        .set({ title: input.title, status: input.status, updatedByUserNo: actor.user.userNo, updatedAt: new Date() })
        .where(eq(dropboxes.dropboxNo, input.dropboxNo));
      await appendAudit(tx, {
        ...auditedActor(actor),
        action: 'dropbox.updated',
        target: { type: 'dropbox', id: input.dropboxNo },
        before: { title: before.title, status: before.status },
        after: { title: input.title, status: input.status },
      });
    })
    .catch(refuseDuplicateTitle);
  return null;
}
