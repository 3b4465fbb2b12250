import { ERR, type CallAnswer, type CallRequest, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { templates } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canManageTemplates, MANAGE_REFUSALS } from '../policy.js';
import { titleTaken } from '../queries.js';
import { refusingDuplicateTitles } from './titles.js';

/** A new template: an empty draft authored by the caller, audited with its title and description. */
export async function createTemplate(
  { db }: Services,
  actor: Actor,
  input: CallRequest<typeof api.templates.create>,
): Promise<CallAnswer<typeof api.templates.create>> {
  enforce(canManageTemplates(actor.user), MANAGE_REFUSALS);
  if (await titleTaken(db, input.title)) throw new AppError(ERR.templateDuplicate);
  return refusingDuplicateTitles(() =>
    db.transaction(async (tx) => {
      const [created] = await tx
        .insert(templates)
        .values({ title: input.title, description: input.description, authorUserNo: actor.user.userNo })
        .returning();
      if (!created) throw new Error('template insert returned nothing');
      await appendAudit(tx, {
        ...auditedActor(actor),
        action: 'template.created',
        target: { type: 'template', id: created.templateNo },
        after: { title: created.title, description: created.description },
      });
      return { templateNo: created.templateNo };
    }),
  );
}
