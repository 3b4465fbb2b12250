import { and, eq } from 'drizzle-orm';
import { ERR, type CallRequest, type SchemaThumbnailAnswer, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { files, schemas, schemaTypes } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canManageSchemas, MANAGE_REFUSALS } from '../policy.js';
import { thumbnailOf } from '../presenters.js';
import { lockSchemaType, requireReadableSchemaType } from '../queries.js';

/**
 * Sets or clears the thumbnail of a type, or of one of its schemas: an image uploaded for exactly that
 * owner (`/v1/common/file/add` with `schemasTypeNo` and `schemaNo`), whose small copy lists show.
 * Display only: the revision notes record stays as it is. Audited with before and after.
 */
export async function setSchemaThumbnail(
  { db, fileLinks }: Services,
  actor: Actor,
  input: CallRequest<typeof api.schemas.setThumbnail>,
): Promise<SchemaThumbnailAnswer> {
  enforce(canManageSchemas(actor.user), MANAGE_REFUSALS);
  await requireReadableSchemaType(db, actor.user, input.schemasTypeNo);
  return db.transaction(async (tx) => {
    const type = await lockSchemaType(tx, input.schemasTypeNo);
    const [schema] =
      input.schemaNo === null
        ? []
        : await tx
            .select()
            .from(schemas)
            .where(and(eq(schemas.schemaNo, input.schemaNo), eq(schemas.schemasTypeNo, type.schemasTypeNo)));
    if (input.schemaNo !== null && !schema) throw new AppError(ERR.schemaForeign);
    const owner = schema ?? type;
    let next = { thumbnailFileId: null as string | null, thumbnailSmallFileId: null as string | null };
    if (input.fileId !== null) {
      const [file] = await tx.select().from(files).where(eq(files.fileId, input.fileId));
      // Only an original image uploaded for this very type or schema (its small copy is the server's).
      const fits =
        file &&
        file.kind === 'image' &&
        file.smallFileId !== null &&
        file.schemasTypeNo === type.schemasTypeNo &&
        file.schemaNo === input.schemaNo;
      if (!fits) throw new AppError(ERR.validation, { data: { fields: [{ field: 'fileId', reason: 'invalidValue' }] } });
      next = { thumbnailFileId: file.fileId, thumbnailSmallFileId: file.smallFileId };
    }
    if (owner.thumbnailFileId === next.thumbnailFileId) return { thumbnail: thumbnailOf(owner, fileLinks) };
    const now = new Date();
    if (schema)
      await tx
        .update(schemas)
        .set({ ...next, updatedAt: now })
        .where(eq(schemas.schemaNo, schema.schemaNo));
    else
      await tx
        .update(schemaTypes)
        .set({ ...next, updatedByUserNo: actor.user.userNo, updatedAt: now })
        .where(eq(schemaTypes.schemasTypeNo, type.schemasTypeNo));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'schema.thumbnail',
      target: { type: 'schemaType', id: type.schemasTypeNo },
      before: { schemaNo: input.schemaNo, fileId: owner.thumbnailFileId, smallFileId: owner.thumbnailSmallFileId },
      after: { schemaNo: input.schemaNo, fileId: next.thumbnailFileId, smallFileId: next.thumbnailSmallFileId },
    });
    return { thumbnail: thumbnailOf(next, fileLinks) };
  });
}
