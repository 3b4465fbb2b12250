import { ERR, errorMessage, type Language } from '@eln/shared';
import { fieldErrorsOf, isApiError } from '../../api';
import { toErrorMap, type FieldErrorMap } from '../../lib/forms';

/** Where a refused user save is shown. */
export type UserSaveProblem =
  | { kind: 'fields'; errors: FieldErrorMap }
  | { kind: 'extra'; field: 'userId' | 'departmentCode'; message: string }
  | { kind: 'access'; message: string }
  | { kind: 'silent' }
  | { kind: 'other' };

/**
 * Sorts a failed create or update: field errors and the duplicate ID (5001) or unknown department (5003)
 * go beside their fields; the refusal to demote or deactivate oneself (5002) goes with the access fields;
 * a 401 is already handled by the session-ended modal; anything else is for the alert modal.
 */
export function classifyUserError(error: unknown, language: Language): UserSaveProblem {
  const fields = fieldErrorsOf(error);
  if (fields.length > 0) return { kind: 'fields', errors: toErrorMap(fields) };
  if (!isApiError(error)) return { kind: 'other' };
  if (error.httpStatus === 401) return { kind: 'silent' };
  if (error.status === ERR.userDuplicate) return { kind: 'extra', field: 'userId', message: errorMessage(ERR.userDuplicate, language) };
  if (error.status === ERR.departmentMissing)
    return { kind: 'extra', field: 'departmentCode', message: errorMessage(ERR.departmentMissing, language) };
  if (error.status === ERR.selfDemotion) return { kind: 'access', message: errorMessage(ERR.selfDemotion, language) };
  return { kind: 'other' };
}
