import { DIFF_VIEWS, type DiffView } from '../diff/diffRows';

/** One side of a comparison: a saved version's number, or the live draft. */
export type ComparedVersion = number | 'live';

/** What the history screen shows, all of it in its URL (`?from=2&to=live&view=inline&all=1&authors=1`), so a link reopens it. */
export interface HistoryParams {
  from: number | null;
  to: ComparedVersion | null;
  view: DiffView;
  /** Unchanged blocks folded (the default) or shown. */
  onlyChanges: boolean;
  /** Each block's authors shown in its margin ("who wrote what"). */
  authors: boolean;
}

const versionNumber = (value: string | null): number | null => (value && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null);

export function readHistoryParams(params: URLSearchParams): HistoryParams {
  const view = params.get('view');
  return {
    from: versionNumber(params.get('from')),
    to: params.get('to') === 'live' ? 'live' : versionNumber(params.get('to')),
    view: (DIFF_VIEWS as readonly string[]).includes(view ?? '') ? (view as DiffView) : 'side',
    onlyChanges: params.get('all') !== '1',
    authors: params.get('authors') === '1',
  };
}

/** The URL's query for these choices; defaults are left out, so the plain address shows the usual comparison. */
export function historySearch({ from, to, view, onlyChanges, authors }: HistoryParams): string {
  const params = new URLSearchParams();
  if (from !== null) params.set('from', String(from));
  if (to !== null) params.set('to', String(to));
  if (view !== 'side') params.set('view', view);
  if (!onlyChanges) params.set('all', '1');
  if (authors) params.set('authors', '1');
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * The two sides compared when the URL names none (or names versions the note does not have): the newest
 * version against the one before it; a note with one version against its live draft; none before the first save.
 */
export function chosenSides(params: HistoryParams, newest: number): { from: number; to: ComparedVersion } | null {
  if (newest < 1) return null;
  const exists = (version: number | null): version is number => version !== null && version <= newest;
  const to: ComparedVersion = params.to === 'live' || exists(params.to) ? params.to : newest === 1 ? 'live' : newest;
  const from = exists(params.from) ? params.from : typeof to === 'number' && to > 1 ? to - 1 : newest === 1 ? 1 : newest;
  return { from, to };
}
