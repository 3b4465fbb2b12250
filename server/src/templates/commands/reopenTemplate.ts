import { eq } from 'drizzle-orm';
import { TEMPLATE_STATE, type CallRequest, type TemplateDetail, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { templates } from '../../db/schema.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canEditTemplate, EDIT_REFUSALS } from '../policy.js';
import { lastApprovedVersion, lockTemplate, requireReadableTemplate, templateDetail } from '../queries.js';

/**
 * Starts a new draft from an approved template: its state turns back to draft, so that its live document
 * may be written again, while its approved versions stay as they are (notes keep being made from the
 * latest until the next approval). A draft stays a draft, unchanged; a checked-in template answers 7003.
 * Answers the template as it is now.
 */
export async function reopenTemplate(
  { db }: Services,
  actor: Actor,
  input: CallRequest<typeof api.templates.reopen>,
): Promise<TemplateDetail> {
  const template = await requireReadableTemplate(db, actor.user, input.templateNo);
  enforce(canEditTemplate(actor.user, template), EDIT_REFUSALS);
  if (template.state === TEMPLATE_STATE.approved) {
    await db.transaction(async (tx) => {
      // Two reopening at once: the second finds a draft and changes nothing.
      const locked = await lockTemplate(tx, template.templateNo, 'update');
      if (locked?.state !== TEMPLATE_STATE.approved) return;
      await tx
        .update(templates)
        .set({ state: TEMPLATE_STATE.draft, updatedAt: new Date() })
        .where(eq(templates.templateNo, template.templateNo));
      const version = await lastApprovedVersion(tx, locked);
      await appendAudit(tx, {
        ...auditedActor(actor),
        action: 'template.reopened',
        target: { type: 'template', id: template.templateNo },
        before: { state: TEMPLATE_STATE.approved, version },
        after: { state: TEMPLATE_STATE.draft },
      });
    });
  }
  return templateDetail(db, actor.user, template.templateNo);
}
