import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import type { FromState } from '../app/guards';
import { clearSession, useSessionEnded } from '../session/store';
import { Button } from '../ui/Button';
import { AlertIcon, CheckCircleIcon, InfoIcon, LockIcon, QuestionIcon } from '../ui/icons';
import { Dialog } from './Dialog';
import { useModalLayer } from './layer';
import { settleMessage, useModalState, type MessageEntry } from './store';

/** Renders the global modals: messages (one at a time), the loading overlay and the session-ended modal. */
export function ModalHost() {
  const { messages, progress } = useModalState();
  const sessionEnded = useSessionEnded();
  const first = messages[0];
  return (
    <>
      {first ? <MessageModal key={first.id} entry={first} /> : null}
      {progress !== null ? <ProgressOverlay percent={progress} /> : null}
      {sessionEnded ? <SessionEndedModal /> : null}
    </>
  );
}

function MessageModal({ entry }: { entry: MessageEntry }) {
  const { t } = useTranslation();
  const okRef = useRef<HTMLButtonElement>(null);
  const isConfirm = entry.kind === 'confirm';
  const tone = isConfirm ? 'info' : (entry.tone ?? 'info');
  const title = entry.title ?? (isConfirm ? t('modal.confirmTitle') : tone === 'error' ? t('modal.error') : t('modal.notice'));
  const icon = isConfirm ? (
    <QuestionIcon size={20} />
  ) : tone === 'error' ? (
    <AlertIcon size={20} />
  ) : tone === 'success' ? (
    <CheckCircleIcon size={20} />
  ) : (
    <InfoIcon size={20} />
  );
  const cancel = () => settleMessage(entry.id, false);
  return (
    <Dialog
      title={title}
      icon={icon}
      tone={tone === 'error' ? 'error' : tone === 'success' ? 'success' : 'info'}
      role={isConfirm || tone === 'error' ? 'alertdialog' : 'dialog'}
      onClose={cancel}
      closeOnBackdrop={!isConfirm}
      testId="alert-modal"
      initialFocus={okRef}
      footer={
        <>
          {isConfirm ? (
            <Button variant="secondary" onClick={cancel} data-testid="alert-cancel">
              {t('common.cancel')}
            </Button>
          ) : null}
          <Button ref={okRef} variant="primary" onClick={() => settleMessage(entry.id, true)} data-testid="alert-ok">
            {entry.okLabel ?? (isConfirm ? t('common.confirm') : t('common.ok'))}
          </Button>
        </>
      }
    >
      <p className="modal-message" data-testid="alert-message">
        {entry.message}
      </p>
    </Dialog>
  );
}

const RING = 2 * Math.PI * 26;

function ProgressOverlay({ percent }: { percent: number }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useModalLayer(ref);
  return (
    <div className="progress-overlay" data-testid="progress-overlay">
      <div
        ref={ref}
        className="progress-card"
        role="dialog"
        aria-modal="true"
        aria-label={t('modal.progress')}
        aria-busy="true"
        tabIndex={-1}
      >
        <div className="progress-ring" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
          <svg viewBox="0 0 60 60" width="72" height="72" aria-hidden="true">
            <circle className="progress-track" cx="30" cy="30" r="26" />
            <circle
              className="progress-value"
              cx="30"
              cy="30"
              r="26"
              strokeDasharray={RING}
              strokeDashoffset={RING * (1 - percent / 100)}
            />
          </svg>
          <span className="progress-percent" data-testid="progress-percent">
            {percent}%
          </span>
        </div>
        <p className="progress-label">{t('modal.progress')}</p>
      </div>
    </div>
  );
}

function SessionEndedModal() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const close = () => {
    // After signing in again, the user returns to where they were.
    const state: FromState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
    clearSession();
    void navigate('/signin', { replace: true, state });
  };
  return (
    <Dialog
      title={t('modal.sessionEndedTitle')}
      icon={<LockIcon size={20} />}
      tone="warning"
      role="alertdialog"
      testId="session-ended-modal"
      footer={
        <Button variant="primary" onClick={close} data-testid="session-ended-close">
          {t('modal.sessionEndedAction')}
        </Button>
      }
    >
      <p className="modal-message">{t('modal.sessionEndedBody')}</p>
    </Dialog>
  );
}
