import { ERR } from '@eln/shared';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../http/errors.js';

/** Runs a change that writes a template's title; a title taken meanwhile (the unique index) answers 7002. */
export async function refusingDuplicateTitles<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(ERR.templateDuplicate);
    throw error;
  }
}
