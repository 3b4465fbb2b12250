import { describe, expect, it } from 'vitest';
import { LIMITS } from '@eln/shared';
import {
  EMPTY_SEARCH,
  groupByKind,
  hitHref,
  parseSearchQuery,
  searchBody,
  searchPageHref,
  searchParamsOf,
  snippetParts,
} from './searchParams';

const parse = (search: string) => parseSearchQuery(new URLSearchParams(search));

describe('the results page URL', () => {
  it('reads words, kinds, project, writer, status, dates and page', () => {
    expect(parse('w=%20lot%2024-117%20&k=project,note,bogus&pj=12&wr=kim@lab&st=T&sd=2026-01-02&ed=2026-03-04&p=3')).toEqual({
      q: 'lot 24-117',
      kinds: ['note', 'project'],
      projectNo: 12,
      writer: 'kim@lab',
      status: 'T',
      startDate: '2026-01-02',
      endDate: '2026-03-04',
      page: 3,
    });
  });

  it('falls back to defaults for anything malformed, and puts crossed dates in order', () => {
    expect(parse('k=nope&pj=-1&st=X&sd=2026-02-30&ed=tomorrow&p=0')).toEqual(EMPTY_SEARCH);
    expect(parse('pj=1.5&p=abc')).toEqual(EMPTY_SEARCH);
    expect(parse('sd=2026-05-01&ed=2026-01-01')).toMatchObject({ startDate: '2026-01-01', endDate: '2026-05-01' });
    expect(parse(`w=${'x'.repeat(LIMITS.searchQuery + 50)}`).q).toHaveLength(LIMITS.searchQuery);
  });

  it('writes only what is not at its default, and reads back what it wrote', () => {
    expect(searchParamsOf(EMPTY_SEARCH).toString()).toBe('');
    const query = { ...EMPTY_SEARCH, q: '염산', kinds: ['file' as const, 'note' as const], projectNo: 4, status: 'W' as const, page: 2 };
    const written = searchParamsOf(query);
    expect(written.get('k')).toBe('note,file');
    expect(parseSearchQuery(written)).toEqual({ ...query, kinds: ['note', 'file'] });
    expect(searchPageHref({ q: 'pH drift' })).toBe('/search?w=pH+drift');
    expect(searchPageHref({})).toBe('/search');
  });

  it('makes the call body without empty members, and none without words', () => {
    expect(searchBody({ ...EMPTY_SEARCH, q: '  ' }, 10)).toBeNull();
    expect(searchBody({ ...EMPTY_SEARCH, q: ' buffer ', endDate: '2026-01-01' }, 20)).toEqual({
      q: 'buffer',
      endDate: '2026-01-01',
      page: 1,
      pageSize: 20,
    });
  });
});

describe('hits', () => {
  it('open a note at its block, and other records on their own screens', () => {
    expect(hitHref({ kind: 'note', no: 7, labNoteNo: 7, uid: 'pabc' })).toBe('/note/7?block=pabc');
    expect(hitHref({ kind: 'note', no: 7, labNoteNo: 7, uid: null })).toBe('/note/7');
    expect(hitHref({ kind: 'file', no: 90, labNoteNo: 7, uid: 'f 1' })).toBe('/note/7?block=f%201');
    expect(hitHref({ kind: 'project', no: 3, labNoteNo: null, uid: null })).toBe('/project/3');
    expect(hitHref({ kind: 'template', no: 3, labNoteNo: null, uid: null })).toBe('/template/note/3');
    expect(hitHref({ kind: 'schema', no: 3, labNoteNo: null, uid: null })).toBe('/schema/3');
    expect(hitHref({ kind: 'dropbox', no: 3, labNoteNo: null, uid: null })).toBe('/dropbox/3');
  });

  it('are grouped by kind in a fixed order, each group keeping the ranking', () => {
    const hits = [
      { kind: 'project' as const, id: 1 },
      { kind: 'note' as const, id: 2 },
      { kind: 'project' as const, id: 3 },
      { kind: 'note' as const, id: 4 },
    ];
    expect(groupByKind(hits).map((group) => [group.kind, group.hits.map((hit) => hit.id)])).toEqual([
      ['note', [2, 4]],
      ['project', [1, 3]],
    ]);
  });
});

describe('snippets', () => {
  const shown = (text: string, marks: Array<{ start: number; end: number }>) =>
    snippetParts(text, marks)
      .map((part) => (part.marked ? `[${part.text}]` : part.text))
      .join('');

  it('mark the matched ranges', () => {
    expect(shown('묽은염산을 넣고', [{ start: 2, end: 4 }])).toBe('묽은[염산]을 넣고');
    expect(
      shown('pH drift was small', [
        { start: 0, end: 2 },
        { start: 3, end: 8 },
      ]),
    ).toBe('[pH] [drift] was small');
  });

  it('survive ranges out of order, overlapping, touching, empty or beyond the text', () => {
    expect(
      shown('abcdef', [
        { start: 3, end: 5 },
        { start: 1, end: 4 },
      ]),
    ).toBe('a[bcde]f');
    expect(
      shown('abcdef', [
        { start: 1, end: 2 },
        { start: 2, end: 3 },
      ]),
    ).toBe('a[bc]def');
    expect(
      shown('abcdef', [
        { start: 2, end: 2 },
        { start: 4, end: 99 },
      ]),
    ).toBe('abcd[ef]');
    expect(shown('abc', [{ start: 7, end: 9 }])).toBe('abc');
    expect(shown('<b>x</b>', [{ start: 3, end: 4 }])).toBe('<b>[x]</b>');
  });
});
