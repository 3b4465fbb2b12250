import { dropboxRowsHaveProblems, ERR, type CheckedDropboxRow, type DropboxRow } from '@eln/shared';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../http/errors.js';

/** Rows as stored, trimmed by the check; refused (4503) if any has a problem, every row answered with its problems so the screen can mark them. */
export function requireStorable(rows: CheckedDropboxRow[]): DropboxRow[] {
  if (dropboxRowsHaveProblems(rows)) throw new AppError(ERR.dropboxRows, { data: { rows } });
  return rows.map(({ code, name }) => ({ code, name }));
}

/** A title taken meanwhile (the unique index) answers as a title taken before the check (4504). */
export function refuseDuplicateTitle(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError(ERR.dropboxDuplicate);
  throw error;
}
