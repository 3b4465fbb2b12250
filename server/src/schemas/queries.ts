import { and, asc, count, desc, eq, ilike, inArray, ne, sql } from 'drizzle-orm';
import {
  ERR,
  SCHEMA_STATUS,
  type SchemaBasic,
  type SchemaBasicOffer,
  type SchemaBlockAttrs,
  type SchemaEntry,
  type SchemaListAnswer,
  type SchemaListFilter,
  type SchemaTypeDetail,
  type SchemaTypeSummary,
} from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import type { FileLinks } from '../files/links.js';
import { offsetOf, withinDates } from '../db/paging.js';
import { schemaEntries, schemas, schemaTypes, users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { recordOpen } from '../inbox/recentOpens.js';
import { enforce } from '../http/verdicts.js';
import type { Services } from '../services.js';
import {
  canCopySchema,
  canManageSchemas,
  canReadSchemaItem,
  COPY_REFUSALS,
  READ_REFUSALS,
  visibleSchemaTypesSql,
  type Caller,
} from './policy.js';
import { basicOf, childOf, summaryOf } from './presenters.js';
import type { SchemaRecord, SchemaTypeRecord } from './record.js';

/** How many schemas a type has that the caller may read (readers: the used ones only). */
const schemaCountFor = (user: Caller) =>
  canManageSchemas(user) === 'allowed'
    ? sql<number>`(select count(*) from ${schemas} where ${schemas.schemasTypeNo} = ${schemaTypes.schemasTypeNo})`.mapWith(Number)
    : sql<number>`(select count(*) from ${schemas} where ${schemas.schemasTypeNo} = ${schemaTypes.schemasTypeNo} and ${schemas.status} = ${SCHEMA_STATUS.used})`.mapWith(
        Number,
      );

/** The schema types the caller may see, newest first, filtered by a substring of the title and by status. */
export async function listSchemaTypes(
  q: Queryable,
  user: AuthUser,
  filter: SchemaListFilter,
  timeZone: string,
  links: FileLinks,
): Promise<SchemaListAnswer> {
  const where = and(
    visibleSchemaTypesSql(user),
    filter.value ? ilike(schemaTypes.title, `%${escapeLike(filter.value)}%`) : undefined,
    filter.status ? eq(schemaTypes.status, filter.status) : undefined,
    withinDates(schemaTypes.updatedAt, filter, timeZone),
  );
  const [total] = await q.select({ n: count() }).from(schemaTypes).where(where);
  // The page's numbers first; counts and names for those rows only.
  const page = q
    .select({ no: schemaTypes.schemasTypeNo })
    .from(schemaTypes)
    .where(where)
    .orderBy(desc(schemaTypes.schemasTypeNo))
    .limit(filter.pageSize)
    .offset(offsetOf(filter))
    .as('page');
  const rows = await q
    .select({ type: schemaTypes, schemas: schemaCountFor(user), updatedByName: users.name })
    .from(page)
    .innerJoin(schemaTypes, eq(schemaTypes.schemasTypeNo, page.no))
    .leftJoin(users, eq(users.userNo, schemaTypes.updatedByUserNo))
    .orderBy(desc(schemaTypes.schemasTypeNo));
  return {
    totalCount: Number(total?.n ?? 0),
    list: rows.map((r) => summaryOf(r.type, r.schemas, r.updatedByName, links)),
    abilities: { create: canManageSchemas(user) === 'allowed' },
  };
}

/** Every used schema type, by title: what a note's schema block offers. */
export async function usedSchemaTypes(q: Queryable, user: Caller, links: FileLinks): Promise<SchemaTypeSummary[]> {
  const rows = await q
    .select({ type: schemaTypes, schemas: schemaCountFor(user), updatedByName: users.name })
    .from(schemaTypes)
    .leftJoin(users, eq(users.userNo, schemaTypes.updatedByUserNo))
    .where(eq(schemaTypes.status, SCHEMA_STATUS.used))
    .orderBy(asc(schemaTypes.title));
  return rows.map((r) => summaryOf(r.type, r.schemas, r.updatedByName, links));
}

/** How many schema types the caller may see (the dashboard's count). */
export async function countVisibleSchemaTypes(q: Queryable, user: AuthUser): Promise<number> {
  const [row] = await q.select({ n: count() }).from(schemaTypes).where(visibleSchemaTypesSql(user));
  return Number(row?.n ?? 0);
}

/** The schema type if the caller may read it, else 4003 (spec §8: the screen shows it and returns to /schema). */
export async function requireReadableSchemaType(q: Queryable, user: Caller, schemasTypeNo: number): Promise<SchemaTypeRecord> {
  const [type] = await q.select().from(schemaTypes).where(eq(schemaTypes.schemasTypeNo, schemasTypeNo));
  if (!type || canReadSchemaItem(user, type) !== 'allowed') throw new AppError(READ_REFUSALS.hidden);
  return type;
}

/** A child schema if the caller may read it and its type, else 4003. */
export async function requireReadableSchema(q: Queryable, user: Caller, schemaNo: number): Promise<SchemaRecord> {
  const [row] = await q
    .select({ schema: schemas, type: schemaTypes })
    .from(schemas)
    .innerJoin(schemaTypes, eq(schemaTypes.schemasTypeNo, schemas.schemasTypeNo))
    .where(eq(schemas.schemaNo, schemaNo));
  if (!row || canReadSchemaItem(user, row.type) !== 'allowed' || canReadSchemaItem(user, row.schema) !== 'allowed')
    throw new AppError(READ_REFUSALS.hidden);
  return row.schema;
}

/** The schemas of a type in order, those the caller may read. */
export async function schemasOf(q: Queryable, user: Caller, schemasTypeNo: number): Promise<SchemaRecord[]> {
  const rows = await q.select().from(schemas).where(eq(schemas.schemasTypeNo, schemasTypeNo)).orderBy(asc(schemas.position));
  return rows.filter((schema) => canReadSchemaItem(user, schema) === 'allowed');
}

/** The entries of these schemas, in order, grouped by schema; only those the caller may read. */
export async function entriesOf(q: Queryable, user: Caller, schemaNos: readonly number[]): Promise<Map<number, SchemaEntry[]>> {
  const grouped = new Map<number, SchemaEntry[]>(schemaNos.map((no) => [no, []]));
  if (schemaNos.length === 0) return grouped;
  const rows = await q
    .select({ schemaNo: schemaEntries.schemaNo, field: schemaEntries.field, value: schemaEntries.value, status: schemaEntries.status })
    .from(schemaEntries)
    .where(inArray(schemaEntries.schemaNo, [...schemaNos]))
    .orderBy(asc(schemaEntries.schemaNo), asc(schemaEntries.position));
  for (const { schemaNo, ...entry } of rows) if (canReadSchemaItem(user, entry) === 'allowed') grouped.get(schemaNo)?.push(entry);
  return grouped;
}

/** The schemas of a type without their entries, each with how many entries the caller may read. */
export async function basicSchemasOf(q: Queryable, user: Caller, schemasTypeNo: number, links: FileLinks): Promise<SchemaBasic[]> {
  const list = await schemasOf(q, user, schemasTypeNo);
  const entries = await entriesOf(
    q,
    user,
    list.map((schema) => schema.schemaNo),
  );
  return list.map((schema) => basicOf(schema, entries.get(schema.schemaNo)?.length ?? 0, links));
}

/** `/basic/all`: a readable type's schemas, each with whether a note may copy it now (the copy verdict). */
export async function schemaOffers(q: Queryable, user: Caller, schemasTypeNo: number, links: FileLinks): Promise<SchemaBasicOffer[]> {
  const type = await requireReadableSchemaType(q, user, schemasTypeNo);
  const list = await basicSchemasOf(q, user, schemasTypeNo, links);
  return list.map((schema) => ({ ...schema, copyable: canCopySchema(type, schema) === 'allowed' }));
}

/**
 * The server's sealed copy of a schema for a note's schema block: a used schema of a used type (4003
 * otherwise, managers too), its used entries only.
 */
export async function sealedSchemaCopy(
  { db, catalogueSeals }: Pick<Services, 'db' | 'catalogueSeals'>,
  user: Caller,
  schemaNo: number,
): Promise<SchemaBlockAttrs> {
  const schema = await requireReadableSchema(db, user, schemaNo);
  const [type] = await db.select().from(schemaTypes).where(eq(schemaTypes.schemasTypeNo, schema.schemasTypeNo));
  enforce(type ? canCopySchema(type, schema) : 'notOffered', COPY_REFUSALS);
  const entries = (await entriesOf(db, user, [schema.schemaNo])).get(schema.schemaNo) ?? [];
  return catalogueSeals.seal('schemaBlock', {
    schemasTypeNo: schema.schemasTypeNo,
    schemaNo: schema.schemaNo,
    typeTitle: type!.title,
    title: schema.title,
    revision: schema.revision,
    entries: entries.filter((entry) => entry.status === SCHEMA_STATUS.used).map(({ field, value }) => ({ field, value })),
  });
}

/** `/attr/all`: one readable schema with the entries the caller may read. */
export async function schemaWithEntries(q: Queryable, user: Caller, schemaNo: number, links: FileLinks) {
  const schema = await requireReadableSchema(q, user, schemaNo);
  const entries = await entriesOf(q, user, [schema.schemaNo]);
  return childOf(schema, entries.get(schema.schemaNo) ?? [], links);
}

/** Locks a type's row until the transaction ends (updates of it and of its thumbnails wait for each other); 4003 when it is gone. */
export async function lockSchemaType(tx: Queryable, schemasTypeNo: number): Promise<SchemaTypeRecord> {
  const [locked] = await tx.select().from(schemaTypes).where(eq(schemaTypes.schemasTypeNo, schemasTypeNo)).for('update');
  if (!locked) throw new AppError(ERR.schemaCheck);
  return locked;
}

/** A schema type as its editor opens it (`/schema/detail`): readable, then recorded as opened (the home's "Recently opened"). */
export async function openSchemaType(q: Queryable, user: AuthUser, schemasTypeNo: number, links: FileLinks): Promise<SchemaTypeDetail> {
  const type = await requireReadableSchemaType(q, user, schemasTypeNo);
  await recordOpen(q, user.userNo, 'schema', type.schemasTypeNo);
  return schemaTypeDetail(q, user, type, links);
}

export async function schemaTypeDetail(q: Queryable, user: Caller, type: SchemaTypeRecord, links: FileLinks): Promise<SchemaTypeDetail> {
  const list = await schemasOf(q, user, type.schemasTypeNo);
  const entries = await entriesOf(
    q,
    user,
    list.map((schema) => schema.schemaNo),
  );
  const [updatedBy] = await q.select({ name: users.name }).from(users).where(eq(users.userNo, type.updatedByUserNo));
  return {
    ...summaryOf(type, list.length, updatedBy?.name ?? null, links),
    revision: type.revision,
    schemas: list.map((schema) => childOf(schema, entries.get(schema.schemaNo) ?? [], links)),
    abilities: { update: canManageSchemas(user) === 'allowed' },
  };
}

/** Whether another type already has this code or title (compared without case, as the unique indexes do). */
export async function schemaTypeClash(
  q: Queryable,
  fields: { code: string; title: string },
  exceptNo?: number,
): Promise<'code' | 'title' | null> {
  const others = exceptNo ? ne(schemaTypes.schemasTypeNo, exceptNo) : undefined;
  const [code] = await q
    .select({ no: schemaTypes.schemasTypeNo })
    .from(schemaTypes)
    .where(and(sql`lower(${schemaTypes.code}) = lower(${fields.code})`, others));
  if (code) return 'code';
  const [title] = await q
    .select({ no: schemaTypes.schemasTypeNo })
    .from(schemaTypes)
    .where(and(sql`lower(${schemaTypes.title}) = lower(${fields.title})`, others));
  return title ? 'title' : null;
}
