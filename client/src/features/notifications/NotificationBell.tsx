import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { notificationSentence, type NotificationWords } from '@eln/shared';
import { formatNumber } from '../../lib/format';
import { useOutsidePointer } from '../../lib/useOutsidePointer';
import { currentLanguage } from '../../i18n';
import { BellIcon } from './BellIcon';
import { useLiveNotifications, useNotificationState } from './liveNotifications';
import { NotificationPanel } from './NotificationPanel';
import './notifications.css';

/** More than this shows as "99+". */
const BADGE_MAX = 99;

/** The shared sentences' words in the interface language, `{{…}}` left in for `notificationSentence` to fill. */
export function useNotificationWords(): NotificationWords {
  const { t } = useTranslation();
  return t('notifications.words', { returnObjects: true, interpolation: { prefix: '⟦', suffix: '⟧' } });
}

/**
 * The header's bell: the unread count, live (the tab's stream, liveNotifications.ts), and a panel of the
 * notifications. The panel is reached by keyboard like any button's popup: Enter opens it with the focus
 * on its heading, Escape closes it and gives the focus back to the bell, as does a click outside. A new
 * notification is announced to screen readers as it arrives.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  useLiveNotifications();
  const live = useNotificationState();
  const words = useNotificationWords();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const panelId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const lastNewest = useRef<number | null | undefined>(undefined);
  const unread = live?.unreadCount ?? 0;

  useEffect(() => setOpen(false), [pathname]);

  useOutsidePointer(wrapper, open, () => setOpen(false));

  // Announced once per new unread notification; the first state of a page is what was there already.
  const newest = live?.newest ?? null;
  useEffect(() => {
    if (live === null) return;
    const id = newest?.id ?? null;
    if (lastNewest.current !== undefined && id !== null && id !== lastNewest.current && newest && !newest.read) {
      setAnnouncement(t('notifications.announce', { text: notificationSentence(newest, words) }));
    }
    lastNewest.current = id;
  }, [live, newest, words, t]);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  };

  const badge = unread > BADGE_MAX ? `${BADGE_MAX}+` : formatNumber(unread, currentLanguage());
  const label = unread > 0 ? t('notifications.bellUnread', { count: unread }) : t('notifications.bell');

  return (
    <div className="notification-bell" ref={wrapper}>
      <button
        ref={button}
        type="button"
        className="icon-btn notification-bell-btn"
        aria-label={label}
        title={label}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((value) => !value)}
        data-testid="notification-bell"
      >
        <BellIcon size={19} />
      </button>
      {/* Beside the button, not in it: the button's name says the count in words. */}
      {unread > 0 ? (
        <span className="notification-badge" aria-hidden="true" data-testid="notification-count">
          {badge}
        </span>
      ) : null}
      {open ? <NotificationPanel id={panelId} words={words} unread={unread} onClose={close} /> : null}
      <div className="visually-hidden" role="status" aria-live="polite" data-testid="notification-announcement">
        {announcement}
      </div>
    </div>
  );
}
