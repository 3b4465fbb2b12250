import type { SchemaBasic, SchemaChild, SchemaEntry, SchemaThumbnail, SchemaTypeSummary } from '@eln/shared';
import type { FileLinks } from '../files/links.js';
import type { SchemaRecord, SchemaTypeRecord } from './record.js';

/** A type's or schema's thumbnail as answers carry it: signed links to the image and its small copy. */
export function thumbnailOf(
  row: { thumbnailFileId: string | null; thumbnailSmallFileId: string | null },
  links: FileLinks,
): SchemaThumbnail | null {
  if (row.thumbnailFileId === null) return null;
  const small = row.thumbnailSmallFileId ?? row.thumbnailFileId;
  return { fileId: row.thumbnailFileId, url: links.make(row.thumbnailFileId), smallUrl: links.make(small) };
}

export function summaryOf(
  type: SchemaTypeRecord,
  schemasInType: number,
  updatedByName: string | null,
  links: FileLinks,
): SchemaTypeSummary {
  return {
    schemasTypeNo: type.schemasTypeNo,
    code: type.code,
    title: type.title,
    description: type.description,
    status: type.status,
    schemaCount: schemasInType,
    updatedAt: type.updatedAt.toISOString(),
    updatedByName,
    thumbnail: thumbnailOf(type, links),
  };
}

export function basicOf(schema: SchemaRecord, entryCount: number, links: FileLinks): SchemaBasic {
  return {
    schemaNo: schema.schemaNo,
    schemasTypeNo: schema.schemasTypeNo,
    title: schema.title,
    description: schema.description,
    status: schema.status,
    revision: schema.revision,
    entryCount,
    updatedAt: schema.updatedAt.toISOString(),
    thumbnail: thumbnailOf(schema, links),
  };
}

export function childOf(schema: SchemaRecord, entries: SchemaEntry[], links: FileLinks): SchemaChild {
  return { ...basicOf(schema, entries.length, links), entries };
}

/** A type's own fields as the audit trail records them (and as an update compares them). */
export const basicInfo = (type: { code: string; title: string; description: string; status: 'Y' | 'N' }) => ({
  code: type.code,
  title: type.title,
  description: type.description,
  status: type.status,
});
