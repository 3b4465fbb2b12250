import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { ModalHost } from '../modals/ModalHost';
import { dismissAll } from '../modals/store';
import { useProactiveRefresh } from '../session/useProactiveRefresh';
import { focusHeadingWhenShown } from './routeFocus';

/**
 * Above every route: the global modals (closed on route change), the proactive token refresh, and focus
 * on the new page's heading after a route change (not on the first page, where the browser starts).
 */
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
    return focusHeadingWhenShown();
  }, [pathname]);

  return (
    <>
      <Outlet />
      <ModalHost />
    </>
  );
}
