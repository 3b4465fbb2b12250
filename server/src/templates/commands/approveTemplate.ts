import { and, eq, isNull } from 'drizzle-orm';
import {
  AUDIT_SYSTEM_REASONS,
  compareTemplateVersions,
  ERR,
  parseTemplateVersion,
  TEMPLATE_STATE,
  templateVersionRefusal,
  type CallAnswer,
  type CallRequest,
  type api,
} from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { confirmPassword } from '../../auth/passwordConfirmation.js';
import { templateDrafts, templateRevisions, templates } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { notify } from '../../notifications/notify.js';
import { APPROVE_REFUSALS, canApproveTemplate } from '../policy.js';
import { lastApprovedVersion, lockTemplate, requireReadableTemplate, waitingRevision } from '../queries.js';
import { emitWebhook } from '../../webhooks/emit.js';

/**
 * Approves the waiting revision under a version: by a manager who is not the author, did not write in it
 * and did not check it in, with their password, under a version greater (as a decimal) than every one
 * approved before; the version is kept as typed. The previous approved version is marked superseded. Two
 * racing approvers make one winner.
 */
export async function approveTemplate(
  services: Services,
  actor: Actor,
  input: CallRequest<typeof api.templates.approve>,
): Promise<CallAnswer<typeof api.templates.approve>> {
  const { db } = services;
  const { user } = actor;
  const template = await requireReadableTemplate(db, user, input.templateNo);
  const waiting = await waitingRevision(db, template);
  enforce(canApproveTemplate(user, template, waiting), APPROVE_REFUSALS);
  if (input.revision !== template.revision) throw new AppError(ERR.conflict, { data: { revision: template.revision } });
  const version = parseTemplateVersion(input.version);
  if (!version) throw new AppError(templateVersionRefusal(input.version));
  const last = await lastApprovedVersion(db, template);
  if (last && compareTemplateVersions(version, last) <= 0) throw new AppError(ERR.templateVersionNotGreater, { params: { last } });
  await confirmPassword(services, user, input.password, `approve:${user.userId}`, async (tx) => {
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'template.approvalFailed',
      target: { type: 'template', id: template.templateNo },
      reason: AUDIT_SYSTEM_REASONS.wrongPassword,
    });
  });
  return db.transaction(async (tx) => {
    const locked = await lockTemplate(tx, template.templateNo, 'update');
    if (locked?.state !== TEMPLATE_STATE.checking || locked.revision !== input.revision || locked.deletedAt)
      throw new AppError(ERR.templateNotChecking);
    const at = new Date();
    const [approved] = await tx
      .update(templateRevisions)
      .set({ version, approvedByUserNo: user.userNo, approvedAt: at })
      .where(
        and(
          eq(templateRevisions.templateNo, template.templateNo),
          eq(templateRevisions.revision, input.revision),
          isNull(templateRevisions.approvedAt),
        ),
      )
      .returning();
    if (!approved) throw new AppError(ERR.templateNotChecking);
    const superseded =
      locked.approvedRevision === null
        ? undefined
        : await tx
            .update(templateRevisions)
            .set({ supersededAt: at })
            .where(and(eq(templateRevisions.templateNo, template.templateNo), eq(templateRevisions.revision, locked.approvedRevision)))
            .returning({ version: templateRevisions.version })
            .then(([row]) => row);
    await tx
      .update(templates)
      .set({ state: TEMPLATE_STATE.approved, approvedRevision: input.revision, updatedAt: at })
      .where(eq(templates.templateNo, template.templateNo));
    await tx.delete(templateDrafts).where(eq(templateDrafts.templateNo, template.templateNo));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'template.approved',
      target: { type: 'template', id: template.templateNo },
      before: { state: TEMPLATE_STATE.checking, version: superseded?.version ?? null },
      after: {
        state: TEMPLATE_STATE.approved,
        version,
        revision: input.revision,
        blocksHash: approved.blocksHash,
        superseded: superseded?.version ?? null,
        at: at.toISOString(),
      },
    });
    await notify(tx, {
      event: 'templateApproved',
      recipients: [template.authorUserNo],
      actorUserNo: user.userNo,
      templateNo: template.templateNo,
      payload: { version },
    });
    await emitWebhook(tx, {
      event: 'template.approved',
      projectNo: null,
      data: {
        templateNo: template.templateNo,
        version,
        revision: input.revision,
        approvedByUserNo: user.userNo,
        authorUserNo: template.authorUserNo,
      },
    });
    return { version, blocksHash: approved.blocksHash };
  });
}
