import { describe, expect, it } from 'vitest';
import {
  isFiltered,
  isIsoDate,
  listSearchParams,
  newSearch,
  pageCount,
  pageWindow,
  parseListQuery,
  parseRecordNo,
  toCount,
  toPagingBody,
  type ListQuery,
} from './listParams';

const TYPES = ['title', 'leader'] as const;
type Type = (typeof TYPES)[number];
const parse = (search: string) => parseListQuery<Type>(new URLSearchParams(search), TYPES, 'title');

describe('list URL parameters', () => {
  it('reads t, sd, ed, w and p', () => {
    expect(parse('t=leader&sd=2025-01-02&ed=2025-03-04&w=%20Kim%20&p=3')).toEqual({
      type: 'leader',
      startDate: '2025-01-02',
      endDate: '2025-03-04',
      word: 'Kim',
      page: 3,
    });
  });

  it('falls back to defaults for anything malformed', () => {
    expect(parse('t=owner&sd=2025-02-30&ed=yesterday&p=-2')).toEqual({ type: 'title', startDate: '', endDate: '', word: '', page: 1 });
    expect(parse('p=0').page).toBe(1);
    expect(parse('p=2.5').page).toBe(1);
    expect(parse('p=abc').page).toBe(1);
    expect(parse('p=99999999999999999999').page).toBe(1);
    expect(parse('p=5000000').page).toBe(1_000_000);
    expect(parse(`w=${'x'.repeat(150)}`).word).toHaveLength(100);
  });

  it('swaps dates given in the wrong order', () => {
    const query = parse('sd=2025-05-01&ed=2025-01-01');
    expect([query.startDate, query.endDate]).toEqual(['2025-01-01', '2025-05-01']);
  });

  it('writes only what differs from the defaults, and the type only with a word', () => {
    const base: ListQuery<Type> = { type: 'title', startDate: '', endDate: '', word: '', page: 1 };
    expect(listSearchParams(base, 'title').toString()).toBe('');
    expect(listSearchParams({ ...base, type: 'leader' }, 'title').toString()).toBe('');
    expect(listSearchParams({ ...base, type: 'leader', word: ' Park ', page: 2 }, 'title').toString()).toBe('t=leader&w=Park&p=2');
    expect(listSearchParams({ ...base, startDate: '2025-01-01', endDate: '2025-01-31' }, 'title').toString()).toBe(
      'sd=2025-01-01&ed=2025-01-31',
    );
    expect(listSearchParams({ ...base, word: 'assay' }, 'title').toString()).toBe('w=assay');
  });

  it('round-trips through the URL', () => {
    const query: ListQuery<Type> = { type: 'leader', startDate: '2024-12-31', endDate: '2025-01-01', word: '김 연구', page: 7 };
    expect(parse(listSearchParams(query, 'title').toString())).toEqual(query);
  });

  it('a new search goes back to the first page', () => {
    expect(newSearch<Type>({ type: 'title', startDate: '', endDate: '', word: ' a ', page: 4 })).toEqual({
      type: 'title',
      startDate: '',
      endDate: '',
      word: 'a',
      page: 1,
    });
  });

  it('builds the list call body without empty members', () => {
    expect(toPagingBody<Type>({ type: 'leader', startDate: '', endDate: '', word: '', page: 2 })).toEqual({ page: 2, pageSize: 10 });
    expect(toPagingBody<Type>({ type: 'leader', startDate: '2025-01-01', endDate: '', word: 'Lee', page: 1 }, 20)).toEqual({
      type: 'leader',
      value: 'Lee',
      startDate: '2025-01-01',
      page: 1,
      pageSize: 20,
    });
    expect(toPagingBody<Type>({ type: 'title', startDate: '2025-01-01', endDate: '2025-02-01', word: '', page: 1 }, 10, false)).toEqual({
      page: 1,
      pageSize: 10,
    });
  });

  it('tells a filtered list from an unfiltered one', () => {
    expect(isFiltered({ word: ' ', startDate: '', endDate: '' })).toBe(false);
    expect(isFiltered({ word: '', startDate: '2025-01-01', endDate: '' })).toBe(true);
  });
});

describe('paging helpers', () => {
  it('checks calendar dates', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2025-02-29')).toBe(false);
    expect(isIsoDate('2025-13-01')).toBe(false);
    expect(isIsoDate('2025-1-01')).toBe(false);
  });

  it('counts pages, at least one', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(pageCount(-5, 10)).toBe(1);
  });

  it('shows a window of pages around the current one', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(10, 20)).toEqual([8, 9, 10, 11, 12]);
    expect(pageWindow(20, 20)).toEqual([16, 17, 18, 19, 20]);
    expect(pageWindow(19, 20)).toEqual([16, 17, 18, 19, 20]);
  });

  it('converts totalCount to a number', () => {
    expect(toCount(12)).toBe(12);
    expect(toCount('12')).toBe(12);
    expect(toCount('x')).toBe(0);
    expect(toCount(null)).toBe(0);
    expect(toCount(-3)).toBe(0);
  });

  it('reads record numbers from addresses', () => {
    expect(parseRecordNo('42')).toBe(42);
    expect(parseRecordNo('0')).toBeNull();
    expect(parseRecordNo('-1')).toBeNull();
    expect(parseRecordNo('4.2')).toBeNull();
    expect(parseRecordNo('create')).toBeNull();
    expect(parseRecordNo('9999999999999999')).toBeNull();
    expect(parseRecordNo(undefined)).toBeNull();
  });
});
