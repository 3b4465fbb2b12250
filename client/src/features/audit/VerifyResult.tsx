import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { api, type AuditAnchorCheck, type AuditChainHead, type AuditVerifyAnswer } from '@eln/shared';
import { call, isApiError } from '../../api';
import { alertApiError } from '../../modals/store';
import { Button } from '../../ui/Button';
import { CloseIcon } from '../../ui/icons';
import { TimestampMark } from '../timestamps/TimestampMark';
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

  /** Verifies the chain; with an export's head, also whether the chain still holds it. */
  const run = useCallback(async (exportHead?: AuditChainHead) => {
    setRunning(true);
    try {
      const answer = await call(api.audit.verify, exportHead ? { exportHead } : {});
      if (mounted.current) setOutcome({ answer, checkedAt: new Date() });
    } catch (error) {
      if (mounted.current && !(isApiError(error) && error.httpStatus === 401)) void alertApiError(error);
    } finally {
      if (mounted.current) setRunning(false);
    }
  }, []);

  return { run, running, outcome, clear: useCallback(() => setOutcome(null), []) };
}

const timeText = (iso: string) => {
  const when = formatAuditTime(iso);
  return when ? `${when.date} ${when.time} ${when.zone}` : iso;
};

/**
 * The chain's state after a verify: green and intact with the count, or red with how many records are
 * broken and which, or, when every record is intact, that a head kept outside the database is no
 * longer in the chain; then each head it was compared with, and what the chain says of it.
 */
export function VerifyResult({ outcome, onOpen, onDismiss }: { outcome: VerifyOutcome; onOpen(seq: number): void; onDismiss(): void }) {
  const { t } = useTranslation('audit');
  const { t: tc } = useTranslation();
  const { answer, checkedAt } = outcome;
  const when = formatAuditTime(checkedAt.toISOString());
  const time = when ? `${when.time} ${when.zone}` : '';
  const broken = !answer.ok;
  const recordsBroken = answer.brokenCount > 0;
  return (
    <div
      className={broken ? 'verify-result verify-broken' : 'verify-result verify-intact'}
      role={broken ? 'alert' : 'status'}
      data-testid="audit-verify-result"
      data-ok={answer.ok ? 'true' : 'false'}
      data-checked={answer.checked}
      data-first-broken={answer.firstBroken ?? undefined}
      data-broken-count={answer.brokenCount}
      data-server-anchor={answer.serverAnchor}
    >
      <span className="verify-icon">{broken ? <ShieldAlertIcon size={24} /> : <ShieldCheckIcon size={24} />}</span>
      <div className="verify-text">
        <p className="verify-title">
          {recordsBroken
            ? t('verify.broken', { count: answer.brokenCount, seq: answer.firstBroken ?? '?' })
            : broken
              ? t('verify.anchorBroken')
              : t('verify.intact', { count: answer.checked })}
        </p>
        <p className="verify-hint">
          {recordsBroken
            ? t('verify.brokenHint', { count: answer.checked, time })
            : broken
              ? t('verify.anchorBrokenHint', { time })
              : t('verify.intactHint', { time })}
        </p>
        {recordsBroken ? <BrokenList answer={answer} onOpen={onOpen} /> : null}
        <AnchorList answer={answer} />
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

/** What the chain says of a head kept outside it, in words. */
function anchorResultText(t: TFunction<'audit'>, check: Pick<AuditAnchorCheck, 'seq' | 'result'>, end: number | null): string {
  if (check.result === 'beyondEnd') return t('verify.anchors.beyondEnd', { end: end ?? 0 });
  return t(`verify.anchors.${check.result}`, { seq: check.seq });
}

/** One head's record (`#seq · hash…`) and what the chain says of it. */
function AnchorVerdict({ check, end }: { check: Pick<AuditAnchorCheck, 'seq' | 'hash' | 'result'>; end: number | null }) {
  const { t } = useTranslation('audit');
  return (
    <>
      <span className="verify-anchor-record">
        #{check.seq} · <span title={check.hash}>{check.hash.slice(0, 12)}…</span>
      </span>
      {': '}
      <strong className={check.result === 'matches' ? 'verify-anchor-ok' : 'verify-anchor-bad'}>{anchorResultText(t, check, end)}</strong>
    </>
  );
}

/**
 * Each head verify compared with the chain (the server's anchor file, an export's, the latest ones an
 * authority time-stamped, each with its stamp), or why there was none of the server's.
 */
function AnchorList({ answer }: { answer: AuditVerifyAnswer }) {
  const { t } = useTranslation('audit');
  return (
    <div className="verify-anchors" data-testid="audit-verify-anchors">
      <p className="verify-anchors-title">{t('verify.anchors.title')}</p>
      <ul>
        {answer.serverAnchor === 'compared' ? null : (
          <li data-testid="audit-verify-anchor" data-source="server" data-result={answer.serverAnchor}>
            {t(`verify.anchors.${answer.serverAnchor}`)}
          </li>
        )}
        {answer.anchors.map((check) => (
          <li key={check.source} data-testid="audit-verify-anchor" data-source={check.source} data-result={check.result}>
            <span className="verify-anchor-source">
              {check.source === 'server'
                ? t('verify.anchors.server', { time: timeText(check.writtenAt ?? '') })
                : t('verify.anchors.export')}
            </span>{' '}
            <AnchorVerdict check={check} end={answer.head?.seq ?? null} />
          </li>
        ))}
        {answer.stampedHeads.map((check) => (
          <li key={`stamp-${check.seq}`} data-testid="audit-verify-anchor" data-source="timestamp" data-result={check.result}>
            <span className="verify-anchor-source">{t('verify.anchors.timestamped', { time: timeText(check.anchoredAt) })}</span>{' '}
            <AnchorVerdict check={check} end={answer.head?.seq ?? null} />
            <TimestampMark
              stamp={check.timestamp}
              kind="auditAnchor"
              id={String(check.seq)}
              fileBase={`audit-head-${check.seq}`}
              testId="audit-timestamp"
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
