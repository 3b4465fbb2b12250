import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  ERR,
  SCHEMA_STATUS,
  type SchemaBlockAttrs,
  schemaAllRequest,
  schemaCreateRequest,
  schemaListRequest,
  schemaNoRequest,
  schemaThumbnailRequest,
  schemaTypeNoRequest,
  schemaUpdateRequest,
  type SchemaBasicOffer,
  type SchemaChild,
  type SchemaThumbnailAnswer,
  type SchemaTypeSummary,
} from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { isUniqueViolation } from '../db/errors.js';
import { files, schemas, schemaTypes } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import { enforce } from '../http/verdicts.js';
import type { Services } from '../services.js';
import { canCopySchema, canManageSchemas, COPY_REFUSALS, MANAGE_REFUSALS } from './policy.js';
import {
  basicSchemasOf,
  childOf,
  entriesOf,
  listSchemaTypes,
  requireReadableSchema,
  requireReadableSchemaType,
  schemaTypeClash,
  schemaTypeDetail,
  thumbnailOf,
  usedSchemaTypes,
} from './queries.js';
import { insertSchema, replaceSchemas } from './store.js';

/** The type's code or title already taken by another type: each has its own code, so the form marks the right field. */
async function refuseClash(q: Queryable, fields: { code: string; title: string }, exceptNo?: number): Promise<void> {
  const clash = await schemaTypeClash(q, fields, exceptNo);
  if (clash === 'code') throw new AppError(ERR.schemaCodeDuplicate);
  if (clash === 'title') throw new AppError(ERR.schemaTitleDuplicate);
}

/**
 * A unique index refusing what the check before it let through (a type created or renamed meanwhile):
 * the same answers as the check, so the form marks the right field.
 */
async function refuseRacedClash(q: Queryable, error: unknown, fields: { code: string; title: string }, exceptNo?: number): Promise<never> {
  if (!isUniqueViolation(error)) throw error;
  await refuseClash(q, fields, exceptNo);
  throw new AppError(ERR.duplicate);
}

async function lockSchemaType(tx: Queryable, schemasTypeNo: number) {
  const [locked] = await tx.select().from(schemaTypes).where(eq(schemaTypes.schemasTypeNo, schemasTypeNo)).for('update');
  if (!locked) throw new AppError(ERR.schemaCheck);
  return locked;
}

const basicInfo = (type: { code: string; title: string; description: string; status: 'Y' | 'N' }) => ({
  code: type.code,
  title: type.title,
  description: type.description,
  status: type.status,
});

/** Schemas: the lab's catalogues, managed by users with the schema flag, read by everyone when used. */
export function registerSchemaRoutes(app: FastifyInstance, services: Services): void {
  const { db, config, fileLinks } = services;
  const manage = (user: AuthUser) => enforce(canManageSchemas(user), MANAGE_REFUSALS);

  defineRoute(app, services, {
    path: '/v1/schema/list',
    access: 'user',
    failure: ERR.schemaLookup,
    body: schemaListRequest,
    handler: ({ body, user }) => listSchemaTypes(db, user, body, config.timeZone, fileLinks),
  });

  defineRoute(app, services, {
    path: '/v1/schema/check',
    access: 'user',
    failure: ERR.schemaLookup,
    body: schemaTypeNoRequest,
    async handler({ body, user }) {
      return schemaTypeDetail(db, user, await requireReadableSchemaType(db, user, body.schemasTypeNo), fileLinks);
    },
  });

  defineRoute(app, services, {
    path: '/v1/schema/all',
    access: 'user',
    failure: ERR.schemaLookup,
    body: schemaAllRequest,
    handler: async ({ user }): Promise<{ list: SchemaTypeSummary[] }> => ({ list: await usedSchemaTypes(db, user, fileLinks) }),
  });

  defineRoute(app, services, {
    path: '/v1/schema/basic/all',
    access: 'user',
    failure: ERR.schemaLookup,
    body: schemaTypeNoRequest,
    async handler({ body, user }): Promise<{ list: SchemaBasicOffer[] }> {
      const type = await requireReadableSchemaType(db, user, body.schemasTypeNo);
      const list = await basicSchemasOf(db, user, body.schemasTypeNo, fileLinks);
      return { list: list.map((schema) => ({ ...schema, copyable: canCopySchema(type, schema) === 'allowed' })) };
    },
  });

  defineRoute(app, services, {
    path: '/v1/schema/block',
    access: 'user',
    failure: ERR.schemaLookup,
    body: schemaNoRequest,
    async handler({ body, user }): Promise<SchemaBlockAttrs> {
      const schema = await requireReadableSchema(db, user, body.schemaNo);
      const [type] = await db.select().from(schemaTypes).where(eq(schemaTypes.schemasTypeNo, schema.schemasTypeNo));
      enforce(type ? canCopySchema(type, schema) : 'notOffered', COPY_REFUSALS);
      const entries = (await entriesOf(db, user, [schema.schemaNo])).get(schema.schemaNo) ?? [];
      const copy = {
        schemasTypeNo: schema.schemasTypeNo,
        schemaNo: schema.schemaNo,
        typeTitle: type!.title,
        title: schema.title,
        revision: schema.revision,
        entries: entries.filter((entry) => entry.status === SCHEMA_STATUS.used).map(({ field, value }) => ({ field, value })),
      };
      return services.catalogueSeals.seal('schemaBlock', copy);
    },
  });

  defineRoute(app, services, {
    path: '/v1/schema/attr/all',
    access: 'user',
    failure: ERR.schemaLookup,
    body: schemaNoRequest,
    async handler({ body, user }): Promise<SchemaChild> {
      const schema = await requireReadableSchema(db, user, body.schemaNo);
      const entries = await entriesOf(db, user, [schema.schemaNo]);
      return childOf(schema, entries.get(schema.schemaNo) ?? [], fileLinks);
    },
  });

  defineRoute(app, services, {
    path: '/v1/schema/create',
    access: 'user',
    body: schemaCreateRequest,
    async handler({ body, user, clientAddress }) {
      manage(user);
      await refuseClash(db, body);
      return db
        .transaction(async (tx) => {
          const [created] = await tx
            .insert(schemaTypes)
            .values({ ...basicInfo(body), createdByUserNo: user.userNo, updatedByUserNo: user.userNo })
            .returning();
          if (!created) throw new Error('schema type insert returned nothing');
          const added = [];
          for (const [position, child] of body.schemas.entries())
            added.push(await insertSchema(tx, created.schemasTypeNo, position, child));
          await appendAudit(tx, {
            actor: user,
            action: 'schema.created',
            target: { type: 'schemaType', id: created.schemasTypeNo },
            after: { ...basicInfo(created), revision: created.revision, schemas: added },
            clientAddress,
          });
          return { schemasTypeNo: created.schemasTypeNo };
        })
        .catch((error: unknown) => refuseRacedClash(db, error, body));
    },
  });

  defineRoute(app, services, {
    path: '/v1/schema/update',
    access: 'user',
    body: schemaUpdateRequest,
    async handler({ body, user, clientAddress }) {
      manage(user);
      await requireReadableSchemaType(db, user, body.schemasTypeNo);
      await refuseClash(db, body, body.schemasTypeNo);
      return db
        .transaction(async (tx) => {
          const before = await lockSchemaType(tx, body.schemasTypeNo);
          if (before.revision !== body.revision) throw new AppError(ERR.conflict);
          const existing = (await schemaTypeDetail(tx, user, before, fileLinks)).schemas;
          const changes = await replaceSchemas(tx, before.schemasTypeNo, existing, body.schemas);
          const infoChanged = JSON.stringify(basicInfo(before)) !== JSON.stringify(basicInfo(body));
          const orderChanged = existing.map((s) => s.schemaNo).join() !== body.schemas.map((s) => s.schemaNo ?? 'new').join();
          if (!infoChanged && !orderChanged && changes.before.length === 0 && changes.after.length === 0)
            return { revision: before.revision };
          const revision = before.revision + 1;
          await tx
            .update(schemaTypes)
            .set({ ...basicInfo(body), revision, updatedByUserNo: user.userNo, updatedAt: new Date() })
            .where(eq(schemaTypes.schemasTypeNo, before.schemasTypeNo));
          await appendAudit(tx, {
            actor: user,
            action: 'schema.updated',
            target: { type: 'schemaType', id: before.schemasTypeNo },
            before: { ...basicInfo(before), revision: before.revision, schemas: changes.before },
            after: { ...basicInfo(body), revision, schemas: changes.after },
            clientAddress,
          });
          return { revision };
        })
        .catch((error: unknown) => refuseRacedClash(db, error, body, body.schemasTypeNo));
    },
  });
  /**
   * Sets or clears the thumbnail of a type, or of one of its schemas: an image uploaded for exactly that
   * owner (`/v1/common/file/add` with `schemasTypeNo` and `schemaNo`), whose small copy lists show.
   * Display only: the revision notes record stays as it is. Audited with before and after.
   */
  defineRoute(app, services, {
    path: '/v1/schema/thumbnail',
    access: 'user',
    body: schemaThumbnailRequest,
    async handler({ body, user, clientAddress }): Promise<SchemaThumbnailAnswer> {
      manage(user);
      await requireReadableSchemaType(db, user, body.schemasTypeNo);
      return db.transaction(async (tx) => {
        const type = await lockSchemaType(tx, body.schemasTypeNo);
        const [schema] =
          body.schemaNo === null
            ? []
            : await tx
                .select()
                .from(schemas)
                .where(and(eq(schemas.schemaNo, body.schemaNo), eq(schemas.schemasTypeNo, type.schemasTypeNo)));
        if (body.schemaNo !== null && !schema) throw new AppError(ERR.schemaForeign);
        const owner = schema ?? type;
        let next = { thumbnailFileId: null as string | null, thumbnailSmallFileId: null as string | null };
        if (body.fileId !== null) {
          const [file] = await tx.select().from(files).where(eq(files.fileId, body.fileId));
          // Only an original image uploaded for this very type or schema (its small copy is the server's).
          const fits =
            file &&
            file.kind === 'image' &&
            file.smallFileId !== null &&
            file.schemasTypeNo === type.schemasTypeNo &&
            file.schemaNo === body.schemaNo;
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
            .set({ ...next, updatedByUserNo: user.userNo, updatedAt: now })
            .where(eq(schemaTypes.schemasTypeNo, type.schemasTypeNo));
        await appendAudit(tx, {
          actor: user,
          action: 'schema.thumbnail',
          target: { type: 'schemaType', id: type.schemasTypeNo },
          before: { schemaNo: body.schemaNo, fileId: owner.thumbnailFileId, smallFileId: owner.thumbnailSmallFileId },
          after: { schemaNo: body.schemaNo, fileId: next.thumbnailFileId, smallFileId: next.thumbnailSmallFileId },
          clientAddress,
        });
        return { thumbnail: thumbnailOf(next, fileLinks) };
      });
    },
  });
}
