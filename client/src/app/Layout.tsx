import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { QueryProvider } from '../api/QueryProvider';
import { AccountSettingsSync } from '../features/account/AccountSettingsSync';
import { Header } from '../layout/Header';
import { refreshAbilities } from '../session/actions';

/**
 * The signed-in frame: header and main content (the route's, or `children`). What the user may do is asked
 * again on each navigation; the person's display settings are read once (My account).
 */
export function Layout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();

  useEffect(() => {
    void refreshAbilities();
  }, [pathname]);

  return (
    <QueryProvider>
      <AccountSettingsSync />
      <div className="app-shell">
        <a className="skip-link" href="#main">
          {t('app.skipToContent')}
        </a>
        <Header />
        <main className="app-main" id="main" tabIndex={-1}>
          {children ?? <Outlet />}
        </main>
      </div>
    </QueryProvider>
  );
}
