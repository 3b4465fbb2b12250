import { eq } from 'drizzle-orm';
import { ERR, type CallRequest, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { departments } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canPlaceDepartment, PLACE_REFUSALS } from '../policy.js';
import { ancestorsOf, findDepartment } from '../queries.js';

/** Renames a department (name) or moves it (parentCode; null moves it to the top); audited before and after. */
export async function updateDepartment({ db }: Services, actor: Actor, input: CallRequest<typeof api.departments.update>): Promise<null> {
  const before = await findDepartment(db, input.code);
  if (!before) throw new AppError(ERR.departmentMissing);
  const parentCode = input.parentCode === undefined ? before.parentCode : input.parentCode;
  if (parentCode) {
    if (!(await findDepartment(db, parentCode))) throw new AppError(ERR.departmentMissing);
    enforce(canPlaceDepartment(input.code, parentCode, await ancestorsOf(db, parentCode)), PLACE_REFUSALS);
  }
  await db.transaction(async (tx) => {
    const [after] = await tx
      .update(departments)
      .set({ name: input.name ?? before.name, parentCode, updatedAt: new Date() })
      .where(eq(departments.code, input.code))
      .returning();
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'department.updated',
      target: { type: 'department', id: input.code },
      before: { name: before.name, parentCode: before.parentCode },
      after: { name: after?.name, parentCode: after?.parentCode },
    });
  });
  return null;
}
