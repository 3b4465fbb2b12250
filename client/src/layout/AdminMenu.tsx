import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router-dom';
import {
  AuditIcon,
  BuildingIcon,
  ChevronDownIcon,
  ClockIcon,
  DownloadIcon,
  InfoIcon,
  LinkIcon,
  QuestionIcon,
  ShieldIcon,
  UsersIcon,
} from '../ui/icons';
import { useOutsidePointer } from '../lib/useOutsidePointer';
import { LicenceDialog } from './LicenceDialog';

/** The Admin entry (level 10 only): User, Audit, Department, Info (licence dialog), Download and Time-stamping. */
export function AdminMenu() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const [licenceOpen, setLicenceOpen] = useState(false);
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    setOpen(false);
    setLicenceOpen(false);
  }, [pathname]);

  useOutsidePointer(wrapper, open, () => setOpen(false));

  const items = () => Array.from(wrapper.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      list[(index + 1) % list.length]?.focus();
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      list[(index - 1 + list.length) % list.length]?.focus();
    } else if (event.key === 'Home') {
      event.preventDefault();
      list[0]?.focus();
    } else if (event.key === 'End') {
      event.preventDefault();
      list[list.length - 1]?.focus();
    }
  };

  const openAndFocus = (which: 'first' | 'last') => {
    setOpen(true);
    requestAnimationFrame(() => {
      const list = items();
      (which === 'first' ? list[0] : list[list.length - 1])?.focus();
    });
  };

  const itemClass = ({ isActive }: { isActive: boolean }) => (isActive ? 'menu-item active' : 'menu-item');

  return (
    <div className="nav-menu" ref={wrapper}>
      <button
        ref={button}
        type="button"
        className={pathname.startsWith('/admin') ? 'nav-link active' : 'nav-link'}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        data-testid="nav-admin"
        onClick={() => setOpen((value) => !value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            openAndFocus('first');
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            openAndFocus('last');
          }
        }}
      >
        <ShieldIcon size={17} />
        <span>{t('nav.admin')}</span>
        <ChevronDownIcon size={14} className="nav-chevron" />
      </button>
      {open ? (
        // eslint-disable-next-line jsx-a11y/interactive-supports-focus -- focus moves between the menu items (the ARIA menu pattern); the menu hears their keys and clicks
        <div
          className="menu"
          role="menu"
          id={menuId}
          aria-label={t('nav.admin')}
          onKeyDown={onMenuKeyDown}
          onClick={(event) => {
            if (event.target instanceof Element && event.target.closest('a')) setOpen(false);
          }}
        >
          <NavLink to="/admin" end role="menuitem" className={itemClass} data-testid="nav-admin-user">
            <UsersIcon size={17} />
            {t('nav.adminUser')}
          </NavLink>
          <NavLink to="/admin/audit" role="menuitem" className={itemClass} data-testid="nav-admin-audit">
            <AuditIcon size={17} />
            {t('nav.adminAudit')}
          </NavLink>
          <NavLink to="/admin/department" role="menuitem" className={itemClass} data-testid="nav-admin-department">
            <BuildingIcon size={17} />
            {t('nav.adminDepartment')}
          </NavLink>
          <button
            type="button"
            role="menuitem"
            className="menu-item"
            data-testid="nav-admin-info"
            onClick={() => {
              setOpen(false);
              setLicenceOpen(true);
            }}
          >
            <InfoIcon size={17} />
            {t('nav.adminInfo')}
          </button>
          <NavLink to="/admin/download" role="menuitem" className={itemClass} data-testid="nav-admin-download">
            <DownloadIcon size={17} />
            {t('nav.adminDownload')}
          </NavLink>
          <NavLink to="/admin/timestamps" role="menuitem" className={itemClass} data-testid="nav-admin-timestamps">
            <ClockIcon size={17} />
            {t('nav.adminTimestamps')}
          </NavLink>
          <NavLink to="/api-docs" role="menuitem" className={itemClass} data-testid="nav-api-docs">
            <QuestionIcon size={17} />
            {t('nav.apiDocs')}
          </NavLink>
          <NavLink to="/admin/webhooks" role="menuitem" className={itemClass} data-testid="nav-admin-webhooks">
            <LinkIcon size={17} />
            {t('nav.adminWebhooks')}
          </NavLink>
        </div>
      ) : null}
      {licenceOpen ? <LicenceDialog onClose={() => setLicenceOpen(false)} returnFocus={button} /> : null}
    </div>
  );
}
