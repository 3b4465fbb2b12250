import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PAGING, type CallAnswer, type CallInput, type CallSpec } from '@eln/shared';
import { useApiQuery } from '../api/queries';
import { readFilterParam } from '../ui/SegmentedFilter';
import { isFiltered, listSearchParams, parseListQuery, toPagingBody, type ListQuery } from './listParams';
import type { Loaded } from '../api/queries';

const TITLE_SEARCH = ['title'] as const;
export type TitleSearch = (typeof TITLE_SEARCH)[number];

/** The extra filter's URL parameter, beside the lists' t, sd, ed, w and p. */
const FILTER_PARAM = 'st';

export interface FilteredTitleList<Filter extends string, Answer> {
  query: ListQuery<TitleSearch>;
  /** The extra filter ('' for all). */
  filter: Filter | '';
  list: Loaded<Answer>;
  /** Whether a search or the filter narrows the list (an empty answer then means "no matches"). */
  filtered: boolean;
  onSearch(next: ListQuery<TitleSearch>): void;
  /** The URL search of another page of the same list, for the pagination links. */
  searchFor(page: number): string;
  setFilter(value: Filter | ''): void;
  reset(): void;
}

interface ListOptions<Filter extends string> {
  /** The request field the extra filter sets. */
  filterField: string;
  filterValues: readonly Filter[];
  pageSize?: number;
}

/** The list's search and filter as the URL holds them, and the request body they make. */
function useListParams<Filter extends string>({ filterField, filterValues, pageSize = PAGING.defaultPageSize }: ListOptions<Filter>) {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => parseListQuery(params, TITLE_SEARCH, 'title'), [params]);
  const filter = readFilterParam(params, FILTER_PARAM, filterValues);
  const paramsFor = (next: ListQuery<TitleSearch>, nextFilter: Filter | '' = filter) => {
    const search = listSearchParams(next, 'title');
    if (nextFilter) search.set(FILTER_PARAM, nextFilter);
    return search;
  };
  const key = paramsFor(query).toString();
  const body = { ...toPagingBody(query, pageSize), ...(filter ? { [filterField]: filter } : {}) };
  return { query, filter, key, body, paramsFor, setParams };
}

function withList<Filter extends string, Answer>(
  { query, filter, key, paramsFor, setParams }: ReturnType<typeof useListParams<Filter>>,
  list: Loaded<Answer>,
): FilteredTitleList<Filter, Answer> {
  return {
    query,
    filter,
    list,
    filtered: isFiltered(query) || filter !== '',
    onSearch(next) {
      const search = paramsFor(next);
      if (search.toString() === key) list.reload();
      else setParams(search);
    },
    searchFor(page) {
      const search = paramsFor({ ...query, page }).toString();
      return search ? `?${search}` : '';
    },
    setFilter(value) {
      setParams(paramsFor({ ...query, page: PAGING.startPage }, value));
    },
    reset() {
      setParams(new URLSearchParams());
    },
  };
}

/**
 * A library list (templates, schemas, dropboxes): searched by title and narrowed by one more filter (a
 * status, a state), everything in the URL so that back, forward and a shared link show the same page.
 * Loaded through its route-table entry (`call`).
 */
export function useFilteredTitleList<Filter extends string, C extends CallSpec>(
  options: ListOptions<Filter> & { call: C },
): FilteredTitleList<Filter, CallAnswer<C>> {
  const params = useListParams(options);
  // Every library's list call takes the paging request with its filter field, which the types of a
  // call in general cannot show.
  return withList(params, useApiQuery(options.call, params.body as CallInput<C>));
}
