import { LIMITS } from '../limits.js';

/**
 * A note's schema block: a copy of one child schema's used entries as they were when inserted, with the
 * schema, its type and the revision it came from, so a later change to the catalogue never alters a saved
 * note (the block only says that a newer revision exists).
 */
export interface SchemaBlockEntry {
  field: string;
  value: string;
}

export interface SchemaBlockAttrs {
  schemasTypeNo: number;
  schemaNo: number;
  /** The type's title ("Reagent") and the schema's ("Sodium chloride") when inserted. */
  typeTitle: string;
  title: string;
  revision: number;
  entries: SchemaBlockEntry[];
  /** The server's seal over the fields above (`/v1/schema/block`): a copy nobody could have made up. */
  seal: string;
}

import { isRecordNo, isSeal } from './catalogueCopies.js';

const isName = (value: unknown, max: number): value is string => typeof value === 'string' && value.trim() !== '' && value.length <= max;

function entryOf(value: unknown): SchemaBlockEntry | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { field, value: entryValue, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || !isName(field, LIMITS.schemaField) || !isName(entryValue, LIMITS.schemaValue)) return null;
  return { field, value: entryValue };
}

/** A schema block's attributes when they are all valid (the content rule `schemaBlock`), else null. */
export function readSchemaBlock(attrs: Record<string, unknown> | undefined): SchemaBlockAttrs | null {
  const { schemasTypeNo, schemaNo, typeTitle, title, revision, entries, seal } = attrs ?? {};
  if (!isRecordNo(schemasTypeNo) || !isRecordNo(schemaNo) || !isRecordNo(revision) || !isSeal(seal)) return null;
  if (!isName(typeTitle, LIMITS.schemaTypeName) || !isName(title, LIMITS.schemaName)) return null;
  if (!Array.isArray(entries) || entries.length > LIMITS.schemaEntriesPerSchema) return null;
  const read = entries.map(entryOf);
  if (read.some((entry) => entry === null)) return null;
  return { schemasTypeNo, schemaNo, typeTitle, title, revision, entries: read as SchemaBlockEntry[], seal };
}
