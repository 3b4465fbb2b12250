/**
 * A catalogue in another language has the English catalogue's shape: the same keys, all strings, so a
 * missing or extra translation fails the compiler.
 */
export type Translation<T> = T extends string ? string : { [K in keyof T]: Translation<T[K]> };

/**
 * Fills i18next's {{name}} placeholders, as the client's i18next does (no escaping: the caller escapes
 * for where the text goes). A placeholder without a value stays as it is.
 */
export function fillIn(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
}
