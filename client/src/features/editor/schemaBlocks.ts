import { api, ERR, type SchemaBlockAttrs } from '@eln/shared';
import { call, isApiError } from '../../api';

/** The server's sealed copy of a schema for a note's schema block: its used entries as they are now. */
function schemaCopy(schemaNo: number, signal?: AbortSignal): Promise<SchemaBlockAttrs> {
  return call(api.schemas.blockCopy, { schemaNo }, signal ? { signal } : undefined);
}

/** What the catalogue offers now for a block's schema: a newer revision, the same, or nothing (no longer offered). */
export type SchemaNow = { kind: 'current' } | { kind: 'newer'; copy: SchemaBlockAttrs } | { kind: 'gone' } | { kind: 'unknown' };

export async function schemaNow(block: SchemaBlockAttrs, signal?: AbortSignal): Promise<SchemaNow> {
  try {
    const copy = await schemaCopy(block.schemaNo, signal);
    return copy.revision > block.revision ? { kind: 'newer', copy } : { kind: 'current' };
  } catch (error) {
    return isApiError(error) && error.status === ERR.schemaCheck ? { kind: 'gone' } : { kind: 'unknown' };
  }
}
