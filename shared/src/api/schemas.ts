import { z } from 'zod';
import type { SchemaBlockAttrs } from '../blocks/schemaBlock.js';
import { ERR } from '../errors.js';
import { LIMITS } from '../limits.js';
import { optionalText, recordNo, requiredText, yesNo } from '../validation.js';
import { defineCall } from './call.js';
import { listAnswer, pagingRequest } from './paging.js';

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
export const schemaThumbnail = z.strictObject({ fileId: z.string(), url: z.string(), smallUrl: z.string() });
export type SchemaThumbnail = z.infer<typeof schemaThumbnail>;

export const schemaThumbnailAnswer = z.strictObject({ thumbnail: schemaThumbnail.nullable() });
export type SchemaThumbnailAnswer = z.infer<typeof schemaThumbnailAnswer>;

/** What the caller may do, as the server's schema policy decides it (`server/src/schemas/policy.ts`). */
export const schemaAbilities = z.strictObject({ update: z.boolean() });
export type SchemaAbilities = z.infer<typeof schemaAbilities>;

export const schemaTypeSummary = z.strictObject({
  schemasTypeNo: z.number(),
  code: z.string(),
  title: z.string(),
  description: z.string(),
  status: yesNo,
  schemaCount: z.number(),
  updatedAt: z.string(),
  updatedByName: z.string().nullable(),
  thumbnail: schemaThumbnail.nullable(),
});
export type SchemaTypeSummary = z.infer<typeof schemaTypeSummary>;

export const schemaEntry = z.strictObject({ field: z.string(), value: z.string(), status: yesNo });
export type SchemaEntry = z.infer<typeof schemaEntry>;

/** A child schema without its entries (`/basic/all`). */
export const schemaBasic = z.strictObject({
  schemaNo: z.number(),
  schemasTypeNo: z.number(),
  title: z.string(),
  description: z.string(),
  status: yesNo,
  /** Goes up by one whenever the schema's title, description, status or entries change: a note's block records it. */
  revision: z.number(),
  entryCount: z.number(),
  updatedAt: z.string(),
  thumbnail: schemaThumbnail.nullable(),
});
export type SchemaBasic = z.infer<typeof schemaBasic>;

/** `/basic/all`: each schema with whether a note may copy it now (the server's copy verdict). */
export const schemaBasicOffer = schemaBasic.extend({ copyable: z.boolean() });
export type SchemaBasicOffer = z.infer<typeof schemaBasicOffer>;

export const schemaChild = schemaBasic.extend({ entries: z.array(schemaEntry) });
export type SchemaChild = z.infer<typeof schemaChild>;

export const schemaListAnswer = listAnswer(schemaTypeSummary).extend({
  /** Whether the caller may create schema types. */
  abilities: z.strictObject({ create: z.boolean() }),
});
export type SchemaListAnswer = z.infer<typeof schemaListAnswer>;

/** `/check`: a type with every schema and entry the caller may see, for its screen. */
export const schemaTypeDetail = schemaTypeSummary.extend({
  revision: z.number(),
  schemas: z.array(schemaChild),
  abilities: schemaAbilities,
});
export type SchemaTypeDetail = z.infer<typeof schemaTypeDetail>;

/** `/block`: the server's sealed copy of a schema's used entries, as a note's schema block holds it (SchemaBlockAttrs). */
export const schemaBlockCopy = z.strictObject({
  schemasTypeNo: z.number(),
  schemaNo: z.number(),
  typeTitle: z.string(),
  title: z.string(),
  revision: z.number(),
  entries: z.array(z.strictObject({ field: z.string(), value: z.string() })),
  seal: z.string(),
}) satisfies z.ZodType<SchemaBlockAttrs>;

/** The schema calls (server/src/schemas). */
export const schemaCalls = {
  list: defineCall({
    path: '/v1/schema/list',
    auth: 'user',
    kind: 'query',
    summary: 'Schema types the caller may see (managers: unused ones too), newest first, filtered by title, status and dates.',
    request: schemaListRequest,
    answer: schemaListAnswer,
    errors: [ERR.schemaLookup],
    failure: ERR.schemaLookup,
  }),
  detail: defineCall({
    path: '/v1/schema/check',
    auth: 'user',
    kind: 'query',
    summary: 'A schema type with every schema and entry the caller may see, and what the caller may do with it.',
    request: schemaTypeNoRequest,
    answer: schemaTypeDetail,
    errors: [ERR.schemaCheck, ERR.schemaLookup],
    failure: ERR.schemaLookup,
  }),
  usedTypes: defineCall({
    path: '/v1/schema/all',
    auth: 'user',
    kind: 'query',
    summary: "Every used schema type, by title: what a note's schema block offers.",
    request: schemaAllRequest,
    answer: z.strictObject({ list: z.array(schemaTypeSummary) }),
    errors: [ERR.schemaLookup],
    failure: ERR.schemaLookup,
  }),
  childList: defineCall({
    path: '/v1/schema/basic/all',
    auth: 'user',
    kind: 'query',
    summary: 'The schemas of a type the caller may see, without their entries, each with whether a note may copy it now.',
    request: schemaTypeNoRequest,
    answer: z.strictObject({ list: z.array(schemaBasicOffer) }),
    errors: [ERR.schemaCheck, ERR.schemaLookup],
    failure: ERR.schemaLookup,
  }),
  blockCopy: defineCall({
    path: '/v1/schema/block',
    auth: 'user',
    kind: 'query',
    summary: "The server's sealed copy of a used schema of a used type (its used entries) for a note's schema block.",
    request: schemaNoRequest,
    answer: schemaBlockCopy,
    errors: [ERR.schemaCheck, ERR.schemaLookup],
    failure: ERR.schemaLookup,
  }),
  childDetail: defineCall({
    path: '/v1/schema/attr/all',
    auth: 'user',
    kind: 'query',
    summary: 'One schema with the entries the caller may see.',
    request: schemaNoRequest,
    answer: schemaChild,
    errors: [ERR.schemaCheck, ERR.schemaLookup],
    failure: ERR.schemaLookup,
  }),
  create: defineCall({
    path: '/v1/schema/create',
    auth: 'user',
    kind: 'command',
    summary: 'Creates a schema type with its schemas and entries, all or nothing (users with the schema flag, administrators).',
    request: schemaCreateRequest,
    answer: z.strictObject({ schemasTypeNo: z.number() }),
    errors: [ERR.forbidden, ERR.schemaCodeDuplicate, ERR.schemaTitleDuplicate, ERR.duplicate],
  }),
  update: defineCall({
    path: '/v1/schema/update',
    auth: 'user',
    kind: 'command',
    summary: 'Replaces a schema type, its schemas and entries as sent, if unchanged since the revision the editor loaded.',
    request: schemaUpdateRequest,
    answer: z.strictObject({ revision: z.number() }),
    errors: [
      ERR.forbidden,
      ERR.schemaCheck,
      ERR.schemaCodeDuplicate,
      ERR.schemaTitleDuplicate,
      ERR.duplicate,
      ERR.conflict,
      ERR.schemaForeign,
    ],
  }),
  setThumbnail: defineCall({
    path: '/v1/schema/thumbnail',
    auth: 'user',
    kind: 'command',
    summary: 'Sets (an image uploaded for it) or clears the thumbnail of a schema type or of one of its schemas; the revision stays.',
    request: schemaThumbnailRequest,
    answer: schemaThumbnailAnswer,
    errors: [ERR.forbidden, ERR.schemaCheck, ERR.schemaForeign],
  }),
} as const;
