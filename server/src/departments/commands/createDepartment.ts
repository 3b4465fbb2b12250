import { ERR, type CallAnswer, type CallRequest, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { departments } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { findDepartment } from '../queries.js';

/** A new department of the company, at the top or under an existing parent; audited with what it holds. */
export async function createDepartment(
  { db, config }: Services,
  actor: Actor,
  input: CallRequest<typeof api.departments.create>,
): Promise<CallAnswer<typeof api.departments.create>> {
  if (await findDepartment(db, input.code)) throw new AppError(ERR.departmentDuplicate);
  if (input.parentCode && !(await findDepartment(db, input.parentCode))) throw new AppError(ERR.departmentMissing);
  return db.transaction(async (tx) => {
    // A department of the same code made meanwhile: the insert does nothing, and the duplicate is refused.
    const [created] = await tx
      .insert(departments)
      .values({ code: input.code, name: input.name, parentCode: input.parentCode ?? null, companyCode: config.company.code })
      .onConflictDoNothing()
      .returning();
    if (!created) throw new AppError(ERR.departmentDuplicate);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'department.created',
      target: { type: 'department', id: created.code },
      after: { code: created.code, name: created.name, parentCode: created.parentCode },
    });
    return { code: created.code };
  });
}
