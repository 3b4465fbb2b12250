import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { ModalHost } from '../modals/ModalHost';
import { dismissAll } from '../modals/store';
import { useProactiveRefresh } from '../session/useProactiveRefresh';

/** Above every route: the global modals (closed on route change) and the proactive token refresh. */
export function Root() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useProactiveRefresh();

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    dismissAll();
    window.scrollTo(0, 0);
  }, [pathname]);

  return (
    <>
      <Outlet />
      <ModalHost />
    </>
  );
}
