import {
  LIMITS,
  NOTE_STATUS,
  PAGING,
  SEARCH_KINDS,
  type CallInput,
  type NoteStatus,
  type SearchHit,
  type SearchKind,
  type api,
} from '@eln/shared';
import { isIsoDate, LIST_PARAM, MAX_PAGE } from '../../lib/listParams';

/**
 * The results page's state in its URL, after the lists' conventions (spec section 2): `w` the words, `sd`
 * and `ed` the dates, `p` the page; beside them `k` the kinds (comma-separated), `pj` the project's number,
 * `wr` the writer's user ID and `st` the note status. Anything malformed falls back to its default, so the
 * page never fails to open because of its address.
 */
export interface SearchQuery {
  q: string;
  kinds: SearchKind[];
  projectNo: number | null;
  writer: string;
  status: NoteStatus | '';
  startDate: string;
  endDate: string;
  page: number;
}

export const SEARCH_PARAM = { ...LIST_PARAM, kinds: 'k', project: 'pj', writer: 'wr', status: 'st' } as const;

const STATUSES = Object.values(NOTE_STATUS) as NoteStatus[];

export const EMPTY_SEARCH: SearchQuery = {
  q: '',
  kinds: [],
  projectNo: null,
  writer: '',
  status: '',
  startDate: '',
  endDate: '',
  page: PAGING.startPage,
};

function readNumber(value: string | null, max: number): number | null {
  const text = (value ?? '').trim();
  if (!/^\d{1,16}$/.test(text)) return null;
  const number = Number(text);
  return Number.isSafeInteger(number) && number >= 1 ? Math.min(number, max) : null;
}

function readDate(value: string | null): string {
  const text = (value ?? '').trim();
  return isIsoDate(text) ? text : '';
}

export function parseSearchQuery(params: URLSearchParams): SearchQuery {
  const kinds = (params.get(SEARCH_PARAM.kinds) ?? '').split(',').map((kind) => kind.trim());
  const status = params.get(SEARCH_PARAM.status) ?? '';
  let startDate = readDate(params.get(SEARCH_PARAM.startDate));
  let endDate = readDate(params.get(SEARCH_PARAM.endDate));
  if (startDate && endDate && startDate > endDate) [startDate, endDate] = [endDate, startDate];
  return {
    q: (params.get(SEARCH_PARAM.word) ?? '').trim().slice(0, LIMITS.searchQuery),
    // In the order the page offers them, each once: two addresses naming the same kinds search the same.
    kinds: SEARCH_KINDS.filter((kind) => kinds.includes(kind)),
    projectNo: readNumber(params.get(SEARCH_PARAM.project), LIMITS.maxRecordNo),
    writer: (params.get(SEARCH_PARAM.writer) ?? '').trim().slice(0, LIMITS.email),
    status: (STATUSES as string[]).includes(status) ? (status as NoteStatus) : '',
    startDate,
    endDate,
    page: readNumber(params.get(SEARCH_PARAM.page), MAX_PAGE) ?? PAGING.startPage,
  };
}

/** The URL parameters of a search, leaving out what is at its default. */
export function searchParamsOf(query: SearchQuery): URLSearchParams {
  const params = new URLSearchParams();
  const q = query.q.trim();
  if (q) params.set(SEARCH_PARAM.word, q);
  if (query.kinds.length) params.set(SEARCH_PARAM.kinds, SEARCH_KINDS.filter((kind) => query.kinds.includes(kind)).join(','));
  if (query.projectNo !== null) params.set(SEARCH_PARAM.project, String(query.projectNo));
  if (query.writer.trim()) params.set(SEARCH_PARAM.writer, query.writer.trim());
  if (query.status) params.set(SEARCH_PARAM.status, query.status);
  if (query.startDate) params.set(SEARCH_PARAM.startDate, query.startDate);
  if (query.endDate) params.set(SEARCH_PARAM.endDate, query.endDate);
  if (query.page > PAGING.startPage) params.set(SEARCH_PARAM.page, String(query.page));
  return params;
}

/** The results page's address for a search (`/search?w=…`). */
export function searchPageHref(query: Partial<SearchQuery>): string {
  const search = searchParamsOf({ ...EMPTY_SEARCH, ...query }).toString();
  return search ? `/search?${search}` : '/search';
}

/** The search call's body, without empty members; null when there are no words (the call would refuse it). */
export function searchBody(query: SearchQuery, pageSize: number): CallInput<typeof api.search.search> | null {
  const q = query.q.trim();
  if (!q) return null;
  return {
    q,
    ...(query.kinds.length ? { kinds: query.kinds } : {}),
    ...(query.projectNo !== null ? { projectNo: query.projectNo } : {}),
    ...(query.writer.trim() ? { writer: query.writer.trim() } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.startDate ? { startDate: query.startDate } : {}),
    ...(query.endDate ? { endDate: query.endDate } : {}),
    page: query.page,
    pageSize,
  };
}

/** Where a hit opens: a note (or a file in one) at its block, or the record's own screen. */
export function hitHref(hit: Pick<SearchHit, 'kind' | 'no' | 'labNoteNo' | 'uid'>): string {
  switch (hit.kind) {
    case 'note':
    case 'file': {
      const note = hit.labNoteNo ?? hit.no;
      return hit.uid ? `/note/${note}?block=${encodeURIComponent(hit.uid)}` : `/note/${note}`;
    }
    case 'project':
      return `/project/${hit.no}`;
    case 'template':
      return `/template/note/${hit.no}`;
    case 'schema':
      return `/schema/${hit.no}`;
    case 'dropbox':
      return `/dropbox/${hit.no}`;
  }
}

/** Hits grouped by kind, in the order of SEARCH_KINDS, each group in the answer's (ranked) order. */
export function groupByKind<H extends Pick<SearchHit, 'kind'>>(hits: readonly H[]): Array<{ kind: SearchKind; hits: H[] }> {
  return SEARCH_KINDS.map((kind) => ({ kind, hits: hits.filter((hit) => hit.kind === kind) })).filter((group) => group.hits.length > 0);
}

export interface SnippetPart {
  text: string;
  marked: boolean;
}

/**
 * A snippet cut into plain and marked parts. Ranges out of the text, empty, overlapping or out of order (an
 * answer is data, not trusted markup) are clamped, dropped or merged; the parts always join to the text.
 */
export function snippetParts(text: string, marks: ReadonlyArray<{ start: number; end: number }>): SnippetPart[] {
  const ranges = marks
    .map(({ start, end }) => ({ start: Math.max(0, Math.min(start, text.length)), end: Math.max(0, Math.min(end, text.length)) }))
    .filter(({ start, end }) => end > start)
    .sort((a, b) => a.start - b.start);
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const { start, end } of ranges) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    if (from > at) parts.push({ text: text.slice(at, from), marked: false });
    const last = parts.at(-1);
    // A range touching the one before it extends it: one <mark>, not two side by side.
    if (last?.marked && from === at) last.text += text.slice(from, end);
    else parts.push({ text: text.slice(from, end), marked: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), marked: false });
  return parts;
}
