import { and, eq } from 'drizzle-orm';
import { ERR } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Db } from '../db/client.js';
import { schemas, schemaTypes, templates, type files } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { enforce } from '../http/verdicts.js';
import { canReadNote, canWriteNote, WRITE_REFUSALS } from '../notes/policy.js';
import { findNoteFor } from '../notes/queries.js';
import {
  canManageSchemas,
  canReadSchemaItem,
  MANAGE_REFUSALS as SCHEMA_MANAGE_REFUSALS,
  READ_REFUSALS as SCHEMA_READ_REFUSALS,
} from '../schemas/policy.js';
import { canReadTemplate, canWriteTemplate, WRITE_REFUSALS as TEMPLATE_WRITE_REFUSALS } from '../templates/policy.js';
import { requireReadableTemplate } from '../templates/queries.js';

/**
 * What an upload is attached to, exactly one of: a lab note, a template draft, or a schema thumbnail (of a
 * schema type, or of one of its schemas when `schemaNo` is set).
 */
export type FileOwner =
  | { noteNo: number; templateNo: null; schemasTypeNo: null; schemaNo: null }
  | { noteNo: null; templateNo: number; schemasTypeNo: null; schemaNo: null }
  | { noteNo: null; templateNo: null; schemasTypeNo: number; schemaNo: number | null };

/** The owner fields an upload's form may carry (each null when absent). */
export interface NamedOwner {
  labNoteNo: number | null;
  templateNo: number | null;
  schemasTypeNo: number | null;
  schemaNo: number | null;
}

const positive = (value: number | null): value is number => value !== null && Number.isSafeInteger(value) && value > 0;

/** Whether the upload is a schema thumbnail (images only, with a small copy made by the server). */
export const isSchemaThumbnail = (owner: FileOwner): owner is Extract<FileOwner, { schemasTypeNo: number }> => owner.schemasTypeNo !== null;

/**
 * A schema thumbnail's owner, if the caller may manage schemas (the `schema` flag, through the schemas
 * policy: 403 otherwise) and the type exists, with the schema among its own when one is named (4003, 4006).
 */
async function requireSchemaOwner(db: Db, user: AuthUser, schemasTypeNo: number, schemaNo: number | null): Promise<FileOwner> {
  enforce(canManageSchemas(user), SCHEMA_MANAGE_REFUSALS);
  const [type] = await db.select({ no: schemaTypes.schemasTypeNo }).from(schemaTypes).where(eq(schemaTypes.schemasTypeNo, schemasTypeNo));
  if (!type) throw new AppError(SCHEMA_READ_REFUSALS.hidden);
  if (schemaNo !== null) {
    const [schema] = await db
      .select({ no: schemas.schemaNo })
      .from(schemas)
      .where(and(eq(schemas.schemaNo, schemaNo), eq(schemas.schemasTypeNo, schemasTypeNo)));
    if (!schema) throw new AppError(ERR.schemaForeign);
  }
  return { noteNo: null, templateNo: null, schemasTypeNo, schemaNo };
}

/**
 * The owner an upload names (`labNoteNo`, `templateNo`, or `schemasTypeNo` with an optional `schemaNo`),
 * if the caller may write it now: the note's, the template's or the schemas' policy decides, as for
 * their live documents and calls.
 */
export async function requireWritableOwner(db: Db, user: AuthUser, fields: NamedOwner): Promise<FileOwner> {
  if (fields.schemasTypeNo !== null || fields.schemaNo !== null) {
    const { schemasTypeNo, schemaNo } = fields;
    // One owner only, a type always, and a schema's number when one is named.
    const field =
      !positive(schemasTypeNo) || fields.labNoteNo !== null || fields.templateNo !== null
        ? 'schemasTypeNo'
        : schemaNo !== null && !positive(schemaNo)
          ? 'schemaNo'
          : null;
    if (field !== null || !positive(schemasTypeNo))
      throw new AppError(ERR.validation, { data: { fields: [{ field: field ?? 'schemasTypeNo', reason: 'invalidValue' }] } });
    return requireSchemaOwner(db, user, schemasTypeNo, schemaNo);
  }
  if (positive(fields.templateNo) && fields.labNoteNo === null) {
    const template = await requireReadableTemplate(db, user, fields.templateNo);
    enforce(canWriteTemplate(user, template), TEMPLATE_WRITE_REFUSALS);
    return { noteNo: null, templateNo: template.templateNo, schemasTypeNo: null, schemaNo: null };
  }
  if (!positive(fields.labNoteNo) || fields.templateNo !== null) {
    throw new AppError(ERR.validation, { data: { fields: [{ field: 'labNoteNo', reason: 'required' }] } });
  }
  const ctx = await findNoteFor(db, user, fields.labNoteNo);
  // A deleted note is answered as missing here: uploads name notes the caller is editing.
  if (!ctx || canReadNote(ctx) !== 'allowed') throw new AppError(ERR.noteMissing);
  enforce(canWriteNote(ctx), WRITE_REFUSALS);
  return { noteNo: fields.labNoteNo, templateNo: null, schemasTypeNo: null, schemaNo: null };
}

/**
 * Whether the caller may read a schema thumbnail's owner: the type, and the schema when it is a schema's
 * (everyone reads used ones, managers unused ones too: the schemas policy).
 */
async function schemaOwnerReadable(db: Db, user: AuthUser, schemasTypeNo: number, schemaNo: number | null): Promise<boolean> {
  const [type] = await db.select({ status: schemaTypes.status }).from(schemaTypes).where(eq(schemaTypes.schemasTypeNo, schemasTypeNo));
  if (!type || canReadSchemaItem(user, type) !== 'allowed') return false;
  if (schemaNo === null) return true;
  const [schema] = await db.select({ status: schemas.status }).from(schemas).where(eq(schemas.schemaNo, schemaNo));
  return schema !== undefined && canReadSchemaItem(user, schema) === 'allowed';
}

/** Whether the caller may read what the file is attached to (and so the file). */
export async function ownerReadable(
  db: Db,
  user: AuthUser,
  file: Pick<typeof files.$inferSelect, 'noteNo' | 'templateNo' | 'schemasTypeNo' | 'schemaNo'>,
): Promise<boolean> {
  if (file.noteNo !== null) return (await findNoteFor(db, user, file.noteNo)) !== undefined;
  if (file.schemasTypeNo !== null) return schemaOwnerReadable(db, user, file.schemasTypeNo, file.schemaNo);
  if (file.templateNo === null) return false;
  const [template] = await db.select().from(templates).where(eq(templates.templateNo, file.templateNo));
  return canReadTemplate(user, template) === 'allowed';
}
