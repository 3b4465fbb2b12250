import { useCallback, useEffect, useEffectEvent, useState } from 'react';

export type LoadState<T> =
  | { phase: 'loading'; data: T | undefined; error?: undefined }
  | { phase: 'ready'; data: T; error?: undefined }
  | { phase: 'error'; data: T | undefined; error: unknown };

export type Loaded<T> = LoadState<T> & { reload: () => void };

/**
 * Loads data for a screen: starts again when `key` changes, aborts the previous call, and keeps the last
 * data while the next loads (so a pager does not flash empty). `reload()` runs the same load again.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<LoadState<T>>({ phase: 'loading', data: undefined });
  const [version, setVersion] = useState(0);
  // `load` is a fresh closure each render; `key` says when what it loads has changed.
  const loadNow = useEffectEvent(load);

  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ phase: 'loading', data: previous.data }));
    loadNow(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ phase: 'ready', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState((previous) => ({ phase: 'error', data: previous.data, error }));
      },
    );
    return () => controller.abort();
  }, [key, version]);

  const reload = useCallback(() => setVersion((n) => n + 1), []);
  return { ...state, reload };
}
