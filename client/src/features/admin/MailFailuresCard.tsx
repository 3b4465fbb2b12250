import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, MAIL_LIMITS, type MailRow } from '@eln/shared';
import { apiErrorText, call } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { formatDateTime, formatNumber } from '../../lib/format';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { CheckCircleIcon, MailIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import './mailFailures.css';
import { TableScroll } from '../../ui/TableScroll';

/** The newest failed mails the card lists; the count says how many there are in all. */
const SHOWN = 20;

type Notice = { kind: 'retried'; name: string } | { kind: 'failed'; message: string } | null;

/**
 * The user list's card of mails not delivered (server/src/mail): each failed notification mail or daily
 * digest with its recipient, what it told of, how often it was tried and the mail server's last answer,
 * and "Send again" (audited) once the cause is fixed. Nothing failed, it says so in one line.
 */
export function MailFailuresCard() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const failed = useApiQuery(api.mail.list, { status: 'failed', page: 1, pageSize: SHOWN });
  const [busy, setBusy] = useState<number | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const data = failed.data;

  const retry = async (mail: MailRow) => {
    setBusy(mail.mailId);
    setNotice(null);
    try {
      await call(api.mail.retry, { mailId: mail.mailId });
      setNotice({ kind: 'retried', name: mail.recipient.name });
    } catch (error) {
      setNotice({ kind: 'failed', message: apiErrorText(error, language) });
    } finally {
      setBusy(null);
      failed.reload();
    }
  };

  const whatOf = (mail: MailRow) =>
    mail.kind === 'digest'
      ? t('admin.mail.digest', { count: mail.notificationCount })
      : mail.event
        ? t(`admin.mail.events.${mail.event}`)
        : '—';

  const renderBody = () => {
    if (failed.phase === 'error' && !data)
      return <ErrorState message={apiErrorText(failed.error, language)} onRetry={failed.reload} testId="mail-failures-load-error" />;
    if (!data) return <SkeletonBlock lines={2} />;
    if (data.list.length === 0)
      return (
        <p className="mail-failures-none" data-testid="mail-failures-none">
          <CheckCircleIcon size={16} />
          {t('admin.mail.none')}
        </p>
      );
    return (
      <>
        <p className="mail-failures-hint">{t('admin.mail.hint', { tries: MAIL_LIMITS.maxAttempts })}</p>
        <TableScroll>
          <table className="data-table data-table-compact mail-failures-table" data-testid="mail-failures-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.mail.columns.recipient')}</th>
                <th scope="col">{t('admin.mail.columns.about')}</th>
                <th scope="col" className="col-center">
                  {t('admin.mail.columns.attempts')}
                </th>
                <th scope="col">{t('admin.mail.columns.lastError')}</th>
                <th scope="col">{t('admin.mail.columns.queued')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('admin.mail.retry')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.list.map((mail) => (
                <tr key={mail.mailId} data-testid="mail-failure-row" data-mail-id={mail.mailId}>
                  <td data-label={t('admin.mail.columns.recipient')}>
                    <span className="mail-failures-name">{mail.recipient.name}</span>
                    <span className="cell-mono mail-failures-address">{mail.recipient.userId}</span>
                    {mail.recipient.active ? null : (
                      <Badge tone="neutral" testId="mail-failure-inactive">
                        {t('admin.users.inactive')}
                      </Badge>
                    )}
                  </td>
                  <td data-label={t('admin.mail.columns.about')}>{whatOf(mail)}</td>
                  <td className="col-center" data-label={t('admin.mail.columns.attempts')}>
                    {formatNumber(mail.attempts, language)}
                  </td>
                  <td data-label={t('admin.mail.columns.lastError')}>
                    <span className="mail-failures-error" data-testid="mail-failure-error">
                      {mail.lastError ?? '—'}
                    </span>
                  </td>
                  <td className="col-date" data-label={t('admin.mail.columns.queued')}>
                    {formatDateTime(mail.createdAt, language)}
                  </td>
                  <td className="col-actions">
                    {mail.abilities.retry ? (
                      <Button
                        size="sm"
                        variant="secondary"
                        icon={<MailIcon size={14} />}
                        loading={busy === mail.mailId}
                        disabled={busy !== null}
                        onClick={() => void retry(mail)}
                        aria-label={t('admin.mail.retryFor', { name: mail.recipient.name })}
                        data-testid="mail-failure-retry"
                      >
                        {t('admin.mail.retry')}
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        {data.failedCount > data.list.length ? (
          <p className="mail-failures-hint" data-testid="mail-failures-more">
            {t('admin.mail.more', { shown: formatNumber(data.list.length, language), count: formatNumber(data.failedCount, language) })}
          </p>
        ) : null}
      </>
    );
  };

  return (
    <section className="card mail-failures" aria-labelledby="mail-failures-title" data-testid="mail-failures">
      <header className="card-header">
        <h2 className="card-title" id="mail-failures-title">
          <MailIcon size={16} />
          {t('admin.mail.title')}
        </h2>
        {data && data.failedCount > 0 ? (
          <Badge tone="danger" dot testId="mail-failures-count">
            {t('admin.mail.failedCount', { count: data.failedCount, n: formatNumber(data.failedCount, language) })}
          </Badge>
        ) : null}
      </header>
      {notice ? (
        <InlineAlert tone={notice.kind === 'retried' ? 'success' : 'error'} testId="mail-failures-notice">
          {notice.kind === 'retried' ? t('admin.mail.retried', { name: notice.name }) : notice.message}
        </InlineAlert>
      ) : null}
      {renderBody()}
    </section>
  );
}
