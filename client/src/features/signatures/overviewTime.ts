import { formatZonedTime, type Language } from '@eln/shared';
import { viewerTimeZone } from '../../lib/timeZone';

/*
 * How the signature overview says its times: every moment in the viewer's zone (named), and how long a
 * request has waited ("3 days", "5 hours") in the viewer's language.
 */

const STEPS: ReadonlyArray<{ unit: 'day' | 'hour' | 'minute'; ms: number }> = [
  { unit: 'day', ms: 86_400_000 },
  { unit: 'hour', ms: 3_600_000 },
  { unit: 'minute', ms: 60_000 },
];

/** How long since `fromIso`, in its largest whole unit ("3 days", "3일", "3 日"); null under a minute (or a time ahead). */
export function waitedFor(fromIso: string, now: number, language: Language): string | null {
  const elapsed = now - Date.parse(fromIso);
  if (!Number.isFinite(elapsed)) return null;
  const step = STEPS.find((candidate) => elapsed >= candidate.ms);
  if (!step) return null;
  return new Intl.NumberFormat(language, { style: 'unit', unit: step.unit, unitDisplay: 'long' }).format(Math.floor(elapsed / step.ms));
}

/** A moment in the viewer's zone: "2026-11-22 10:05 GMT+9" ('—' when missing). */
export function viewerTime(iso: string | null, language: Language): string {
  return formatZonedTime(iso, viewerTimeZone(), language)?.text ?? '—';
}
