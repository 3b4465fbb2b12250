import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PAGING } from '@eln/shared';
import { call } from '../api';
import { readFilterParam } from '../ui/SegmentedFilter';
import { isFiltered, listSearchParams, parseListQuery, toPagingBody, type ListQuery } from './listParams';
import { useLoad, type Loaded } from './useLoad';

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

/**
 * A library list (templates, schemas, dropboxes): searched by title and narrowed by one more filter (a
 * status, a state), everything in the URL so that back, forward and a shared link show the same page.
 */
export function useFilteredTitleList<Filter extends string, Answer>(options: {
  path: string;
  filterField: string;
  filterValues: readonly Filter[];
  pageSize?: number;
}): FilteredTitleList<Filter, Answer> {
  const { path, filterField, filterValues, pageSize = PAGING.defaultPageSize } = options;
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => parseListQuery(params, TITLE_SEARCH, 'title'), [params]);
  const filter = readFilterParam(params, FILTER_PARAM, filterValues);
  const paramsFor = (next: ListQuery<TitleSearch>, nextFilter: Filter | '' = filter) => {
    const search = listSearchParams(next, 'title');
    if (nextFilter) search.set(FILTER_PARAM, nextFilter);
    return search;
  };
  const key = paramsFor(query).toString();
  const list = useLoad(
    (signal) => call<Answer>(path, { ...toPagingBody(query, pageSize), ...(filter ? { [filterField]: filter } : {}) }, { signal }),
    key,
  );

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
