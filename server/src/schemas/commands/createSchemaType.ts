import type { CallRequest, api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { schemaTypes } from '../../db/schema.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canManageSchemas, MANAGE_REFUSALS } from '../policy.js';
import { basicInfo } from '../presenters.js';
import { insertSchema } from '../store.js';
import { refuseClash, refuseRacedClash } from './clashes.js';

/** A new schema type with its schemas and their entries, stored all or nothing; audited with what it holds. */
export async function createSchemaType(
  { db }: Services,
  actor: Actor,
  input: CallRequest<typeof api.schemas.create>,
): Promise<{ schemasTypeNo: number }> {
  enforce(canManageSchemas(actor.user), MANAGE_REFUSALS);
  await refuseClash(db, input);
  return db
    .transaction(async (tx) => {
      const [created] = await tx
        .insert(schemaTypes)
        .values({ ...basicInfo(input), createdByUserNo: actor.user.userNo, updatedByUserNo: actor.user.userNo })
        .returning();
      if (!created) throw new Error('schema type insert returned nothing');
      const added = [];
      for (const [position, child] of input.schemas.entries()) added.push(await insertSchema(tx, created.schemasTypeNo, position, child));
      await appendAudit(tx, {
        ...auditedActor(actor),
        action: 'schema.created',
        target: { type: 'schemaType', id: created.schemasTypeNo },
        after: { ...basicInfo(created), revision: created.revision, schemas: added },
      });
      return { schemasTypeNo: created.schemasTypeNo };
    })
    .catch((error: unknown) => refuseRacedClash(db, error, input));
}
