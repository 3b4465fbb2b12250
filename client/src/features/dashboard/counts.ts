import type { DashboardCounts } from '@eln/shared';

export type DashboardCountKey = keyof DashboardCounts;

/** The six counts, in the order the cards show them. */
export const COUNT_KEYS = [
  'ongoing',
  'closable',
  'closed',
  'templates',
  'schemas',
  'dropboxes',
] as const satisfies readonly DashboardCountKey[];

export type Counts = Record<DashboardCountKey, number | null>;

/**
 * Reads `/v1/dashboard/count`'s answer. A count that is null (its feature is not built yet), missing or
 * not a number shows as unknown.
 */
export function parseCounts(data: unknown): Counts {
  const source = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const result: Counts = { ongoing: null, closable: null, closed: null, templates: null, schemas: null, dropboxes: null };
  for (const key of COUNT_KEYS) {
    const raw = source[key];
    const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    result[key] = typeof value === 'number' && Number.isFinite(value) ? value : null;
  }
  return result;
}

export type GreetingKey = 'morning' | 'afternoon' | 'evening';

/** Morning until noon, afternoon until 18:00, evening otherwise (and before 5:00). */
export function greetingFor(hour: number): GreetingKey {
  if (hour >= 5 && hour < 12) return 'morning';
  if (hour >= 12 && hour < 18) return 'afternoon';
  return 'evening';
}
