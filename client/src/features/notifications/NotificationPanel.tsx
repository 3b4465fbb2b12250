import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { api, NOTIFICATION_LIMITS, notificationSentence, type NotificationItem, type NotificationWords } from '@eln/shared';
import { call } from '../../api';
import { useApiMutation, useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { alertApiError } from '../../modals/store';
import { Button } from '../../ui/Button';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { SegmentedFilter } from '../../ui/SegmentedFilter';
import { CheckCircleIcon } from '../../ui/icons';
import { BellIcon } from './BellIcon';
import { setUnreadCount } from './liveNotifications';
import { relativeTime } from './notificationTime';

const PAGE_SIZE = NOTIFICATION_LIMITS.defaultPageSize;

type Show = '' | 'unread';

interface PanelProps {
  id: string;
  words: NotificationWords;
  unread: number;
  /** Closes the panel; `returnFocus` gives the focus back to the bell (Escape), a followed link keeps it where it goes. */
  onClose(returnFocus: boolean): void;
}

/** One notification: its sentence and when, a link to its place; following it marks it read. */
function Entry({
  item,
  words,
  now,
  onFollow,
}: {
  item: NotificationItem;
  words: NotificationWords;
  now: number;
  onFollow(item: NotificationItem): void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <li className={item.read ? 'notification-entry' : 'notification-entry is-unread'} data-testid="notification-entry">
      <Link to={item.link} className="notification-link" onClick={() => onFollow(item)} data-event={item.event}>
        <span className="notification-dot" aria-hidden="true" />
        <span className="notification-body">
          <span className="notification-text">{notificationSentence(item, words)}</span>
          {item.excerpt ? <span className="notification-excerpt">{item.excerpt}</span> : null}
          <time className="notification-time" dateTime={item.createdAt} title={formatDateTime(item.createdAt, language)}>
            {relativeTime(item.createdAt, now, language, t('notifications.justNow'))}
          </time>
        </span>
        {item.read ? null : <span className="visually-hidden">{t('notifications.unreadMark')}</span>}
      </Link>
    </li>
  );
}

/** One page of the list (pages after the first load as the reader asks for more). */
function Page({
  page,
  show,
  words,
  now,
  onFollow,
  onTotal,
}: {
  page: number;
  show: Show;
  words: NotificationWords;
  now: number;
  onFollow(item: NotificationItem): void;
  onTotal?(total: number): void;
}) {
  const { t } = useTranslation();
  const loaded = useApiQuery(api.notifications.list, { page, pageSize: PAGE_SIZE, unreadOnly: show === 'unread' }, { keepPrevious: false });
  const total = loaded.data?.totalCount;
  useEffect(() => {
    if (total !== undefined) onTotal?.(total);
  }, [total, onTotal]);
  if (loaded.phase === 'error' && !loaded.data)
    return (
      <li className="notification-state">
        <ErrorState message={t('notifications.loadFailed')} onRetry={loaded.reload} testId="notification-error" />
      </li>
    );
  if (!loaded.data)
    return (
      <li className="notification-state" aria-busy="true">
        <SkeletonBlock lines={3} />
      </li>
    );
  return (
    <>
      {loaded.data.list.map((item) => (
        <Entry key={item.id} item={item} words={words} now={now} onFollow={onFollow} />
      ))}
    </>
  );
}

/**
 * The bell's panel: the newest notifications first (all, or the unread only), each opening its place,
 * "mark all as read", and more on request. A non-modal popup: Escape closes it from anywhere inside.
 */
export function NotificationPanel({ id, words, unread, onClose }: PanelProps) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  const [show, setShow] = useState<Show>('');
  const [pages, setPages] = useState(1);
  const [total, setTotal] = useState<number | null>(null);
  /** "5 minutes ago" is counted from when the panel opened. */
  const [now] = useState(Date.now);
  const markAll = useApiMutation(api.notifications.read, { invalidates: [api.notifications.list] });

  useEffect(() => heading.current?.focus(), []);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    onClose(true);
  };

  const follow = (item: NotificationItem) => {
    onClose(false);
    if (item.read) return;
    void call(api.notifications.read, { ids: [item.id] }).then(
      ({ unreadCount }) => setUnreadCount(unreadCount),
      () => undefined,
    );
  };

  const readAll = () =>
    markAll.mutate(
      { all: true },
      { onSuccess: ({ unreadCount }) => setUnreadCount(unreadCount), onError: (error) => void alertApiError(error) },
    );

  const choose = (next: Show) => {
    setShow(next);
    setPages(1);
    setTotal(null);
  };

  const empty = total === 0;
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape closes the popup from any control inside it
    <section
      className="notification-panel"
      id={id}
      role="dialog"
      aria-labelledby={`${id}-title`}
      onKeyDown={onKeyDown}
      data-testid="notification-panel"
    >
      <header className="notification-panel-header">
        <h2 className="notification-panel-title" id={`${id}-title`} ref={heading} tabIndex={-1}>
          {t('notifications.title')}
        </h2>
        <Button
          size="sm"
          variant="ghost"
          onClick={readAll}
          disabled={unread === 0}
          loading={markAll.isPending}
          data-testid="notification-read-all"
        >
          {t('notifications.markAllRead')}
        </Button>
      </header>
      <SegmentedFilter
        options={[
          { value: '', label: t('notifications.all') },
          { value: 'unread', label: t('notifications.unread') },
        ]}
        value={show}
        onChange={choose}
        label={t('notifications.show')}
        testId="notification-filter"
        className="notification-filter"
      />
      {empty ? (
        <div className="notification-empty" data-testid="notification-empty">
          <span className="notification-empty-icon" aria-hidden="true">
            {show === 'unread' ? <CheckCircleIcon size={22} /> : <BellIcon size={22} />}
          </span>
          {show === 'unread' ? (
            <p className="notification-empty-title">{t('notifications.emptyUnread')}</p>
          ) : (
            <>
              <p className="notification-empty-title">{t('notifications.emptyTitle')}</p>
              <p className="notification-empty-body">{t('notifications.emptyBody')}</p>
            </>
          )}
        </div>
      ) : null}
      <ul className="notification-list" hidden={empty} data-testid="notification-list">
        {Array.from({ length: pages }, (_, index) => (
          <Page
            key={`${show}-${index}`}
            page={index + 1}
            show={show}
            words={words}
            now={now}
            onFollow={follow}
            onTotal={index === 0 ? setTotal : undefined}
          />
        ))}
      </ul>
      {total !== null && total > pages * PAGE_SIZE ? (
        <div className="notification-more">
          <Button size="sm" variant="ghost" onClick={() => setPages((n) => n + 1)} data-testid="notification-more">
            {t('notifications.more')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
