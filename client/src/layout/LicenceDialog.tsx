import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PRODUCT, type LicenceInfo } from '@eln/shared';
import { call } from '../api';
import { currentLanguage } from '../i18n';
import { Dialog } from '../modals/Dialog';
import { Button } from '../ui/Button';
import { InfoIcon, KeyIcon } from '../ui/icons';
import { parseLicenceAnswer } from './licence';

type State = { phase: 'loading' } | { phase: 'done'; licence: LicenceInfo | null; activeUsers: number | null };

function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'long' }).format(date);
}

/** The admin menu's Info: product version and the registered licence, if any. */
export function LicenceDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ phase: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    call<unknown>('/v1/licence/info', {}, { signal: controller.signal })
      .then((data) => setState({ phase: 'done', ...parseLicenceAnswer(data) }))
      .catch(() => {
        if (!controller.signal.aborted) setState({ phase: 'done', licence: null, activeUsers: null });
      });
    return () => controller.abort();
  }, []);

  return (
    <Dialog
      title={t('licence.title')}
      icon={<InfoIcon size={20} />}
      onClose={onClose}
      closeOnBackdrop
      size="md"
      testId="licence-dialog"
      footer={
        <Button variant="primary" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      <dl className="detail-list">
        <div className="detail-row">
          <dt>{t('licence.product')}</dt>
          <dd>
            <span className="detail-strong" data-testid="licence-version">
              {PRODUCT.version}
            </span>{' '}
            <span className="detail-muted">({t('licence.released', { date: PRODUCT.releaseDate })})</span>
          </dd>
        </div>
        {state.phase === 'loading' ? (
          <>
            <div className="detail-row">
              <dt>{t('licence.company')}</dt>
              <dd>
                <span className="skeleton skeleton-text" />
              </dd>
            </div>
            <div className="detail-row">
              <dt>{t('licence.serial')}</dt>
              <dd>
                <span className="skeleton skeleton-text" />
              </dd>
            </div>
          </>
        ) : state.licence ? (
          <>
            <div className="detail-row">
              <dt>{t('licence.company')}</dt>
              <dd data-testid="licence-company">{state.licence.companyName}</dd>
            </div>
            <div className="detail-row">
              <dt>{t('licence.serial')}</dt>
              <dd className="mono" data-testid="licence-serial">
                {state.licence.serialNumber}
              </dd>
            </div>
            <div className="detail-row">
              <dt>{t('licence.seats')}</dt>
              <dd data-testid="licence-seats">{t('licence.seatsValue', { count: state.licence.seats })}</dd>
            </div>
            {state.activeUsers !== null ? (
              <div className="detail-row">
                <dt>{t('licence.activeUsers')}</dt>
                <dd>{t('licence.seatsValue', { count: state.activeUsers })}</dd>
              </div>
            ) : null}
            {state.licence.expiresAt ? (
              <div className="detail-row">
                <dt>{t('licence.expires')}</dt>
                <dd>{formatDate(state.licence.expiresAt)}</dd>
              </div>
            ) : null}
          </>
        ) : null}
      </dl>
      {state.phase === 'done' && !state.licence ? (
        <div className="licence-empty" data-testid="licence-none">
          <span className="licence-empty-icon">
            <KeyIcon size={20} />
          </span>
          <div>
            <p className="licence-empty-title">{t('licence.none')}</p>
            <p className="licence-empty-body">{t('licence.noneHint')}</p>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
