/**
 * How a note shows sizes and dates, in the reader's language: the editor's file and date blocks and the
 * server's HTML rendering of a version use the same functions, so a printed note reads as the screen does.
 */

/** "2.4 MB", "812 KB", "120 B" in the interface language's number format. */
export function formatBytes(bytes: number, language: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A date as the interface language writes it, from YYYY-MM-DD (read as a calendar day, no time zone). */
export function formatIsoDate(value: string, language: string): string {
  if (!ISO_DATE.test(value)) return value;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1));
  return new Intl.DateTimeFormat(language, { dateStyle: 'full', timeZone: 'UTC' }).format(date);
}

const WAIT_UNITS = {
  en: {
    minutes: (n: number) => `${n} ${n === 1 ? 'minute' : 'minutes'}`,
    seconds: (n: number) => `${n} ${n === 1 ? 'second' : 'seconds'}`,
    join: ' ',
  },
  ko: { minutes: (n: number) => `${n}분`, seconds: (n: number) => `${n}초`, join: ' ' },
  ja: { minutes: (n: number) => `${n}分`, seconds: (n: number) => `${n}秒`, join: '' },
} as const;

/** A wait in minutes and seconds as the language says it: "14 minutes 56 seconds", "14분 56초", "14分56秒". */
export function waitText(totalSeconds: number, language: 'en' | 'ko' | 'ja'): string {
  const units = WAIT_UNITS[language];
  const seconds = Math.max(0, Math.ceil(totalSeconds));
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return units.seconds(rest);
  return rest === 0 ? units.minutes(minutes) : `${units.minutes(minutes)}${units.join}${units.seconds(rest)}`;
}

/** A moment as written in a given zone: "2026-11-22 10:05 GMT+9", with the IANA zone it was written in. */
export interface ZonedTime {
  /** Date and 24-hour time in the zone, then the zone's short name in the language ("GMT+9", "EST", "JST"). */
  text: string;
  /** The IANA zone used: the one asked for, or UTC when none was given or it is unknown here. */
  zone: string;
  iso: string;
}

function zonedParts(date: Date, zone: string, language: string): Intl.DateTimeFormatPart[] {
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
 * A moment in a time zone as "YYYY-MM-DD HH:mm ZONE" (the zone's short name in the language). An unknown
 * zone falls back to UTC, said so in `zone`, rather than a wrong local time. Null for a missing or
 * unreadable moment. The exports write signing and saving times with it.
 */
export function formatZonedTime(
  moment: string | Date | null | undefined,
  timeZone: string | null | undefined,
  language: string,
): ZonedTime | null {
  if (!moment) return null;
  const date = moment instanceof Date ? moment : new Date(moment);
  if (Number.isNaN(date.getTime())) return null;
  let zone = timeZone?.trim() || 'UTC';
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = zonedParts(date, zone, language);
  } catch {
    zone = 'UTC';
    parts = zonedParts(date, zone, language);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    text: `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`.trim(),
    zone,
    iso: date.toISOString(),
  };
}
