import { eq, inArray } from 'drizzle-orm';
import { ERR, type schemaChildInput, type SchemaChild } from '@eln/shared';
import type { z } from 'zod';
import type { Queryable } from '../db/client.js';
import { files, schemaEntries, schemas } from '../db/schema.js';
import { AppError } from '../http/errors.js';

type ChildInput = z.output<typeof schemaChildInput>;

/** A schema as the audit trail records it: enough to say what it held. */
export interface AuditedSchema {
  schemaNo: number;
  title: string;
  description: string;
  status: 'Y' | 'N';
  revision: number;
  entries: Array<{ field: string; value: string; status: 'Y' | 'N' }>;
}

/** What an update did to a type's schemas, for the audit trail: each side only for what changed. */
export interface SchemaChanges {
  before: AuditedSchema[];
  after: AuditedSchema[];
}

const sameContent = (a: Omit<AuditedSchema, 'schemaNo' | 'revision'>, b: Omit<AuditedSchema, 'schemaNo' | 'revision'>) =>
  JSON.stringify([a.title, a.description, a.status, a.entries.map((e) => [e.field, e.value, e.status])]) ===
  JSON.stringify([b.title, b.description, b.status, b.entries.map((e) => [e.field, e.value, e.status])]);

const audited = (schemaNo: number, revision: number, child: Omit<AuditedSchema, 'schemaNo' | 'revision'>): AuditedSchema => ({
  schemaNo,
  title: child.title,
  description: child.description,
  status: child.status,
  revision,
  entries: child.entries.map(({ field, value, status }) => ({ field, value, status })),
});

async function insertEntries(tx: Queryable, schemaNo: number, entries: ChildInput['entries']): Promise<void> {
  if (entries.length === 0) return;
  await tx
    .insert(schemaEntries)
    .values(entries.map((entry, position) => ({ schemaNo, position, field: entry.field, value: entry.value, status: entry.status })));
}

/** Adds a type's schemas, in order (a new type, or the new ones of an update). */
export async function insertSchema(tx: Queryable, schemasTypeNo: number, position: number, child: ChildInput): Promise<AuditedSchema> {
  const [row] = await tx
    .insert(schemas)
    .values({ schemasTypeNo, position, title: child.title, description: child.description, status: child.status })
    .returning();
  if (!row) throw new Error('schema insert returned nothing');
  await insertEntries(tx, row.schemaNo, child.entries);
  return audited(row.schemaNo, row.revision, child);
}

/**
 * Makes a type's schemas what the update sent, in the caller's transaction: those sent with a number are
 * changed (their revision goes up only when their content changed), those without are added, those not
 * sent are removed (notes keep their own copies). A number of another type's schema refuses it all (4006).
 */
export async function replaceSchemas(
  tx: Queryable,
  schemasTypeNo: number,
  existing: readonly SchemaChild[],
  incoming: readonly ChildInput[],
): Promise<SchemaChanges> {
  const byNo = new Map(existing.map((schema) => [schema.schemaNo, schema]));
  if (incoming.some((child) => child.schemaNo !== undefined && !byNo.has(child.schemaNo))) throw new AppError(ERR.schemaForeign);
  const changes: SchemaChanges = { before: [], after: [] };
  const kept = new Set(incoming.flatMap((child) => (child.schemaNo === undefined ? [] : [child.schemaNo])));
  const removed = existing.filter((schema) => !kept.has(schema.schemaNo));
  if (removed.length > 0) {
    const removedNos = removed.map((schema) => schema.schemaNo);
    // A removed schema's pictures belong to nobody now: unreadable, and never taken for the type's own.
    await tx.update(files).set({ schemasTypeNo: null }).where(inArray(files.schemaNo, removedNos));
    await tx.delete(schemas).where(inArray(schemas.schemaNo, removedNos));
  }
  changes.before.push(...removed.map((schema) => audited(schema.schemaNo, schema.revision, schema)));

  for (const [position, child] of incoming.entries()) {
    const current = child.schemaNo === undefined ? undefined : byNo.get(child.schemaNo);
    if (!current) {
      changes.after.push(await insertSchema(tx, schemasTypeNo, position, child));
      continue;
    }
    if (sameContent(current, child)) {
      if (existing.indexOf(current) !== position) await tx.update(schemas).set({ position }).where(eq(schemas.schemaNo, current.schemaNo));
      continue;
    }
    const revision = current.revision + 1;
    await tx
      .update(schemas)
      .set({ position, title: child.title, description: child.description, status: child.status, revision, updatedAt: new Date() })
      .where(eq(schemas.schemaNo, current.schemaNo));
    await tx.delete(schemaEntries).where(eq(schemaEntries.schemaNo, current.schemaNo));
    await insertEntries(tx, current.schemaNo, child.entries);
    changes.before.push(audited(current.schemaNo, current.revision, current));
    changes.after.push(audited(current.schemaNo, revision, child));
  }
  return changes;
}
