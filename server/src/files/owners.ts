import { eq } from 'drizzle-orm';
import { ERR } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Db } from '../db/client.js';
import { templates, type files } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { enforce } from '../http/verdicts.js';
import { canReadNote, canWriteNote, WRITE_REFUSALS } from '../notes/policy.js';
import { findNoteFor } from '../notes/queries.js';
import { canReadTemplate, canWriteTemplate, WRITE_REFUSALS as TEMPLATE_WRITE_REFUSALS } from '../templates/policy.js';
import { requireReadableTemplate } from '../templates/queries.js';

/** What an upload is attached to: a lab note or a template draft, exactly one. */
export type FileOwner = { noteNo: number; templateNo: null } | { noteNo: null; templateNo: number };

const positive = (value: number | null): value is number => value !== null && Number.isSafeInteger(value) && value > 0;

/**
 * The owner an upload names (`labNoteNo` or `templateNo`), if the caller may write it now: the note's or
 * the template's policy decides, as for their live documents.
 */
export async function requireWritableOwner(db: Db, user: AuthUser, fields: { labNoteNo: number | null; templateNo: number | null }): Promise<FileOwner> {
  if (positive(fields.templateNo) && fields.labNoteNo === null) {
    const template = await requireReadableTemplate(db, user, fields.templateNo);
    enforce(canWriteTemplate(user, template), TEMPLATE_WRITE_REFUSALS);
    return { noteNo: null, templateNo: template.templateNo };
  }
  if (!positive(fields.labNoteNo) || fields.templateNo !== null) {
    throw new AppError(ERR.validation, { data: { fields: [{ field: 'labNoteNo', reason: 'required' }] } });
  }
  const ctx = await findNoteFor(db, user, fields.labNoteNo);
  // A deleted note is answered as missing here: uploads name notes the caller is editing.
  if (!ctx || canReadNote(ctx) !== 'allowed') throw new AppError(ERR.noteMissing);
  enforce(canWriteNote(ctx), WRITE_REFUSALS);
  return { noteNo: fields.labNoteNo, templateNo: null };
}

/** Whether the caller may read what the file is attached to (and so the file). */
export async function ownerReadable(db: Db, user: AuthUser, file: Pick<typeof files.$inferSelect, 'noteNo' | 'templateNo'>): Promise<boolean> {
  if (file.noteNo !== null) return (await findNoteFor(db, user, file.noteNo)) !== undefined;
  if (file.templateNo === null) return false;
  const [template] = await db.select().from(templates).where(eq(templates.templateNo, file.templateNo));
  return canReadTemplate(user, template) === 'allowed';
}
