import { isTimeZone } from '@eln/shared';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

/*
 * The one place the screens' time zone comes from: the zone the person chose on My account (kept on the
 * server, and here as last read from it), else this browser's own. Every time the screens show, and the
 * zone sent with a signature or an export, is in it.
 */

/** This browser's IANA zone (UTC when the browser does not say). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** A zone this browser can show times in; a zone it does not know counts as none chosen. */
const usable = (zone: string | null): string | null => (zone && isTimeZone(zone) ? zone : null);

let chosen: string | null = usable(readStorage(STORAGE_KEYS.timeZone));

/**
 * Takes the person's choice (null: the browser's own) and keeps it for the next page load; answers whether
 * the choice is kept (storage may be unavailable), so that a reload shows it.
 */
export function setChosenTimeZone(zone: string | null): boolean {
  chosen = usable(zone);
  writeStorage(STORAGE_KEYS.timeZone, chosen);
  return readStorage(STORAGE_KEYS.timeZone) === chosen;
}

/** The zone the screens show times in. */
export function viewerTimeZone(): string {
  return chosen ?? browserTimeZone();
}

/** A moment's calendar day and hour in the viewer's zone (the day a date block inserts, the dashboard's greeting). */
export function zonedDay(moment: Date = new Date(), zone: string = viewerTimeZone()): { iso: string; hour: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(moment);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return { iso: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) };
}
