import { eq } from 'drizzle-orm';
import { ERR, type CallRequest, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { templates } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canManageTemplates, canRenameTemplate, MANAGE_REFUSALS, RENAME_REFUSALS } from '../policy.js';
import { requireReadableTemplate, titleTaken } from '../queries.js';
import { refusingDuplicateTitles } from './titles.js';

/**
 * Changes a template's title and description (its author or an administrator, whatever its state), audited
 * with the old and new; the same title again changes nothing.
 */
export async function renameTemplate({ db }: Services, actor: Actor, input: CallRequest<typeof api.templates.rename>): Promise<null> {
  enforce(canManageTemplates(actor.user), MANAGE_REFUSALS);
  const template = await requireReadableTemplate(db, actor.user, input.templateNo);
  enforce(canRenameTemplate(actor.user, template), RENAME_REFUSALS);
  if (await titleTaken(db, input.title, template.templateNo)) throw new AppError(ERR.templateDuplicate);
  const description = input.description ?? template.description;
  if (template.title === input.title && template.description === description) return null;
  await refusingDuplicateTitles(() =>
    db.transaction(async (tx) => {
      await tx
        .update(templates)
        .set({ title: input.title, description, updatedAt: new Date() })
        .where(eq(templates.templateNo, template.templateNo));
      await appendAudit(tx, {
        ...auditedActor(actor),
        action: 'template.renamed',
        target: { type: 'template', id: template.templateNo },
        before: { title: template.title, description: template.description },
        after: { title: input.title, description },
      });
    }),
  );
  return null;
}
