/* How a signing time is written: in the signer's zone, with the zone's short name (shared with the exports). */
export { formatZonedTime } from '@eln/shared';

/** This browser's IANA time zone, sent with a signature. */
export function localTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
