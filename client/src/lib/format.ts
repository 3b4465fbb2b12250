import type { Language } from '@eln/shared';
import { viewerTimeZone } from './timeZone';

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A date as the language writes it ("Nov 22, 2026", "2026. 11. 22.", "2026/11/22"), on the viewer's calendar
 * (lib/timeZone); a calendar day (YYYY-MM-DD) is that day in every zone. '—' when unreadable.
 */
export function formatDate(value: string | number | Date | null | undefined, language: Language): string {
  const date = value === null || value === undefined ? null : toDate(value);
  const timeZone = typeof value === 'string' && CALENDAR_DAY.test(value) ? 'UTC' : viewerTimeZone();
  return date ? new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone }).format(date) : '—';
}

/** A date with its time of day, in the viewer's zone. */
export function formatDateTime(value: string | number | Date | null | undefined, language: Language): string {
  const date = value === null || value === undefined ? null : toDate(value);
  return date
    ? new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: viewerTimeZone() }).format(date)
    : '—';
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
