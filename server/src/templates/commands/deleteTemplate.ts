import { and, eq, isNull } from 'drizzle-orm';
import { ERR, templateDocumentName, type CallRequest, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { templateDrafts, templates } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canDeleteTemplate, canManageTemplates, DELETE_REFUSALS, MANAGE_REFUSALS } from '../policy.js';
import { lastApprovedVersion, requireReadableTemplate } from '../queries.js';

/**
 * Retires a template (its author or an administrator), never erases it: its approved versions stay, and
 * notes made from it keep pointing at them. Open editors of its draft close now.
 */
export async function deleteTemplate({ db, live }: Services, actor: Actor, input: CallRequest<typeof api.templates.delete>): Promise<null> {
  enforce(canManageTemplates(actor.user), MANAGE_REFUSALS);
  const template = await requireReadableTemplate(db, actor.user, input.templateNo);
  enforce(canDeleteTemplate(actor.user, template), DELETE_REFUSALS);
  await live.transaction(db, async (tx, commands) => {
    const [deleted] = await tx
      .update(templates)
      .set({ deletedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(templates.templateNo, template.templateNo), isNull(templates.deletedAt)))
      .returning();
    if (!deleted) throw new AppError(ERR.templateDelete);
    await tx.delete(templateDrafts).where(eq(templateDrafts.templateNo, template.templateNo));
    const version = await lastApprovedVersion(tx, template);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'template.deleted',
      target: { type: 'template', id: template.templateNo },
      before: { title: template.title, state: template.state, version },
    });
    commands.close(templateDocumentName(template.templateNo));
  });
  return null;
}
