import { and, eq } from 'drizzle-orm';
import { ERR, TEMPLATE_STATE, type CallRequest, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { templateRevisions, templates } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { notify } from '../../notifications/notify.js';
import { APPROVE_REFUSALS, canApproveTemplate } from '../policy.js';
import { lockTemplate, requireReadableTemplate, waitingRevision } from '../queries.js';

/**
 * Sends the waiting revision back to its authors, saying why (by whoever may approve it): the revision is
 * marked returned with the reason, and the template is a draft again.
 */
export async function sendBackTemplate({ db }: Services, actor: Actor, input: CallRequest<typeof api.templates.sendBack>): Promise<null> {
  const template = await requireReadableTemplate(db, actor.user, input.templateNo);
  const waiting = await waitingRevision(db, template);
  enforce(canApproveTemplate(actor.user, template, waiting), APPROVE_REFUSALS);
  if (input.revision !== template.revision) throw new AppError(ERR.conflict, { data: { revision: template.revision } });
  await db.transaction(async (tx) => {
    const locked = await lockTemplate(tx, template.templateNo, 'update');
    if (locked?.state !== TEMPLATE_STATE.checking || locked.revision !== input.revision) throw new AppError(ERR.templateNotChecking);
    await tx
      .update(templateRevisions)
      .set({ returnedAt: new Date(), returnReason: input.reason })
      .where(and(eq(templateRevisions.templateNo, template.templateNo), eq(templateRevisions.revision, input.revision)));
    await tx
      .update(templates)
      .set({ state: TEMPLATE_STATE.draft, updatedAt: new Date() })
      .where(eq(templates.templateNo, template.templateNo));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'template.returned',
      target: { type: 'template', id: template.templateNo },
      before: { state: TEMPLATE_STATE.checking, revision: input.revision },
      after: { state: TEMPLATE_STATE.draft },
      reason: input.reason,
    });
    await notify(tx, {
      event: 'templateReturned',
      recipients: [template.authorUserNo],
      actorUserNo: actor.user.userNo,
      templateNo: template.templateNo,
      payload: { reason: input.reason },
    });
  });
  return null;
}
