import { useEffect } from 'react';
import { refreshSession } from '../api';
import { refreshDelayMs } from './model';
import { useSession } from './store';

/**
 * Rotates the access token about 30 s before it expires, while the notebook is open. Every tab schedules
 * this; the refresh lock makes sure only one of them actually calls the server.
 */
export function useProactiveRefresh(): void {
  const session = useSession();
  const expiresAt = session?.expiresAt ?? null;
  useEffect(() => {
    if (expiresAt === null) return;
    const timer = window.setTimeout(() => {
      refreshSession().catch(() => {
        /* server unreachable: the next call tries again */
      });
    }, refreshDelayMs({ expiresAt }, Date.now()));
    return () => window.clearTimeout(timer);
  }, [expiresAt]);
}
