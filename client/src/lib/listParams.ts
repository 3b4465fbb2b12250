import { PAGING } from '@eln/shared';

/**
 * The state of a list screen, kept in the URL (spec section 2): `t` search type, `sd` start date, `ed` end
 * date, `w` search word, `p` page. Anything malformed in a hand-edited URL falls back to its default, so a
 * list never fails to open because of its address.
 */
export interface ListQuery<T extends string> {
  type: T;
  startDate: string;
  endDate: string;
  word: string;
  page: number;
}

export const LIST_PARAM = { type: 't', startDate: 'sd', endDate: 'ed', word: 'w', page: 'p' } as const;

/** Longest search word the API accepts (the paging request's `value`). */
export const MAX_WORD_LENGTH = 100;
/** A page number beyond any real list; larger values in a URL are read as this. */
export const MAX_PAGE = 1_000_000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function readDate(value: string | null): string {
  const text = (value ?? '').trim();
  return isIsoDate(text) ? text : '';
}

function readPage(value: string | null): number {
  const text = (value ?? '').trim();
  if (!/^\d+$/.test(text)) return PAGING.startPage;
  const page = Number(text);
  if (!Number.isSafeInteger(page) || page < 1) return PAGING.startPage;
  return Math.min(page, MAX_PAGE);
}

/**
 * Reads a list's state from its URL. `types` are the search types the list offers; an unknown `t` becomes
 * `defaultType`. Dates in the wrong order are swapped, since the server would refuse them.
 */
export function parseListQuery<T extends string>(params: URLSearchParams, types: readonly T[], defaultType: T): ListQuery<T> {
  const rawType = params.get(LIST_PARAM.type);
  const type = types.find((candidate) => candidate === rawType) ?? defaultType;
  let startDate = readDate(params.get(LIST_PARAM.startDate));
  let endDate = readDate(params.get(LIST_PARAM.endDate));
  if (startDate && endDate && startDate > endDate) [startDate, endDate] = [endDate, startDate];
  const word = (params.get(LIST_PARAM.word) ?? '').trim().slice(0, MAX_WORD_LENGTH);
  return { type, startDate, endDate, word, page: readPage(params.get(LIST_PARAM.page)) };
}

/**
 * Writes a list's state as URL parameters, leaving out what is at its default (an empty search has no
 * parameters at all; page 1 has no `p`). The type is kept only alongside a word, where it means something.
 */
export function listSearchParams<T extends string>(query: ListQuery<T>, defaultType: T): URLSearchParams {
  const params = new URLSearchParams();
  const word = query.word.trim();
  if (word && query.type !== defaultType) params.set(LIST_PARAM.type, query.type);
  if (query.startDate) params.set(LIST_PARAM.startDate, query.startDate);
  if (query.endDate) params.set(LIST_PARAM.endDate, query.endDate);
  if (word) params.set(LIST_PARAM.word, word);
  if (query.page > PAGING.startPage) params.set(LIST_PARAM.page, String(query.page));
  return params;
}

/** A new search: the form's values, back on the first page. */
export function newSearch<T extends string>(query: ListQuery<T>): ListQuery<T> {
  return { ...query, word: query.word.trim(), page: PAGING.startPage };
}

/** Whether the list is filtered at all (to tell "no results" from "nothing yet"). */
export function isFiltered(query: Pick<ListQuery<string>, 'word' | 'startDate' | 'endDate'>): boolean {
  return query.word.trim() !== '' || query.startDate !== '' || query.endDate !== '';
}

export interface PagingBody<T extends string> {
  type?: T;
  value?: string;
  startDate?: string;
  endDate?: string;
  page: number;
  pageSize: number;
}

/** The list call's body (`pagingRequest` in shared), without empty members. */
export function toPagingBody<T extends string>(
  query: ListQuery<T>,
  pageSize: number = PAGING.defaultPageSize,
  withDates = true,
): PagingBody<T> {
  const body: PagingBody<T> = { page: query.page, pageSize };
  const word = query.word.trim();
  if (word) {
    body.type = query.type;
    body.value = word;
  }
  if (withDates && query.startDate) body.startDate = query.startDate;
  if (withDates && query.endDate) body.endDate = query.endDate;
  return body;
}

/** The last page of a list (at least 1). */
export function pageCount(totalCount: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, totalCount) / Math.max(1, pageSize)));
}

/**
 * The page numbers a pager shows: a window of at most `width` pages around the current one, kept inside
 * 1..last.
 */
export function pageWindow(page: number, last: number, width = 5): number[] {
  const size = Math.min(width, last);
  let start = Math.max(1, page - Math.floor(size / 2));
  start = Math.min(start, last - size + 1);
  return Array.from({ length: size }, (_, index) => start + index);
}

/** totalCount arrives as a number, but the spec says to convert it: a string or garbage becomes a number. */
export function toCount(value: unknown): number {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number > 0 ? Math.floor(number) : 0;
}

/** The record number in an address such as `/project/:id` or `/admin/:id`; null when it cannot be one. */
export function parseRecordNo(id: string | undefined): number | null {
  if (!id || !/^\d{1,15}$/.test(id)) return null;
  const no = Number(id);
  return Number.isSafeInteger(no) && no > 0 ? no : null;
}
