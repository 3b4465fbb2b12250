import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, type TimestampAuthorityEntry } from '@eln/shared';
import { call } from '../../api';
import { apiErrorText } from '../../api/errors';
import { apiQueryKey, useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ClockIcon, PlusIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { EmptyState, PageFrame } from '../../ui/PageFrame';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { AuthorityForm } from './AuthorityForm';
import './timestamps.css';

type Editing = { entry: TimestampAuthorityEntry | null } | null;

/**
 * Administrators' trusted time: the RFC 3161 authorities in the order they are tried, each with its
 * certificate chain and when it expires, and the queue of time-stamps (pending, failed, stamped), whose
 * failed ones can be queued again.
 */
export function TimestampAuthoritiesPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const authorities = useApiQuery(api.timestamps.authorities, {});
  const [editing, setEditing] = useState<Editing>(null);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiQueryKey(api.timestamps.authorities) });

  const act = async (run: () => Promise<unknown>, success: string) => {
    setNotice(null);
    try {
      await run();
      setNotice({ tone: 'success', text: success });
    } catch (error) {
      setNotice({ tone: 'error', text: apiErrorText(error, language) });
    }
    await refresh();
  };

  const data = authorities.data;
  const list = data?.list ?? [];
  const addButton = (
    <Button variant="primary" icon={<PlusIcon size={16} />} onClick={() => setEditing({ entry: null })} data-testid="tsa-add">
      {t('admin.timestamps.addTitle')}
    </Button>
  );

  return (
    <PageFrame
      testId="tsa-page"
      title={t('admin.timestamps.title')}
      description={t('admin.timestamps.description')}
      icon={<ClockIcon size={22} />}
      actions={editing || list.length === 0 ? null : addButton}
    >
      {notice ? (
        <InlineAlert tone={notice.tone} testId="tsa-notice">
          {notice.text}
        </InlineAlert>
      ) : null}
      {data ? (
        <div className="tsa-queue" data-testid="tsa-queue">
          <Badge tone="warning">{t('admin.timestamps.pending', { count: data.queue.pending })}</Badge>
          <Badge tone={data.queue.failed > 0 ? 'danger' : 'neutral'}>{t('admin.timestamps.failed', { count: data.queue.failed })}</Badge>
          <Badge tone="success">{t('admin.timestamps.stamped', { count: data.queue.stamped })}</Badge>
          {data.queue.failed > 0 ? (
            <Button
              size="sm"
              onClick={() => void act(() => call(api.timestamps.retry, {}), t('admin.timestamps.retried'))}
              data-testid="tsa-retry"
            >
              {t('admin.timestamps.retry')}
            </Button>
          ) : null}
        </div>
      ) : null}
      {editing ? (
        <AuthorityForm
          entry={editing.entry}
          onCancel={() => setEditing(null)}
          onDone={(message) => {
            setEditing(null);
            setNotice({ tone: 'success', text: message });
            void refresh();
          }}
        />
      ) : null}
      {authorities.phase === 'loading' && !data ? <SkeletonBlock lines={4} /> : null}
      {authorities.phase === 'error' && !data ? (
        <ErrorState message={apiErrorText(authorities.error, language)} onRetry={authorities.reload} testId="tsa-load-error" />
      ) : null}
      {data && list.length === 0 && !editing ? (
        <EmptyState icon={<ClockIcon size={26} />} title={t('admin.timestamps.emptyTitle')}>
          <p>{t('admin.timestamps.emptyBody')}</p>
          <div className="empty-state-action">{addButton}</div>
        </EmptyState>
      ) : null}
      <ol className="tsa-list" data-testid="tsa-list">
        {list.map((entry, index) => (
          <li key={entry.authorityNo} className="tsa-card" data-testid="tsa-entry" data-authority={entry.authorityNo}>
            <div className="tsa-card-head">
              <span className="tsa-order">{index + 1}</span>
              <div className="tsa-card-title">
                <strong data-testid="tsa-entry-name">{entry.name}</strong>
                <span className="tsa-url">{entry.url}</span>
              </div>
              <Badge tone={entry.enabled ? 'success' : 'neutral'}>
                {entry.enabled ? t('admin.timestamps.on') : t('admin.timestamps.off')}
              </Badge>
            </div>
            <p className="tsa-facts">
              {entry.hash} · {entry.policy ? t('admin.timestamps.policyValue', { policy: entry.policy }) : t('admin.timestamps.anyPolicy')}
              {entry.username ? ` · ${t('admin.timestamps.signsInAs', { username: entry.username })}` : ''}
            </p>
            <ul className="tsa-certs">
              {entry.certificates.map((c) => (
                <li key={c.pem}>
                  <strong>{c.subject}</strong> · {t('admin.timestamps.issuedBy', { issuer: c.issuer })} ·{' '}
                  {t('admin.timestamps.until', { date: c.notAfter.slice(0, 10) })}
                </li>
              ))}
            </ul>
            {entry.expiresSoon ? (
              <InlineAlert tone="warning" testId="tsa-entry-expiry">
                {t('admin.timestamps.expiresSoon', { date: entry.chainExpiresAt.slice(0, 10) })}
              </InlineAlert>
            ) : null}
            <div className="tsa-card-actions">
              <Button
                size="sm"
                variant="ghost"
                disabled={index === 0}
                onClick={() =>
                  void act(
                    () => call(api.timestamps.move, { authorityNo: entry.authorityNo, direction: 'up' }),
                    t('admin.timestamps.moved'),
                  )
                }
                aria-label={t('admin.timestamps.moveUp', { name: entry.name })}
              >
                ↑
              </Button>
              <Button
                size="sm"
                variant="ghost"
                disabled={index === list.length - 1}
                onClick={() =>
                  void act(
                    () => call(api.timestamps.move, { authorityNo: entry.authorityNo, direction: 'down' }),
                    t('admin.timestamps.moved'),
                  )
                }
                aria-label={t('admin.timestamps.moveDown', { name: entry.name })}
              >
                ↓
              </Button>
              <Button size="sm" onClick={() => setEditing({ entry })} data-testid="tsa-edit">
                {t('admin.timestamps.edit')}
              </Button>
              <Button
                size="sm"
                variant="danger"
                onClick={() => {
                  if (window.confirm(t('admin.timestamps.confirmDelete', { name: entry.name })))
                    void act(
                      () => call(api.timestamps.delete, { authorityNo: entry.authorityNo }),
                      t('admin.timestamps.deleted', { name: entry.name }),
                    );
                }}
                data-testid="tsa-delete"
              >
                {t('admin.timestamps.delete')}
              </Button>
            </div>
          </li>
        ))}
      </ol>
    </PageFrame>
  );
}
