import { ERR, type ErrorCode } from '@eln/shared';

/**
 * The SQLSTATE of a database error: postgres.js and PGlite both put it in `code`, and Drizzle wraps the
 * driver's error as its `cause`.
 */
export function sqlStateOf(error: unknown): string | null {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

/**
 * Database refusals that are the request's fault, and the answer each gets when no route handled it
 * more precisely (routes keep their own codes for their unique names: 2001, 2018, 5001, 6006).
 */
const SQLSTATE_ANSWERS: Record<string, ErrorCode> = {
  /** untranslatable_character, character_not_in_repertoire (NUL in text), invalid_text_representation */
  '22P05': ERR.unstorableValue,
  '22021': ERR.unstorableValue,
  '22P02': ERR.unstorableValue,
  /** datetime_field_overflow, invalid_datetime_format, numeric_value_out_of_range */
  '22008': ERR.outOfRange,
  '22007': ERR.outOfRange,
  '22003': ERR.outOfRange,
  /** foreign_key_violation */
  '23503': ERR.missingReference,
  /** unique_violation */
  '23505': ERR.duplicate,
};

/** The catalogue code for a database error caused by the request, or null for a real failure. */
export function answerForDatabaseError(error: unknown): ErrorCode | null {
  const state = sqlStateOf(error);
  return state ? (SQLSTATE_ANSWERS[state] ?? null) : null;
}

/** Whether a database error (possibly wrapped by Drizzle) is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23505';
}
