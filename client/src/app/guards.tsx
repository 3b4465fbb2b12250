import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router-dom';
import { may } from '../session/model';
import { useSession } from '../session/store';

// Loaded with the admin pages, not with the sign-in page (it brings the time-stamping calls).
const ChainExpiryWarning = lazy(() => import('../features/timestamps/ChainExpiryWarning').then((m) => ({ default: m.ChainExpiryWarning })));

/** Where a guard sent the user from, so that signing in can return there. */
export interface FromState {
  from?: { pathname: string; search: string; hash: string };
}

/** Signed-in pages: without a session, go to /signin (remembering where the user was going). */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    const state: FromState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
    return <Navigate to="/signin" replace state={state} />;
  }
  return children ?? <Outlet />;
}

/**
 * Sign pages: a signed-in user goes to the dashboard. A password-reset link (`?reset=`) still opens, so
 * that a link from the mail works in a browser that is signed in.
 */
export function RequireGuest({ children }: { children?: ReactNode }) {
  const session = useSession();
  const [params] = useSearchParams();
  if (session && !params.get('reset')) return <Navigate to="/" replace />;
  return children ?? <Outlet />;
}

/**
 * Admin pages: those the server lets administer; others go to the dashboard. While the server has not
 * said yet (a profile stored before abilities existed, until the first refresh answers), the page waits.
 * Every admin page is headed by the warning of a time-stamping chain about to expire.
 */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  const session = useSession();
  if (session && session.abilities === null) return <div className="first-load" aria-busy="true" data-testid="abilities-pending" />;
  if (!may(session, 'administer')) return <Navigate to="/" replace />;
  return (
    <>
      <Suspense fallback={null}>
        <ChainExpiryWarning />
      </Suspense>
      {children ?? <Outlet />}
    </>
  );
}
