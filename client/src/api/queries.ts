import { keepPreviousData, QueryClient, useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import type { CallAnswer, CallInput, CallSpec } from '@eln/shared';
import { isApiError } from './errors';
import { getSession, subscribeSession } from '../session/store';
import { call } from './call';

/** A screen's load: loading (with the last answer kept while the next loads), ready, or failed. */
type LoadState<T> =
  | { phase: 'loading'; data: T | undefined; error?: undefined }
  | { phase: 'ready'; data: T; error?: undefined }
  | { phase: 'error'; data: T | undefined; error: unknown };

export type Loaded<T> = LoadState<T> & { reload: () => void };

/*
 * Screens load and change data through TanStack Query, keyed by the route table: a query's key is its
 * call's path and input, so a command invalidates every loaded answer of the calls it affects by path.
 */

/** Only a transient failure (no answer, or the server unavailable) is worth a retry; refusals are final. */
function isTransient(error: unknown): boolean {
  return isApiError(error) && (error.httpStatus === 0 || error.httpStatus >= 500);
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failures, error) => failures < 2 && isTransient(error),
      retryDelay: (failures) => 500 * 2 ** failures,
      // A screen shows what it loaded until something it did, or a reload, says otherwise.
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});

/** What one person loaded is never shown to the next: the cache empties when the signed-in user changes. */
let cachedFor = getSession()?.user.userId ?? null;
subscribeSession(() => {
  const current = getSession()?.user.userId ?? null;
  if (current === cachedFor) return;
  cachedFor = current;
  queryClient.clear();
});

/** The cache key of a call's answer: its path, then its input (a path alone names every input). */
export function apiQueryKey<C extends CallSpec>(spec: C, input?: CallInput<C>): readonly unknown[] {
  return input === undefined ? [spec.path] : [spec.path, input];
}

type ApiQueryOptions<C extends CallSpec> = Omit<UseQueryOptions<CallAnswer<C>>, 'queryKey' | 'queryFn'> & {
  /** Keep the last answer on screen while the next input loads (a pager does not flash empty). Default true. */
  keepPrevious?: boolean;
};

/**
 * Loads a call's answer for a screen: cached by input, aborted when the input changes or the screen
 * closes. Answers the screen's load state: loading (with the last answer kept while the next loads),
 * ready or failed, and `reload()` to load it again.
 */
export function useApiQuery<C extends CallSpec>(spec: C, input: CallInput<C>, options: ApiQueryOptions<C> = {}): Loaded<CallAnswer<C>> {
  return useLoadedQuery(apiQueryKey(spec, input), (signal) => call(spec, input, { signal }), options);
}

/**
 * `useApiQuery` for what a screen gathers from several calls at once (the people picker's directory):
 * cached under its own key, which must not start with a call's path.
 */
export function useLoadedQuery<T>(
  key: readonly unknown[],
  load: (signal: AbortSignal) => Promise<T>,
  options: Omit<UseQueryOptions<T>, 'queryKey' | 'queryFn'> & { keepPrevious?: boolean } = {},
): Loaded<T> {
  const { keepPrevious = true, ...rest } = options;
  const query = useQuery<T>({
    queryKey: key,
    queryFn: ({ signal }) => load(signal),
    placeholderData: keepPrevious ? keepPreviousData : undefined,
    ...rest,
  });
  const reload = () => void query.refetch();
  if (query.isError && !query.isFetching) return { phase: 'error', data: query.data, error: query.error, reload };
  if (query.isFetching || query.data === undefined) return { phase: 'loading', data: query.data, reload };
  return { phase: 'ready', data: query.data, reload };
}

/**
 * Makes a command call; on success, every loaded answer of the calls in `invalidates` is loaded again
 * (those on screen at once, the others when next shown).
 */
export function useApiMutation<C extends CallSpec>(spec: C, options: { invalidates?: readonly CallSpec[] } = {}) {
  const client = useQueryClient();
  return useMutation<CallAnswer<C>, unknown, CallInput<C>>({
    mutationFn: (input) => call(spec, input),
    onSuccess: async () => {
      await Promise.all((options.invalidates ?? []).map((affected) => client.invalidateQueries({ queryKey: apiQueryKey(affected) })));
    },
  });
}
