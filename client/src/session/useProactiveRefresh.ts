import { useEffect } from 'react';
import { refreshSession } from '../api';
import { refreshDelayMs } from './model';
import { useSession } from './store';

/**
 * Rotates the access token shortly before it expires (30 s, or a quarter of a short token's life), while the notebook is open. Every tab schedules
 * this; the refresh lock makes sure only one of them actually calls the server.
 */
export function useProactiveRefresh(): void {
  const session = useSession();
  const expiresAt = session?.expiresAt ?? null;
  const refreshEarlyMs = session?.refreshEarlyMs;
  useEffect(() => {
    if (expiresAt === null) return;
    const timer = window.setTimeout(
      () => {
        refreshSession().catch(() => {
          /* server unreachable: the next call tries again */
        });
      },
      refreshDelayMs({ expiresAt, refreshEarlyMs }, Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [expiresAt, refreshEarlyMs]);
}
