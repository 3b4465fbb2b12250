import type { Language } from '@eln/shared';

/** The steps of a relative time: up to each limit (in seconds), said in its unit. */
const STEPS: ReadonlyArray<{ below: number; unit: Intl.RelativeTimeFormatUnit; seconds: number }> = [
  { below: 45, unit: 'second', seconds: 1 },
  { below: 45 * 60, unit: 'minute', seconds: 60 },
  { below: 22 * 3600, unit: 'hour', seconds: 3600 },
  { below: 26 * 86_400, unit: 'day', seconds: 86_400 },
  { below: 320 * 86_400, unit: 'month', seconds: 30 * 86_400 },
];

/**
 * How long ago (or, for a clock ahead of this one, how soon) a time was, as the language says it: "now",
 * "5 minutes ago", "yesterday", "3 months ago". Times under 45 seconds are "now".
 */
export function relativeTime(iso: string, language: Language, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '—';
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const seconds = (at - now) / 1000;
  const magnitude = Math.abs(seconds);
  if (magnitude < 45) return format.format(0, 'second');
  const step = STEPS.find((candidate) => magnitude < candidate.below);
  return step ? format.format(Math.round(seconds / step.seconds), step.unit) : format.format(Math.round(seconds / (365 * 86_400)), 'year');
}
