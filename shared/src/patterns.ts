/** Email as the spec defines it: non-space text, @, non-space text, dot, non-space text. */
export const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;
/** Phone: 2-3 digits, 3-4 digits, 4 digits, separated by hyphens. */
export const PHONE_PATTERN = /^\d{2,3}-\d{3,4}-\d{4}$/;
