import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignatureEntry, SignatureStatus } from '@eln/shared';
import { currentLanguage } from '../../i18n';
import { Badge, type BadgeTone } from '../../ui/Badge';
import { BrokenIcon, CancelledIcon, DeclinedIcon, PendingIcon, SignedIcon } from './icons';
import { TimestampMark } from '../timestamps/TimestampMark';
import { formatZonedTime } from './zonedTime';
import './signatures.css';

const STATUS_TONES: Record<SignatureStatus, BadgeTone> = { R: 'warning', T: 'success', F: 'danger', C: 'neutral' };
const STATUS_ICONS: Record<SignatureStatus, ReactNode> = {
  R: <PendingIcon size={15} />,
  T: <SignedIcon size={15} />,
  F: <DeclinedIcon size={15} />,
  C: <CancelledIcon size={15} />,
};

/** The attributes every shown signature carries, so that a test (or an inspector's tool) can read it. */
function entryData(entry: SignatureEntry, testId = 'signature-entry') {
  return {
    'data-testid': testId,
    'data-status': entry.status,
    'data-type': entry.type,
    'data-intact': entry.intact === null ? 'none' : String(entry.intact),
    'data-user': entry.userId,
    'data-signature-id': entry.signatureId,
  };
}

/** The printed name the signer gave; their account name while the signature is pending. */
export const printedName = (entry: SignatureEntry) => entry.signatureName?.trim() || entry.name;

/** The plain red flag of a signature whose signed content no longer matches its hash. */
function BrokenFlag({ entry }: { entry: SignatureEntry }) {
  const { t } = useTranslation('signature');
  return (
    <span
      className="sig-broken"
      title={t('entry.brokenTitle', { version: entry.signedVersion ?? '' })}
      data-testid="signature-entry-broken"
    >
      <BrokenIcon size={13} />
      {t('entry.broken')}
    </span>
  );
}

/** When it was answered (a request cancelled at close: when the project was closed), in the signer's zone (the zone's name in the tooltip). */
function AnsweredAt({ entry }: { entry: SignatureEntry }) {
  const { t } = useTranslation('signature');
  const time = formatZonedTime(entry.signedAt, entry.timeZone, currentLanguage());
  if (!time) return null;
  return (
    <time className="sig-time" dateTime={time.iso} title={t('entry.zoneTitle', { zone: time.zone })} data-testid="signature-entry-time">
      {time.text}
    </time>
  );
}

function VersionPill({ entry }: { entry: SignatureEntry }) {
  const { t } = useTranslation('signature');
  if (entry.signedVersion === null || entry.status !== 'T') return null;
  return (
    <span
      className="sig-version"
      title={t('entry.versionTitle', { version: entry.signedVersion })}
      data-testid="signature-entry-version"
      data-version={entry.signedVersion}
    >
      {t('entry.version', { version: entry.signedVersion })}
    </span>
  );
}

/**
 * One signature as the note shows it (its manifestation): printed name, meaning, status, date and time
 * with zone, the signed version, a broken flag when the stored content no longer matches, the comment,
 * and the account behind it. `action` is the leader's remove button.
 */
export function SignatureCard({ entry, action, mine }: { entry: SignatureEntry; action?: ReactNode; mine?: boolean }) {
  const { t } = useTranslation('signature');
  const broken = entry.intact === false;
  return (
    <li className={`sig-card sig-status-${entry.status}${broken ? ' is-broken' : ''}${mine ? ' is-mine' : ''}`} {...entryData(entry)}>
      <span className="sig-mark" aria-hidden="true">
        {STATUS_ICONS[entry.status]}
      </span>
      <div className="sig-body">
        <div className="sig-line">
          <span className="sig-name" data-testid="signature-entry-name">
            {printedName(entry)}
          </span>
          <Badge tone={entry.type === 'reviewer' ? 'accent' : 'neutral'} testId="signature-entry-type">
            {t(`meaning.${entry.type}`)}
          </Badge>
          <Badge tone={STATUS_TONES[entry.status]} dot testId="signature-entry-status">
            {t(`status.${entry.status}`)}
          </Badge>
          {broken ? <BrokenFlag entry={entry} /> : null}
        </div>
        <div className="sig-line sig-meta">
          {entry.status === 'R' ? <span className="sig-awaiting">{t('entry.awaiting')}</span> : <AnsweredAt entry={entry} />}
          <VersionPill entry={entry} />
          <span className="sig-account">{t('entry.account', { name: entry.name, userId: entry.userId })}</span>
        </div>
        {entry.status === 'T' ? (
          <TimestampMark
            stamp={entry.timestamp}
            kind="signature"
            id={String(entry.signatureId)}
            timeZone={entry.timeZone}
            fileBase={`signature-${entry.signatureId}`}
            testId="signature-timestamp"
          />
        ) : null}
        {entry.description ? (
          <p className="sig-comment" data-testid="signature-entry-comment">
            <span className="visually-hidden">{t('entry.comment')}: </span>
            {entry.description}
          </p>
        ) : null}
      </div>
      {action ? <div className="sig-action">{action}</div> : null}
    </li>
  );
}

/** The same manifestation in a list row: one line per signature. `entryTestId` names each line. */
export function SignatureLines({ list, testId, entryTestId }: { list: readonly SignatureEntry[]; testId?: string; entryTestId?: string }) {
  const { t } = useTranslation('signature');
  if (list.length === 0) {
    return (
      <span className="cell-muted" data-testid={testId}>
        {t('list.none')}
      </span>
    );
  }
  return (
    <ul className="sig-lines" data-testid={testId}>
      {list.map((entry) => (
        <li
          key={entry.signatureId}
          className={`sig-line-item sig-status-${entry.status}${entry.intact === false ? ' is-broken' : ''}`}
          {...entryData(entry, entryTestId)}
        >
          <span className="sig-mark sig-mark-sm" title={t(`status.${entry.status}`)}>
            {STATUS_ICONS[entry.status]}
            <span className="visually-hidden">{t(`status.${entry.status}`)}</span>
          </span>
          <span className="sig-line-text">
            <span className="sig-name" data-testid="signature-entry-name">
              {printedName(entry)}
            </span>
            <span className="sig-sep" aria-hidden="true">
              ·
            </span>
            <span className="sig-meaning" data-testid="signature-entry-type">
              {t(`meaning.${entry.type}`)}
            </span>
            <span className="sig-sep" aria-hidden="true">
              ·
            </span>
            {entry.status === 'R' ? <span className="sig-awaiting">{t('status.R')}</span> : <AnsweredAt entry={entry} />}
            {entry.status === 'F' ? <span className="sig-declined-word">{t('status.F')}</span> : null}
            {entry.status === 'C' ? <span className="sig-cancelled-word">{t('status.C')}</span> : null}
            <VersionPill entry={entry} />
            {entry.intact === false ? <BrokenFlag entry={entry} /> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
