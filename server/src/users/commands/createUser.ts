import { ERR, type api, type CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { hashPassword } from '../../auth/passwords.js';
import { users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { fromAuthFlags } from '../flags.js';
import { canManageUsers, MANAGE_REFUSALS } from '../policy.js';
import { toAdminUserRow, userAuditView } from '../presenters.js';
import { requireDepartment } from '../queries.js';

/** A new account with its level, flags and department; audited with what it holds (never the password). */
export async function createUser({ db }: Services, actor: Actor, input: CallRequest<typeof api.users.create>): Promise<{ userNo: number }> {
  enforce(canManageUsers(actor.user), MANAGE_REFUSALS);
  await requireDepartment(db, input.departmentCode);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(users)
      .values({
        userId: input.userId,
        name: input.name,
        passwordHash,
        employeeNo: input.employeeNo || null,
        phone: input.phone || null,
        departmentCode: input.departmentCode ?? null,
        level: input.level,
        active: input.active,
        ...fromAuthFlags(input.auth),
      })
      .onConflictDoNothing()
      .returning();
    if (!created) throw new AppError(ERR.userDuplicate);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'user.created',
      target: { type: 'user', id: created.userId },
      after: userAuditView(toAdminUserRow(created, null)),
    });
    return { userNo: created.userNo };
  });
}
