import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type SignatureRequestOverview, type SignatureRequestState } from '@eln/shared';
import { apiErrorText, call, isApiError } from '../../api';
import { currentLanguage } from '../../i18n';
import { alert } from '../../modals/store';
import { Badge, type BadgeTone } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { BellIcon } from '../notifications/BellIcon';
import { CancelledIcon, DeclinedIcon, PendingIcon, SignedIcon } from './icons';
import { viewerTime, waitedFor } from './overviewTime';
import { TrashIcon } from '../editor/icons';
import './signatures.css';

/*
 * One signature request as a row of the overview (the note's section and the project's page share it):
 * the person, what they sign as, where the request stands and since when, who asked, and the reminder.
 */

const STATE_TONES: Record<SignatureRequestState, BadgeTone> = {
  waiting: 'warning',
  signed: 'success',
  declined: 'danger',
  cancelled: 'neutral',
  removed: 'neutral',
};
const STATE_ICONS: Record<SignatureRequestState, ReactNode> = {
  waiting: <PendingIcon size={14} />,
  signed: <SignedIcon size={14} />,
  declined: <DeclinedIcon size={14} />,
  cancelled: <CancelledIcon size={14} />,
  removed: <TrashIcon size={14} />,
};

/** The clock the waiting times count from, ticking each minute so that "waiting 5 minutes" stays true. */
export function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** Since when, or at what time, in the viewer's zone; an answer names the zone the signer recorded. */
function WhenCell({ request, now }: { request: SignatureRequestOverview; now: number }) {
  const { t } = useTranslation('signature');
  const language = currentLanguage();
  if (request.state === 'waiting') {
    const waited = waitedFor(request.requestedAt, now, language);
    return (
      <span className="ov-when">
        <span
          className="ov-waiting"
          data-testid="overview-waiting"
          title={t('overview.requestedAt', { when: viewerTime(request.requestedAt, language) })}
        >
          {waited ? t('overview.waitingFor', { duration: waited }) : t('overview.waitingJustNow')}
        </span>
      </span>
    );
  }
  if (request.state === 'removed') {
    return (
      <span className="ov-when">
        <time dateTime={request.removed?.at}>{viewerTime(request.removed?.at ?? null, language)}</time>
        <span className="cell-sub">
          {request.removed?.reason === 'request withdrawn'
            ? t('overview.withdrawn', { name: request.removed.by?.name ?? '—' })
            : t('overview.removedBy', { name: request.removed?.by?.name ?? '—', reason: request.removed?.reason ?? '' })}
        </span>
      </span>
    );
  }
  return (
    <span className="ov-when">
      <time dateTime={request.answeredAt ?? undefined} data-testid="overview-answered-at">
        {viewerTime(request.answeredAt, language)}
      </time>
      {request.state === 'cancelled' ? null : (
        <span className="cell-sub" data-testid="overview-signer-zone">
          {request.timeZone ? t('overview.signerZone', { zone: request.timeZone }) : t('overview.noZone')}
        </span>
      )}
    </span>
  );
}

/** The status, with the printed name, version and comment (or reason) the signer gave. */
function StatusCell({ request }: { request: SignatureRequestOverview }) {
  const { t } = useTranslation('signature');
  return (
    <span className="ov-status">
      <Badge tone={STATE_TONES[request.state]} testId="overview-state">
        <span className="ov-state-icon" aria-hidden="true">
          {STATE_ICONS[request.state]}
        </span>
        {t(`overview.state.${request.state}`)}
      </Badge>
      {request.state === 'signed' && request.signatureName ? (
        <span className="cell-sub">
          {t('overview.printedAs', { name: request.signatureName })}
          {request.signedVersion !== null ? ` · ${t('overview.version', { version: request.signedVersion })}` : ''}
        </span>
      ) : null}
      {request.description && (request.state === 'signed' || request.state === 'declined') ? (
        <span className="cell-sub ov-comment">
          <span className="visually-hidden">{t('entry.comment')}: </span>“{request.description}”
        </span>
      ) : null}
    </span>
  );
}

/** The reminder: sent now, or shown disabled with the time the next is possible; nothing when the caller may not remind. */
function RemindAction({
  labNoteNo,
  request,
  onReminded,
}: {
  labNoteNo: number;
  request: SignatureRequestOverview;
  onReminded(message: string): void;
}) {
  const { t } = useTranslation('signature');
  const language = currentLanguage();
  const [busy, setBusy] = useState(false);
  const { reminder } = request;
  if (!reminder) return null;
  const hintId = `overview-next-${request.signatureId}`;
  const send = async () => {
    setBusy(true);
    try {
      await call(api.signatureOverview.remind, { labNoteNo, signatureId: request.signatureId });
      onReminded(t('overview.reminded', { name: request.signer.name }));
    } catch (error) {
      if (!(isApiError(error) && error.httpStatus === 401))
        await alert(apiErrorText(error, language), { tone: 'error', title: t('overview.remindRefusedTitle') });
      onReminded('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="ov-remind">
      <Button
        size="sm"
        variant="secondary"
        icon={<BellIcon size={14} />}
        disabled={!reminder.allowed}
        loading={busy}
        onClick={() => void send()}
        aria-label={t('overview.remindLabel', { name: request.signer.name })}
        aria-describedby={reminder.nextAt ? hintId : undefined}
        data-testid={`overview-remind-${request.signatureId}`}
      >
        {busy ? t('overview.reminding') : t('overview.remind')}
      </Button>
      {reminder.nextAt ? (
        <span className="cell-sub" id={hintId} data-testid="overview-next-reminder">
          {t('overview.nextReminder', { when: viewerTime(reminder.nextAt, language) })}
        </span>
      ) : null}
    </span>
  );
}

/**
 * The cells of one request (after the note's cell on the project page). `onReminded` gets the notice to
 * show ('' after a refusal) so that the overview loads again.
 */
export function RequestCells({
  labNoteNo,
  request,
  now,
  onReminded,
}: {
  labNoteNo: number;
  request: SignatureRequestOverview;
  now: number;
  onReminded(message: string): void;
}) {
  const { t } = useTranslation('signature');
  const language = currentLanguage();
  const { reminders } = request;
  return (
    <>
      <td data-label={t('overview.columns.person')}>
        <span className="cell-main" data-testid="overview-person" title={request.signer.userId}>
          {request.signer.name}
        </span>
        <span className="cell-sub" data-testid="overview-asked">
          {t('overview.askedBy', { name: request.requestedBy.name, when: viewerTime(request.requestedAt, language) })}
        </span>
      </td>
      <td data-label={t('overview.columns.role')}>
        <Badge tone={request.type === 'reviewer' ? 'accent' : 'neutral'}>{t(`meaning.${request.type}`)}</Badge>
      </td>
      <td data-label={t('overview.columns.status')}>
        <StatusCell request={request} />
      </td>
      <td data-label={t('overview.columns.when')}>
        <WhenCell request={request} now={now} />
      </td>
      <td data-label={t('overview.columns.action')}>
        <RemindAction labNoteNo={labNoteNo} request={request} onReminded={onReminded} />
        {reminders.count > 0 && reminders.lastBy ? (
          <span className="cell-sub" data-testid="overview-reminders" data-count={reminders.count}>
            {t('overview.remindedCount', {
              count: reminders.count,
              name: reminders.lastBy.name,
              when: viewerTime(reminders.lastAt, language),
            })}
          </span>
        ) : null}
      </td>
    </>
  );
}
