import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PagingRequest } from '@eln/shared';

export const offsetOf = (paging: Pick<PagingRequest, 'page' | 'pageSize'>) => (paging.page - 1) * paging.pageSize;

/**
 * A date range on a timestamp column, both ends inclusive, the dates read in the company's time zone.
 * Written as a range on the column itself so that an index on it serves the query.
 */
export function withinDates(column: AnyColumn, paging: Pick<PagingRequest, 'startDate' | 'endDate'>, timeZone: string): SQL | undefined {
  const parts: SQL[] = [];
  if (paging.startDate) parts.push(sql`${column} >= (${paging.startDate}::date::timestamp at time zone ${timeZone})`);
  if (paging.endDate) parts.push(sql`${column} < ((${paging.endDate}::date + 1)::timestamp at time zone ${timeZone})`);
  return parts.length ? sql.join(parts, sql` and `) : undefined;
}
