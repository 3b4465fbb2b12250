import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { optionalText, recordNo, requiredText, yesNo } from '../validation.js';
import { pagingRequest } from './paging.js';

/**
 * Schemas: the lab's catalogues. A schema type ("Reagent") holds child schemas ("Sodium chloride"), each
 * a list of field/value entries ({CAS 7647-14-5, MW 58.44 g/mol, ...}) that a note's schema block copies.
 */

/** Used (Y) types, schemas and entries are offered in notes and readable by everyone; unused (N) only by managers. */
export const SCHEMA_STATUS = { used: 'Y', unused: 'N' } as const;

/** How names are compared for uniqueness: trimmed (by the field rule) and without case, so "NaCl" and "nacl" clash. */
export const schemaNameKey = (name: string) => name.trim().toLocaleLowerCase('en');

/** Adds a `duplicateName` issue at each later item whose key an earlier item already has. */
function refuseDuplicates<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  path: (index: number) => (string | number)[],
  ctx: z.RefinementCtx,
): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (seen.has(key)) ctx.addIssue({ code: 'custom', message: 'duplicateName', path: path(index) });
    seen.add(key);
  });
}

export const schemaEntryInput = z.strictObject({
  field: requiredText(LIMITS.schemaField),
  value: requiredText(LIMITS.schemaValue),
  status: yesNo.default('Y'),
});

/** A child schema as sent: with its number to change an existing one, without to add one. */
export const schemaChildInput = z
  .strictObject({
    schemaNo: recordNo.optional(),
    title: requiredText(LIMITS.schemaName),
    description: optionalText(LIMITS.schemaDescription),
    status: yesNo.default('Y'),
    entries: z.array(schemaEntryInput).max(LIMITS.schemaEntriesPerSchema).default([]),
  })
  .superRefine((schema, ctx) =>
    refuseDuplicates(
      schema.entries,
      (entry) => schemaNameKey(entry.field),
      (i) => ['entries', i, 'field'],
      ctx,
    ),
  );

/** A schema type with all its schemas: what create and update send, stored all or nothing. */
const schemaTypeFields = {
  code: requiredText(LIMITS.schemaCode),
  title: requiredText(LIMITS.schemaTypeName),
  description: optionalText(LIMITS.schemaDescription),
  status: yesNo.default('Y'),
  schemas: z.array(schemaChildInput).max(LIMITS.schemas).default([]),
};

/** Names unique among a type's schemas, and each existing schema sent once (twice would drop one copy's content). */
function uniqueChildTitles(type: { schemas: ReadonlyArray<{ title: string; schemaNo?: number | undefined }> }, ctx: z.RefinementCtx): void {
  refuseDuplicates(
    type.schemas,
    (schema) => schemaNameKey(schema.title),
    (i) => ['schemas', i, 'title'],
    ctx,
  );
  const seen = new Set<number>();
  type.schemas.forEach((schema, index) => {
    if (schema.schemaNo === undefined) return;
    if (seen.has(schema.schemaNo)) ctx.addIssue({ code: 'custom', message: 'invalidValue', path: ['schemas', index, 'schemaNo'] });
    seen.add(schema.schemaNo);
  });
}

export const schemaCreateRequest = z.strictObject(schemaTypeFields).superRefine(uniqueChildTitles);
export const schemaUpdateRequest = z
  .strictObject({
    schemasTypeNo: recordNo,
    /** The revision the editor loaded: a type changed since answers 9006 rather than overwriting that change. */
    revision: z.number().int().min(1).max(LIMITS.maxRecordNo),
    ...schemaTypeFields,
  })
  .superRefine(uniqueChildTitles);

export const schemaListRequest = pagingRequest.safeExtend({
  type: z.enum(['title']).optional(),
  /** Filter by status: Y used, N unused; absent for both. */
  status: yesNo.optional(),
});
export const schemaTypeNoRequest = z.strictObject({ schemasTypeNo: recordNo });
export const schemaNoRequest = z.strictObject({ schemaNo: recordNo });
export const schemaAllRequest = z.strictObject({});
/**
 * `/thumbnail`: sets (an image uploaded for this type or schema, `fileId`) or clears (null) the thumbnail
 * of a type, or of one of its schemas when `schemaNo` is given. Display only: no revision changes.
 */
export const schemaThumbnailRequest = z.strictObject({
  schemasTypeNo: recordNo,
  schemaNo: recordNo.nullable().default(null),
  fileId: z.string().uuid().nullable(),
});

export type SchemaEntryInput = z.input<typeof schemaEntryInput>;
export type SchemaChildInput = z.input<typeof schemaChildInput>;
export type SchemaCreateRequest = z.input<typeof schemaCreateRequest>;
export type SchemaUpdateRequest = z.input<typeof schemaUpdateRequest>;
export type SchemaListRequest = z.input<typeof schemaListRequest>;
export type SchemaListFilter = z.output<typeof schemaListRequest>;
export type SchemaThumbnailRequest = z.input<typeof schemaThumbnailRequest>;

/**
 * A type's or schema's thumbnail: the uploaded image and the server-made small copy (at most
 * LIMITS.schemaThumbnailSide pixels a side) lists show, each as a signed link valid FILE_LINK_SECONDS.
 */
export interface SchemaThumbnail {
  fileId: string;
  url: string;
  smallUrl: string;
}

export interface SchemaThumbnailAnswer {
  thumbnail: SchemaThumbnail | null;
}

/** What the caller may do, as the server's schema policy decides it (`server/src/schemas/policy.ts`). */
export interface SchemaAbilities {
  update: boolean;
}

export interface SchemaTypeSummary {
  schemasTypeNo: number;
  code: string;
  title: string;
  description: string;
  status: 'Y' | 'N';
  schemaCount: number;
  updatedAt: string;
  updatedByName: string | null;
  thumbnail: SchemaThumbnail | null;
}

export interface SchemaEntry {
  field: string;
  value: string;
  status: 'Y' | 'N';
}

/** A child schema without its entries (`/basic/all`). */
export interface SchemaBasic {
  schemaNo: number;
  schemasTypeNo: number;
  title: string;
  description: string;
  status: 'Y' | 'N';
  /** Goes up by one whenever the schema's title, description, status or entries change: a note's block records it. */
  revision: number;
  entryCount: number;
  updatedAt: string;
  thumbnail: SchemaThumbnail | null;
}

/** `/basic/all`: each schema with whether a note may copy it now (the server's copy verdict). */
export interface SchemaBasicOffer extends SchemaBasic {
  copyable: boolean;
}

export interface SchemaChild extends SchemaBasic {
  entries: SchemaEntry[];
}

export interface SchemaListAnswer {
  list: SchemaTypeSummary[];
  totalCount: number;
  /** Whether the caller may create schema types. */
  abilities: { create: boolean };
}

/** `/check`: a type with every schema and entry the caller may see, for its screen. */
export interface SchemaTypeDetail extends SchemaTypeSummary {
  revision: number;
  schemas: SchemaChild[];
  abilities: SchemaAbilities;
}
