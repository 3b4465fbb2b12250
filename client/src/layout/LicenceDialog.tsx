import type { RefObject } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, PRODUCT, type LicenceInfo, type LicenceInfoAnswer, type LicenceStatus } from '@eln/shared';
import { apiQueryKey, useApiQuery } from '../api/queries';
import { Dialog } from '../modals/Dialog';
import { Badge, type BadgeTone } from '../ui/Badge';
import { Button } from '../ui/Button';
import { InfoIcon, KeyIcon } from '../ui/icons';
import { formatLicenceDate, parseLicenceAnswer } from './licence';
import { LicenceRegisterForm } from './LicenceRegisterForm';
import { PublicKeyButton } from '../features/exports/PublicKeyButton';
import { FileTypesPanel } from '../features/admin/FileTypesPanel';

type State = { phase: 'loading' } | { phase: 'done'; licence: LicenceInfo | null; activeUsers: number | null };

const STATUS_TONE: Record<LicenceStatus, BadgeTone> = {
  valid: 'success',
  expired: 'danger',
  notYetValid: 'warning',
  seatsExceeded: 'danger',
  notGenuine: 'danger',
  otherProduct: 'danger',
  clockSetBack: 'danger',
};

/** The admin menu's Info: product version, the registered licence and its standing, registration, and the file types uploads take. */
export function LicenceDialog({ onClose, returnFocus }: { onClose: () => void; returnFocus?: RefObject<HTMLElement | null> }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const info = useApiQuery(api.licence.info, {});
  const state: State =
    info.phase === 'error'
      ? { phase: 'done', licence: null, activeUsers: null }
      : info.data
        ? { phase: 'done', ...parseLicenceAnswer(info.data) }
        : { phase: 'loading' };
  // A registration answers the licence as the info call does: that answer is shown at once.
  const showRegistered = (answer: LicenceInfoAnswer) => queryClient.setQueryData(apiQueryKey(api.licence.info, {}), answer);

  return (
    <Dialog
      title={t('licence.title')}
      icon={<InfoIcon size={20} />}
      onClose={onClose}
      returnFocus={returnFocus}
      closeOnBackdrop
      size="md"
      testId="licence-dialog"
      footer={
        <>
          <PublicKeyButton testId="licence-public-key" />
          <Button variant="primary" onClick={onClose}>
            {t('common.close')}
          </Button>
        </>
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
          <LoadingRows />
        ) : state.licence ? (
          <LicenceTerms licence={state.licence} activeUsers={state.activeUsers} />
        ) : null}
      </dl>
      {state.phase === 'done' && state.licence ? <StatusHint status={state.licence.status} /> : null}
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
      {state.phase === 'done' ? <LicenceRegisterForm onRegistered={showRegistered} /> : null}
      <FileTypesPanel />
    </Dialog>
  );
}

function LoadingRows() {
  const { t } = useTranslation();
  return (
    <>
      {[t('licence.company'), t('licence.serial')].map((label) => (
        <div className="detail-row" key={label}>
          <dt>{label}</dt>
          <dd>
            <span className="skeleton skeleton-text" />
          </dd>
        </div>
      ))}
    </>
  );
}

function LicenceTerms({ licence, activeUsers }: { licence: LicenceInfo; activeUsers: number | null }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="detail-row">
        <dt>{t('licence.statusLabel')}</dt>
        <dd>
          <Badge tone={STATUS_TONE[licence.status]} dot testId="licence-status">
            {t(`licence.status.${licence.status}`)}
          </Badge>
        </dd>
      </div>
      <div className="detail-row">
        <dt>{t('licence.company')}</dt>
        <dd data-testid="licence-company">{licence.companyName}</dd>
      </div>
      <div className="detail-row">
        <dt>{t('licence.serial')}</dt>
        <dd className="mono" data-testid="licence-serial">
          {licence.serialNumber}
        </dd>
      </div>
      <div className="detail-row">
        <dt>{t('licence.seats')}</dt>
        <dd data-testid="licence-seats">
          {activeUsers === null
            ? t('licence.seatsValue', { count: licence.seats })
            : t('licence.seatsUsed', { used: activeUsers, total: licence.seats })}
        </dd>
      </div>
      <div className="detail-row">
        <dt>{t('licence.period')}</dt>
        <dd data-testid="licence-period">
          {t('licence.periodValue', { from: formatLicenceDate(licence.startsAt), until: formatLicenceDate(licence.expiresAt) })}
        </dd>
      </div>
      <div className="detail-row">
        <dt>{t('licence.maxVersion')}</dt>
        <dd>{licence.maxVersion}</dd>
      </div>
      <div className="detail-row">
        <dt>{t('licence.keyId')}</dt>
        <dd className="mono">{licence.keyId}</dd>
      </div>
      <div className="detail-row">
        <dt>{t('licence.registeredAt')}</dt>
        <dd>{formatLicenceDate(licence.updatedAt)}</dd>
      </div>
    </>
  );
}

/** Why members cannot sign in, for any status but valid. */
function StatusHint({ status }: { status: LicenceStatus }) {
  const { t } = useTranslation();
  if (status === 'valid') return null;
  return (
    <p className="licence-status-hint" data-testid="licence-status-hint">
      {t(`licence.statusHint.${status}`)}
    </p>
  );
}
