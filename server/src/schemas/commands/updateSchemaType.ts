import { eq } from 'drizzle-orm';
import { ERR, type CallRequest, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { schemaTypes } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canManageSchemas, MANAGE_REFUSALS } from '../policy.js';
import { basicInfo } from '../presenters.js';
import { lockSchemaType, requireReadableSchemaType, schemaTypeDetail } from '../queries.js';
import { replaceSchemas } from '../store.js';
import { refuseClash, refuseRacedClash } from './clashes.js';

/**
 * Makes a schema type, its schemas and their entries what the editor sent, if nobody changed the type
 * since the revision the editor loaded (9006 otherwise). Nothing changed answers the same revision and
 * records nothing; otherwise the revision goes up by one, audited with what changed on each side.
 */
export async function updateSchemaType(
  { db, fileLinks }: Services,
  actor: Actor,
  input: CallRequest<typeof api.schemas.update>,
): Promise<{ revision: number }> {
  enforce(canManageSchemas(actor.user), MANAGE_REFUSALS);
  await requireReadableSchemaType(db, actor.user, input.schemasTypeNo);
  await refuseClash(db, input, input.schemasTypeNo);
  return db
    .transaction(async (tx) => {
      const before = await lockSchemaType(tx, input.schemasTypeNo);
      if (before.revision !== input.revision) throw new AppError(ERR.conflict);
      const existing = (await schemaTypeDetail(tx, actor.user, before, fileLinks)).schemas;
      const changes = await replaceSchemas(tx, before.schemasTypeNo, existing, input.schemas);
      const infoChanged = JSON.stringify(basicInfo(before)) !== JSON.stringify(basicInfo(input));
      const orderChanged = existing.map((s) => s.schemaNo).join() !== input.schemas.map((s) => s.schemaNo ?? 'new').join();
      if (!infoChanged && !orderChanged && changes.before.length === 0 && changes.after.length === 0) return { revision: before.revision };
      const revision = before.revision + 1;
      await tx
        .update(schemaTypes)
        .set({ ...basicInfo(input), revision, updatedByUserNo: actor.user.userNo, updatedAt: new Date() })
        .where(eq(schemaTypes.schemasTypeNo, before.schemasTypeNo));
      await appendAudit(tx, {
        ...auditedActor(actor),
        action: 'schema.updated',
        target: { type: 'schemaType', id: before.schemasTypeNo },
        before: { ...basicInfo(before), revision: before.revision, schemas: changes.before },
        after: { ...basicInfo(input), revision, schemas: changes.after },
      });
      return { revision };
    })
    .catch((error: unknown) => refuseRacedClash(db, error, input, input.schemasTypeNo));
}
