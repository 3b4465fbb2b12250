import { UNSTORABLE_CHARACTER } from './patterns.js';

/**
 * Canonical JSON: object keys sorted at every depth, no whitespace. Two equal values always give the
 * same text, whatever key order the database or a driver hands back.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

const EVERY_UNSTORABLE_CHARACTER = new RegExp(UNSTORABLE_CHARACTER.source, 'g');

/**
 * What text looks like after a trip through a PostgreSQL text column: a lone UTF-16 surrogate becomes
 * U+FFFD (the drivers encode UTF-8 that way), and so does NUL, which PostgreSQL cannot store at all.
 */
export function asStoredText(value: string): string {
  return value.replace(EVERY_UNSTORABLE_CHARACTER, '\uFFFD');
}

/**
 * What a value looks like after a trip through jsonb: dates become strings, undefined disappears, and
 * every string and key is stored text (see asStoredText).
 */
export function asStoredJson(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value), (_key, inner: unknown) =>
    typeof inner === 'string' ? asStoredText(inner) : storedKeys(inner),
  ) as unknown;
}

function storedKeys(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.every(([key]) => asStoredText(key) === key)) return value;
  return Object.fromEntries(entries.map(([key, inner]) => [asStoredText(key), inner]));
}
