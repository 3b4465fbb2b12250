import { isoInZone } from '../exports/eln/crate.js';

/*
 * When a person's daily digest is due: the last moment, at or before now, whose wall-clock time in their
 * zone is the time they chose. Computed with Intl (the zone database Node.js carries), so a zone's
 * daylight-saving changes move the moment as the person's clock moves.
 */

/** Whether Intl knows each zone asked about (making a formatter is what costs; asked once per zone). */
const known = new Map<string, boolean>();

function isKnown(zone: string): boolean {
  let answer = known.get(zone);
  if (answer === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      answer = true;
    } catch {
      answer = false;
    }
    known.set(zone, answer);
  }
  return answer;
}

/** The zone itself when Intl knows it, else the fallback (the server's zone), else UTC. */
export function knownZone(zone: string | null | undefined, fallback: string): string {
  return [zone, fallback].find((candidate): candidate is string => !!candidate && isKnown(candidate)) ?? 'UTC';
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** What the zone's clock shows at that moment (read from the archives' ISO writer, `isoInZone`). */
function wallClock(instantMs: number, zone: string): WallClock {
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = (
    isoInZone(new Date(instantMs), zone).match(/^(\d+)-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)/) ?? []
  )
    .slice(1)
    .map(Number);
  return { year, month, day, hour, minute, second };
}

/** How far the zone's clock is ahead of UTC at that moment. */
function offsetMs(instantMs: number, zone: string): number {
  const c = wallClock(instantMs, zone);
  return Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - Math.floor(instantMs / 1000) * 1000;
}

/**
 * The moment the zone's clock shows this date and time. A time the change to summer time skips (02:30 on
 * that day) is taken as the moment the clock shows as much later (03:30).
 */
function momentOf(year: number, month: number, day: number, hour: number, minute: number, zone: string): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const first = asUtc - offsetMs(asUtc, zone);
  const second = asUtc - offsetMs(first, zone);
  const shows = (moment: number) => {
    const clock = wallClock(moment, zone);
    return clock.hour === hour && clock.minute === minute;
  };
  if (shows(second)) return second;
  if (shows(first)) return first;
  return Math.max(first, second);
}

/** The last moment at or before `now` at which the clock of `zone` showed `time` (HH:MM). */
export function lastDigestMoment(now: Date, zone: string, time: string): Date {
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  const today = wallClock(now.getTime(), zone);
  const moment = momentOf(today.year, today.month, today.day, hour, minute, zone);
  if (moment <= now.getTime()) return new Date(moment);
  // Date.UTC carries day 0 back into the previous month (and year).
  const yesterday = new Date(Date.UTC(today.year, today.month - 1, today.day - 1));
  return new Date(momentOf(yesterday.getUTCFullYear(), yesterday.getUTCMonth() + 1, yesterday.getUTCDate(), hour, minute, zone));
}
