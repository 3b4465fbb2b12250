import { ERR } from '@eln/shared';
import type { Queryable } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../http/errors.js';
import { schemaTypeClash } from '../queries.js';

/** The type's code or title already taken by another type: each has its own code, so the form marks the right field. */
export async function refuseClash(q: Queryable, fields: { code: string; title: string }, exceptNo?: number): Promise<void> {
  const clash = await schemaTypeClash(q, fields, exceptNo);
  if (clash === 'code') throw new AppError(ERR.schemaCodeDuplicate);
  if (clash === 'title') throw new AppError(ERR.schemaTitleDuplicate);
}

/**
 * A unique index refusing what the check before it let through (a type created or renamed meanwhile):
 * the same answers as the check, so the form marks the right field.
 */
export async function refuseRacedClash(
  q: Queryable,
  error: unknown,
  fields: { code: string; title: string },
  exceptNo?: number,
): Promise<never> {
  if (!isUniqueViolation(error)) throw error;
  await refuseClash(q, fields, exceptNo);
  throw new AppError(ERR.duplicate);
}
