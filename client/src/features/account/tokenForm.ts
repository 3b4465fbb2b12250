import { TOKEN_LIMITS, type TokenRecord } from '@eln/shared';
import type { BadgeTone } from '../../ui/Badge';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The expiry the form offers first: 90 days from today. */
const INITIAL_DAYS = 90;

/** A day as the date input reads and writes it (YYYY-MM-DD, in the browser's zone). */
function dayOf(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The days the expiry field allows: from tomorrow to a year from today, less a day so that the end of the
 * last day (when a token chosen for it expires) is still within the server's year.
 */
export function expiryInputBounds(today: Date): { min: string; max: string; initial: string } {
  const at = (days: number) => dayOf(new Date(today.getTime() + days * DAY_MS));
  return { min: at(1), max: at(TOKEN_LIMITS.maxLifetimeDays - 1), initial: at(INITIAL_DAYS) };
}

/** A token chosen to expire on a day works until that day's end, in the browser's zone (an instant the API takes). */
export function expiryOfDate(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return day;
  return new Date(year, month - 1, date, 23, 59, 59).toISOString();
}

export const TOKEN_STATE_TONES: Record<TokenRecord['state'], BadgeTone> = {
  active: 'success',
  expired: 'neutral',
  revoked: 'danger',
  forbidden: 'warning',
};
