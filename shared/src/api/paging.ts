import { z } from 'zod';
import { PAGING } from '../limits.js';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'invalidFormat' });

/** The list request of every list call: `{ type, value, startDate, endDate, page, pageSize }`. */
export const pagingRequest = z
  .strictObject({
    type: z.string().max(30).optional(),
    value: z.string().trim().max(100).optional(),
    startDate: isoDate.optional().or(z.literal('')),
    endDate: isoDate.optional().or(z.literal('')),
    page: z.coerce.number().int().min(1).default(PAGING.startPage),
    pageSize: z.coerce.number().int().min(1).max(PAGING.maxPageSize).default(PAGING.defaultPageSize),
  })
  .refine((p) => !p.startDate || !p.endDate || p.startDate <= p.endDate, { error: 'dateOrder', path: ['endDate'] });

export type PagingRequest = z.infer<typeof pagingRequest>;

export interface ListAnswer<T> {
  list: T[];
  totalCount: number;
}

/** The number shown beside a list row: the total minus the offset. */
export function rowNumber(totalCount: number, page: number, pageSize: number, indexOnPage: number): number {
  return totalCount - ((page - 1) * pageSize + indexOnPage);
}
