import type { Language } from '@eln/shared';

function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date as the language writes it ("Nov 22, 2026", "2026. 11. 22.", "2026/11/22"); '—' when unreadable. */
export function formatDate(value: string | number | Date | null | undefined, language: Language): string {
  const date = value === null || value === undefined ? null : toDate(value);
  return date ? new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(date) : '—';
}

/** A date with its time of day. */
export function formatDateTime(value: string | number | Date | null | undefined, language: Language): string {
  const date = value === null || value === undefined ? null : toDate(value);
  return date ? new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date) : '—';
}

export function formatNumber(value: number, language: Language): string {
  return new Intl.NumberFormat(language).format(value);
}

/** Initials for an avatar: first letters of first and last word for Latin names, else the first character. */
export function initials(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) return '?';
  const parts = trimmed.split(/\s+/);
  const first = parts[0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1] ?? '') : '';
  return /^[A-Za-z]/.test(first) ? (first.charAt(0) + last.charAt(0)).toUpperCase() : (Array.from(trimmed)[0] ?? '?');
}
