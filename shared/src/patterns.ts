/** Email as the spec defines it: non-space text, @, non-space text, dot, non-space text. */
export const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;
/**
 * A character PostgreSQL cannot store as sent: NUL (refused by text and jsonb) or a UTF-16 surrogate
 * without its partner (not a character; the drivers send it as U+FFFD).
 */
export const UNSTORABLE_CHARACTER = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Phone: 2-3 digits, 3-4 digits, 4 digits, separated by hyphens. */
export const PHONE_PATTERN = /^\d{2,3}-\d{3,4}-\d{4}$/;
