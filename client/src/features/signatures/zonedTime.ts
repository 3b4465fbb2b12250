/* How a signing time is written: in the signer's zone, with the zone's short name (shared with the exports). */
export { formatZonedTime } from '@eln/shared';
