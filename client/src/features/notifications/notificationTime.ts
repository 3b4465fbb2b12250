import type { Language } from '@eln/shared';
import { formatDateTime } from '../../lib/format';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * When a notification came, as a reader glances at it: "just now", "5 minutes ago", "yesterday", up to a
 * week back; older ones as the date and time in the reader's zone. `justNow` is the words for under a minute.
 */
export function relativeTime(iso: string, now: number, language: Language, justNow: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '—';
  const ago = Math.max(0, now - at);
  if (ago < MINUTE) return justNow;
  const words = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  if (ago < HOUR) return words.format(-Math.floor(ago / MINUTE), 'minute');
  if (ago < DAY) return words.format(-Math.floor(ago / HOUR), 'hour');
  if (ago < 7 * DAY) return words.format(-Math.floor(ago / DAY), 'day');
  return formatDateTime(at, language);
}
