import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type AuditVerifyAnswer } from '@eln/shared';
import { call, isApiError } from '../../api';
import { alertApiError } from '../../modals/store';
import { Button } from '../../ui/Button';
import { CloseIcon } from '../../ui/icons';
import { ShieldAlertIcon, ShieldCheckIcon } from './icons';
import { formatAuditTime } from './time';

export interface VerifyOutcome {
  answer: AuditVerifyAnswer;
  checkedAt: Date;
}

/** Verifies the audit chain (`api.audit.verify`); a refusal shows the server's localised message. */
export function useVerifyChain() {
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<VerifyOutcome | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(async () => {
    setRunning(true);
    try {
      const answer = await call(api.audit.verify, {});
      if (mounted.current) setOutcome({ answer, checkedAt: new Date() });
    } catch (error) {
      if (mounted.current && !(isApiError(error) && error.httpStatus === 401)) void alertApiError(error);
    } finally {
      if (mounted.current) setRunning(false);
    }
  }, []);

  return { run, running, outcome, clear: useCallback(() => setOutcome(null), []) };
}

/** The chain's state after a verify: green and intact with the count, or red with how many records are broken and which. */
export function VerifyResult({ outcome, onOpen, onDismiss }: { outcome: VerifyOutcome; onOpen(seq: number): void; onDismiss(): void }) {
  const { t } = useTranslation('audit');
  const { t: tc } = useTranslation();
  const { answer, checkedAt } = outcome;
  const when = formatAuditTime(checkedAt.toISOString());
  const time = when ? `${when.time} ${when.zone}` : '';
  const broken = !answer.ok;
  return (
    <div
      className={broken ? 'verify-result verify-broken' : 'verify-result verify-intact'}
      role={broken ? 'alert' : 'status'}
      data-testid="audit-verify-result"
      data-ok={answer.ok ? 'true' : 'false'}
      data-checked={answer.checked}
      data-first-broken={answer.firstBroken ?? undefined}
      data-broken-count={answer.brokenCount}
    >
      <span className="verify-icon">{broken ? <ShieldAlertIcon size={24} /> : <ShieldCheckIcon size={24} />}</span>
      <div className="verify-text">
        <p className="verify-title">
          {broken
            ? t('verify.broken', { count: answer.brokenCount, seq: answer.firstBroken ?? '?' })
            : t('verify.intact', { count: answer.checked })}
        </p>
        <p className="verify-hint">{broken ? t('verify.brokenHint', { count: answer.checked, time }) : t('verify.intactHint', { time })}</p>
        {broken ? <BrokenList answer={answer} onOpen={onOpen} /> : null}
      </div>
      <div className="verify-actions">
        {broken && answer.firstBroken !== null ? (
          <Button variant="danger" size="sm" onClick={() => onOpen(answer.firstBroken as number)} data-testid="audit-verify-open">
            {t('openRecord', { seq: answer.firstBroken })}
          </Button>
        ) : null}
        <button
          type="button"
          className="icon-btn icon-btn-sm"
          onClick={onDismiss}
          aria-label={tc('common.close')}
          title={tc('common.close')}
          data-testid="audit-verify-dismiss"
        >
          <CloseIcon size={16} />
        </button>
      </div>
    </div>
  );
}

/** Every broken record the answer lists, each opening its record; a note says how many more are not listed. */
function BrokenList({ answer, onOpen }: { answer: AuditVerifyAnswer; onOpen(seq: number): void }) {
  const { t } = useTranslation('audit');
  const unlisted = answer.brokenCount - answer.broken.length;
  if (answer.broken.length === 0) return null;
  return (
    <ul className="verify-broken-list" aria-label={t('verify.brokenList')} data-testid="audit-verify-broken-list">
      {answer.broken.map((seq) => (
        <li key={seq}>
          <button
            type="button"
            className="verify-broken-seq"
            onClick={() => onOpen(seq)}
            title={t('openRecord', { seq })}
            data-testid="audit-verify-broken-item"
          >
            #{seq}
          </button>
        </li>
      ))}
      {unlisted > 0 ? <li className="verify-broken-more">{t('verify.brokenMore', { count: unlisted })}</li> : null}
    </ul>
  );
}
