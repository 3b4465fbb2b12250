import type { Language } from '@eln/shared';

/* How a signing time is written: in the signer's zone, with the zone's short name. */

/** A signing time as the signer saw it. */
export interface ZonedTime {
  /** "2026-11-22 10:05 GMT+9": date and 24-hour time in the signer's zone, then the zone's short name. */
  text: string;
  /** The IANA zone used (the signer's, or UTC when none was recorded or it is unknown here). */
  zone: string;
  iso: string;
}

function partsIn(date: Date, zone: string, language: Language): Intl.DateTimeFormatPart[] {
  return new Intl.DateTimeFormat(language, {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(date);
}

/**
 * Writes an ISO time in the signer's time zone as "YYYY-MM-DD HH:mm ZONE" (the zone's short name in the
 * interface language, e.g. "GMT+9", "EST", "JST"). Null for a missing or unreadable time.
 */
export function formatZonedTime(iso: string | null | undefined, timeZone: string | null | undefined, language: Language): ZonedTime | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  let zone = timeZone?.trim() || 'UTC';
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = partsIn(date, zone, language);
  } catch {
    // A zone this browser does not know: UTC, said so, rather than a wrong local time.
    zone = 'UTC';
    parts = partsIn(date, zone, language);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return { text: `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`.trim(), zone, iso };
}

/** This browser's IANA time zone, sent with a signature. */
export function localTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
