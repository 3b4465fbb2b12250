import { useEffect, useEffectEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { isApiError } from '../api';
import type { Loaded } from '../api/queries';

/**
 * A server error (5xx) on a screen's first load shows the error page, which offers to load the screen
 * again; a later failure keeps what is already shown, with the error and a retry beside it. Refusals
 * (4xx: not found, no permission) stay on the screen, which says what they mean.
 */
export function useServerErrorPage(load: Loaded<unknown>): void {
  useServerErrorOnFirstLoad(load.phase === 'error' && !load.data ? load.error : null);
}

/** useServerErrorPage for a screen that loads by itself: `failure` is its first load's error, or null. */
export function useServerErrorOnFirstLoad(failure: unknown): void {
  const navigate = useNavigate();
  const location = useLocation();
  const serverFailed = isApiError(failure) && failure.httpStatus >= 500;
  // Only the failure itself decides; the location is read as it is then.
  const showErrorPage = useEffectEvent(() => {
    void navigate('/error', { replace: true, state: { from: `${location.pathname}${location.search}` } });
  });
  useEffect(() => {
    if (serverFailed) showErrorPage();
  }, [serverFailed]);
}
