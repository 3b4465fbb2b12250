import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { createSchemaType } from './commands/createSchemaType.js';
import { setSchemaThumbnail } from './commands/setSchemaThumbnail.js';
import { updateSchemaType } from './commands/updateSchemaType.js';
import { listSchemaTypes, openSchemaType, schemaOffers, schemaWithEntries, sealedSchemaCopy, usedSchemaTypes } from './queries.js';

/** Schemas: the lab's catalogues, managed by users with the schema flag, read by everyone when used. */
export function schemaRoutes(services: Services) {
  const { db, config, fileLinks } = services;
  return bindCalls(api.schemas, {
    list: ({ body, user }) => listSchemaTypes(db, user, body, config.timeZone, fileLinks),
    detail: ({ body, user }) => openSchemaType(db, user, body.schemasTypeNo, fileLinks),
    usedTypes: async ({ user }) => ({ list: await usedSchemaTypes(db, user, fileLinks) }),
    childList: async ({ body, user }) => ({ list: await schemaOffers(db, user, body.schemasTypeNo, fileLinks) }),
    blockCopy: ({ body, user }) => sealedSchemaCopy(services, user, body.schemaNo),
    childDetail: ({ body, user }) => schemaWithEntries(db, user, body.schemaNo, fileLinks),
    create: ({ body, actor }) => createSchemaType(services, actor, body),
    update: ({ body, actor }) => updateSchemaType(services, actor, body),
    setThumbnail: ({ body, actor }) => setSchemaThumbnail(services, actor, body),
  });
}
