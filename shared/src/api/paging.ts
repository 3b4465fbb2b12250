import { z } from 'zod';
import { LIMITS, PAGING } from '../limits.js';
import { dateFilter, text } from '../validation.js';

/** A list request's dates and page, shared by every list call. */
export const pageFields = {
  startDate: dateFilter,
  endDate: dateFilter,
  page: z.coerce.number().int().min(1).max(LIMITS.maxRecordNo).default(PAGING.startPage),
  pageSize: z.coerce.number().int().min(1).max(PAGING.maxPageSize).default(PAGING.defaultPageSize),
};

/** Whether a list request's dates are in order (refused as `dateOrder` on `endDate`: DATE_ORDER). */
export const datesInOrder = (p: { startDate?: string; endDate?: string }) => !p.startDate || !p.endDate || p.startDate <= p.endDate;
export const DATE_ORDER = { error: 'dateOrder', path: ['endDate'] };

/** The list request of every list call: `{ type, value, startDate, endDate, page, pageSize }`. */
export const pagingRequest = z
  .strictObject({
    type: text().max(30).optional(),
    value: text().trim().max(100).optional(),
    ...pageFields,
  })
  .refine(datesInOrder, DATE_ORDER);

export type PagingRequest = z.infer<typeof pagingRequest>;

export interface ListAnswer<T> {
  list: T[];
  totalCount: number;
}

/** The answer schema of a list call: `{ list, totalCount }`, with the schema of one row. */
export function listAnswer<Row extends z.ZodType>(row: Row) {
  return z.strictObject({ list: z.array(row), totalCount: z.number().int().min(0) });
}

/** The number shown beside a list row: the total minus the offset. */
export function rowNumber(totalCount: number, page: number, pageSize: number, indexOnPage: number): number {
  return totalCount - ((page - 1) * pageSize + indexOnPage);
}
