import { eq } from 'drizzle-orm';
import { ERR, type api, type CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { hashPassword } from '../../auth/passwords.js';
import { revokeAllSessions } from '../../auth/sessions.js';
import { users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { fromAuthFlags } from '../flags.js';
import { canUpdateUser, UPDATE_REFUSALS } from '../policy.js';
import { toAdminUserRow, userAuditView } from '../presenters.js';
import { findUserWithDepartment, requireDepartment } from '../queries.js';
import { emitWebhook } from '../../webhooks/emit.js';

/**
 * Changes an account. Deactivation and a new password end the user's sessions; audited with the account
 * before and after (a new password only as `passwordChanged`).
 */
export async function updateUser(services: Services, actor: Actor, input: CallRequest<typeof api.users.update>): Promise<null> {
  const { db } = services;
  const existing = await findUserWithDepartment(db, input.userNo);
  if (!existing) throw new AppError(ERR.notFound);
  enforce(canUpdateUser(actor.user, existing.user, input), UPDATE_REFUSALS);
  await requireDepartment(db, input.departmentCode);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  // Deactivation and a new password end the user's sessions, a lower level can hide projects: the
  // user's open live connections are checked against the change now, not at their next check.
  await services.live.transaction(db, async (tx, commands) => {
    const [updated] = await tx
      .update(users)
      .set({
        name: input.name,
        employeeNo: input.employeeNo === undefined ? undefined : input.employeeNo || null,
        phone: input.phone === undefined ? undefined : input.phone || null,
        departmentCode: input.departmentCode === undefined ? undefined : input.departmentCode,
        level: input.level,
        active: input.active,
        ...(input.auth ? fromAuthFlags(input.auth) : {}),
        ...(passwordHash ? { passwordHash, passwordChangedAt: new Date() } : {}),
        updatedAt: new Date(),
      })
      .where(eq(users.userNo, input.userNo))
      .returning();
    if (!updated) throw new AppError(ERR.notFound);
    if (updated.active === false || passwordHash) {
      await revokeAllSessions(tx, updated.userNo, passwordHash ? 'password set by an administrator' : 'deactivated');
    }
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'user.updated',
      target: { type: 'user', id: updated.userId },
      before: userAuditView(toAdminUserRow(existing.user, existing.departmentName)),
      after: { ...userAuditView(toAdminUserRow(updated, null)), ...(passwordHash ? { passwordChanged: true } : {}) },
    });
    if (existing.user.active && !updated.active)
      await emitWebhook(tx, {
        event: 'user.deactivated',
        projectNo: null,
        data: { userNos: [updated.userNo], deactivatedByUserNo: actor.user.userNo, byDirectory: false },
      });
    commands.recheckUsers([input.userNo]);
  });
  return null;
}
