import { ERR, SCHEMA_STATUS, type SchemaBlockAttrs, type SchemaChild } from '@eln/shared';
import { call, isApiError } from '../../api';

/** The entries a schema block copies from a schema: its used ones, field and value. */
export function blockFromSchema(schema: SchemaChild, typeTitle: string): SchemaBlockAttrs {
  return {
    schemasTypeNo: schema.schemasTypeNo,
    schemaNo: schema.schemaNo,
    typeTitle,
    title: schema.title,
    revision: schema.revision,
    entries: schema.entries.filter((entry) => entry.status === SCHEMA_STATUS.used).map(({ field, value }) => ({ field, value })),
  };
}

/** What the catalogue holds now for a block's schema: its latest revision, or `gone` when it can no longer be read. */
export type SchemaNow = { kind: 'current' } | { kind: 'newer'; schema: SchemaChild } | { kind: 'gone' } | { kind: 'unknown' };

export async function schemaNow(block: SchemaBlockAttrs, signal?: AbortSignal): Promise<SchemaNow> {
  try {
    const schema = await call<SchemaChild>('/v1/schema/attr/all', { schemaNo: block.schemaNo }, signal ? { signal } : undefined);
    return schema.revision > block.revision ? { kind: 'newer', schema } : { kind: 'current' };
  } catch (error) {
    return isApiError(error) && error.status === ERR.schemaCheck ? { kind: 'gone' } : { kind: 'unknown' };
  }
}
