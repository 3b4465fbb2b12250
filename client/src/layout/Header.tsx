import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import type { SignInNoticeState } from '../features/auth/SignInForm';
import { signOut } from '../session/actions';
import { may } from '../session/model';
import { useSession } from '../session/store';
import { alert } from '../modals/store';
import { useTheme } from '../theme/theme';
import { CloseIcon, DropboxIcon, FolderIcon, LogoMark, MenuIcon, PlusIcon, SchemaIcon, SignOutIcon, TemplateIcon } from '../ui/icons';
import { HeaderSearch } from '../features/search/HeaderSearch';
import { NotificationBell } from '../features/notifications/NotificationBell';
import { AdminMenu } from './AdminMenu';
import { LanguageSwitch } from './LanguageSwitch';
import { ThemeToggle } from './ThemeToggle';

const NAV = [
  { to: '/project', key: 'project', Icon: FolderIcon },
  { to: '/template', key: 'template', Icon: TemplateIcon },
  { to: '/schema', key: 'schema', Icon: SchemaIcon },
  { to: '/dropbox', key: 'dropbox', Icon: DropboxIcon },
] as const;

function initials(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) return '?';
  const parts = trimmed.split(/\s+/);
  const first = parts[0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1] ?? '') : '';
  // Latin names: first letters of first and last word; Korean and Japanese names: the first character.
  return /^[A-Za-z]/.test(first) ? (first.charAt(0) + last.charAt(0)).toUpperCase() : (Array.from(trimmed)[0] ?? '?');
}

/**
 * The signed-in header. Standard: one calm row. Beauty: a gradient band with quick links to the project
 * list and project creation, and the theme toggle as a labelled pill. Below ~900px the navigation and tools
 * fold into a menu panel (the same elements, so every test id exists once).
 */
export function Header() {
  const { t } = useTranslation();
  const session = useSession();
  const theme = useTheme();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  const headerRef = useRef<HTMLElement>(null);

  useEffect(() => setMenuOpen(false), [pathname]);

  // The small-screen menu closes on Escape and on a click outside the header.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    const onPointer = (event: PointerEvent) => {
      if (event.target instanceof Node && !headerRef.current?.contains(event.target)) setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [menuOpen]);

  if (!session) return null;
  const { user } = session;
  const beauty = theme === 'b';

  const onSignOut = async () => {
    setSigningOut(true);
    const { told, providerSignOutUrl } = await signOut();
    // After a single sign-on the sign-in page offers to end the provider's session too (SignInForm).
    void navigate('/signin', {
      replace: true,
      state: providerSignOutUrl ? ({ providerSignOutUrl } satisfies SignInNoticeState) : undefined,
    });
    if (!told) void alert(t('signOut.failed'));
  };

  return (
    <header ref={headerRef} className={`app-header ${beauty ? 'header-b' : 'header-s'}`} data-menu-open={menuOpen || undefined}>
      <div className="header-inner">
        <Link to="/" className="brand" aria-label={t('app.name')}>
          <LogoMark size={beauty ? 32 : 28} />
          <span className="brand-name">{t('app.name')}</span>
        </Link>

        <HeaderSearch />

        <button
          type="button"
          className="icon-btn header-menu-btn"
          aria-expanded={menuOpen}
          aria-controls="header-panel"
          aria-label={menuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <CloseIcon size={20} /> : <MenuIcon size={20} />}
        </button>

        <div className="header-panel" id="header-panel">
          <nav className="header-nav" aria-label={t('nav.main')}>
            {NAV.map(({ to, key, Icon }) => (
              <NavLink
                key={to}
                to={to}
                className={({ isActive }) => (isActive ? 'nav-link active' : 'nav-link')}
                data-testid={`nav-${key}`}
              >
                <Icon size={17} />
                <span>{t(`nav.${key}`)}</span>
              </NavLink>
            ))}
            {may(session, 'administer') ? <AdminMenu /> : null}
          </nav>

          <div className="header-tools">
            {beauty ? (
              <div className="header-quick">
                <Link to="/project" className="pill-btn pill-ghost" data-testid="quick-project-list">
                  <FolderIcon size={16} />
                  <span>{t('nav.projectList')}</span>
                </Link>
                <Link to="/project/create" className="pill-btn pill-solid" data-testid="quick-project-create">
                  <PlusIcon size={16} />
                  <span>{t('nav.projectCreate')}</span>
                </Link>
              </div>
            ) : null}
            <ThemeToggle variant={beauty ? 'pill' : 'compact'} />
            <LanguageSwitch />
            <NavLink
              to="/account"
              className={({ isActive }) => (isActive ? 'user-chip active' : 'user-chip')}
              title={`${t('nav.account', { name: user.name })} · ${t('nav.myAccount')}`}
              data-testid="header-account"
            >
              <span className="avatar" aria-hidden="true">
                {initials(user.name)}
              </span>
              <span className="user-name" data-testid="header-user-name">
                {user.name}
              </span>
              <span className="visually-hidden">{t('nav.myAccount')}</span>
            </NavLink>
            <button
              type="button"
              className={beauty ? 'pill-btn pill-ghost signout-btn' : 'icon-btn signout-btn'}
              onClick={() => void onSignOut()}
              disabled={signingOut}
              aria-label={t('signOut.action')}
              title={t('signOut.action')}
              data-testid="signout"
            >
              <SignOutIcon size={18} />
              <span className="signout-label">{t('signOut.action')}</span>
            </button>
          </div>
        </div>

        {/* Outside the panel, so that the count stays in sight when small screens fold the rest into the menu. */}
        <NotificationBell />
      </div>
    </header>
  );
}
