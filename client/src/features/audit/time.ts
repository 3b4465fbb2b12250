import { viewerTimeZone } from '../../lib/timeZone';

/** A record's time as the audit screens show it: unambiguous, in the viewer's zone, with that zone named. */
export interface AuditTime {
  /** `2026-11-22` */
  date: string;
  /** `14:05:09` (24-hour) */
  time: string;
  /** `UTC+09:00` */
  zone: string;
  /** The IANA zone it is shown in, e.g. `Asia/Seoul`. */
  zoneName: string;
  /** The instant in UTC, ISO 8601 with milliseconds. */
  utc: string;
}

const cache = new Map<string, { parts: Intl.DateTimeFormat; offset: Intl.DateTimeFormat }>();

function formatters(timeZone: string | undefined) {
  const key = timeZone ?? '';
  let entry = cache.get(key);
  if (!entry) {
    entry = {
      parts: new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      }),
      offset: new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }),
    };
    cache.set(key, entry);
  }
  return entry;
}

/** `GMT+09:00` → `UTC+09:00`; plain `GMT` → `UTC+00:00`. */
export function zoneLabel(longOffset: string): string {
  const match = /GMT([+-]\d{2}:\d{2})?/.exec(longOffset);
  if (!match) return longOffset;
  return `UTC${match[1] ?? '+00:00'}`;
}

/**
 * Splits an ISO time into date, time and zone in `timeZone` (default: the viewer's, lib/timeZone). Null when
 * the value is not a time.
 */
export function formatAuditTime(iso: string, timeZone: string = viewerTimeZone()): AuditTime | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const { parts, offset } = formatters(timeZone);
  const pieces = parts.formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => pieces.find((part) => part.type === type)?.value ?? '';
  const zonePart = offset.formatToParts(date).find((part) => part.type === 'timeZoneName')?.value ?? '';
  return {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    time: `${get('hour')}:${get('minute')}:${get('second')}`,
    zone: zoneLabel(zonePart),
    zoneName: parts.resolvedOptions().timeZone,
    utc: date.toISOString(),
  };
}
