import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatZonedTime, summaryLine, type NoteVersionEntry, type NoteVersionListAnswer, type SummaryWords } from '@eln/shared';
import { currentLanguage } from '../../i18n';
import { viewerTimeZone } from '../../lib/timeZone';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { CopyButton } from '../audit/AuditBits';
import { TimestampMark } from '../timestamps/TimestampMark';
import type { ComparedVersion } from './historyParams';

export function zonedText(iso: string | null): string {
  return (iso && formatZonedTime(iso, viewerTimeZone(), currentLanguage())?.text) || '—';
}

/** The one-line summary's words, `{{count}}` left in for `summaryLine` (the shared function the PDF uses too) to fill. */
function useSummaryWords(): SummaryWords {
  const { t } = useTranslation('history');
  return t('list.changes', { returnObjects: true, interpolation: { prefix: '⟦', suffix: '⟧' } });
}

/** What changed against the version before; the first version says so, with what it holds. */
function versionSummary(entry: NoteVersionEntry, first: string, words: SummaryWords): string {
  if (entry.version > 1) return summaryLine(entry.changes, words);
  return entry.changes.added > 0 ? `${first} · ${summaryLine(entry.changes, words)}` : first;
}

function Signatures({ entry }: { entry: NoteVersionEntry }) {
  const { t } = useTranslation('history');
  const { t: ts } = useTranslation('signature');
  if (!entry.signatures.length) return null;
  return (
    <ul className="history-signatures" data-testid="history-signatures">
      {entry.signatures.map((signature) => (
        <li key={signature.signatureId} className={signature.removed ? 'is-removed' : undefined} data-testid="history-signature">
          <span className={signature.removed ? 'history-signature-removed' : undefined}>
            {t('list.signedAs', { meaning: ts(`meaning.${signature.meaning}`), name: signature.signatureName ?? signature.signer.name })}
          </span>{' '}
          <time dateTime={signature.signedAt} className="history-time">
            {formatZonedTime(signature.signedAt, signature.timeZone, currentLanguage())?.text ?? '—'}
          </time>
          {signature.removed ? (
            <span className="history-signature-reason"> · {t('list.signatureRemoved', { reason: signature.removedReason ?? '' })}</span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** The pair of choices of one row: compare from this version, compare to it (the live draft is only ever "to"). */
function Picks({
  version,
  from,
  to,
  onPick,
}: {
  version: ComparedVersion;
  from: number | null;
  to: ComparedVersion | null;
  onPick(side: 'from' | 'to', version: ComparedVersion): void;
}) {
  const { t } = useTranslation('history');
  return (
    <div className="history-picks">
      {version === 'live' ? (
        <span className="history-pick-gap" />
      ) : (
        <input
          type="radio"
          name="history-from"
          checked={from === version}
          onChange={() => onPick('from', version)}
          aria-label={t('list.compareFrom', { version })}
          data-testid={`history-from-${version}`}
        />
      )}
      <input
        type="radio"
        name="history-to"
        checked={to === version}
        onChange={() => onPick('to', version)}
        aria-label={version === 'live' ? t('list.compareToLive') : t('list.compareTo', { version })}
        data-testid={`history-to-${version}`}
      />
    </div>
  );
}

/**
 * A note's saved versions, newest first, under its live draft: each with who saved it when (zone named),
 * its SHA-256 (short, copied whole), the signatures bound to it and what changed against the version
 * before; two columns of radio buttons choose what is compared (arrows move within each column). The
 * template the note started from closes the list.
 */
export function VersionList({
  history,
  liveChanged,
  from,
  to,
  onPick,
  onRestore,
}: {
  history: NoteVersionListAnswer;
  /** Whether the live draft differs from the newest version. */
  liveChanged: boolean;
  from: number | null;
  to: ComparedVersion | null;
  onPick(side: 'from' | 'to', version: ComparedVersion): void;
  /** Restores a version (given only to a writer of the note, `abilities.write`). */
  onRestore?: ((version: number) => void) | undefined;
}) {
  const { t } = useTranslation('history');
  const words = useSummaryWords();
  const { template } = history;
  return (
    <div className="history-list" data-testid="history-list">
      <div className="history-list-head" aria-hidden="true">
        <span>{t('list.from')}</span>
        <span>{t('list.to')}</span>
      </div>
      <ol className="history-versions" aria-label={t('list.label')}>
        <li className={`history-version history-live${to === 'live' ? ' is-to' : ''}`} data-testid="history-version-live">
          <Picks version="live" from={from} to={to} onPick={onPick} />
          <div className="history-version-main">
            <div className="history-version-title">
              <strong>{t('list.live')}</strong>
            </div>
            <p className="history-line">{liveChanged ? t('list.liveHint') : t('list.liveSame')}</p>
          </div>
        </li>
        {history.list.map((entry, index) => (
          <li
            key={entry.version}
            className={`history-version${from === entry.version ? ' is-from' : ''}${to === entry.version ? ' is-to' : ''}`}
            data-testid="history-version"
            data-version={entry.version}
          >
            <Picks version={entry.version} from={from} to={to} onPick={onPick} />
            <div className="history-version-main">
              <div className="history-version-title">
                <strong>{t('list.version', { version: entry.version })}</strong>
                {index === 0 ? <Badge tone="accent">{t('list.latest')}</Badge> : null}
                {entry.signatures.some((s) => !s.removed) ? <Badge tone="success">{t('list.signed')}</Badge> : null}
              </div>
              <p className="history-line">
                {t('list.savedBy', { name: entry.savedBy.name })} ·{' '}
                <time dateTime={entry.savedAt} className="history-time" data-testid="history-saved-at">
                  {zonedText(entry.savedAt)}
                </time>
              </p>
              <p className="history-line history-summary" data-testid="history-summary">
                {versionSummary(entry, t('list.firstVersion'), words)}
              </p>
              {entry.restoredFrom !== null ? (
                <p className="history-line history-restored" data-testid="history-restored">
                  {t('list.restoredFrom', { version: entry.restoredFrom, reason: entry.reason ?? '' })}
                </p>
              ) : null}
              <p className="history-line history-hash">
                <span className="history-hash-label">{t('list.hash')}</span>{' '}
                <code title={entry.blocksHash} data-testid="history-hash">
                  {entry.blocksHash.slice(0, 12)}
                </code>
                <CopyButton text={entry.blocksHash} label={t('list.copyHash', { version: entry.version })} />
              </p>
              <TimestampMark
                stamp={entry.timestamp}
                kind="version"
                id={`${history.labNoteNo}:${entry.version}`}
                fileBase={`note-${history.labNoteNo}-v${entry.version}`}
                testId="version-timestamp"
              />
              <Signatures entry={entry} />
              {onRestore && index > 0 ? (
                <Button
                  variant="ghost"
                  size="sm"
                  className="history-restore"
                  onClick={() => onRestore(entry.version)}
                  data-testid={`history-restore-${entry.version}`}
                >
                  {t('list.restore', { version: entry.version })}
                </Button>
              ) : null}
            </div>
          </li>
        ))}
      </ol>
      {template ? (
        <p className="history-template" data-testid="history-template">
          <Link to={`/template/note/${template.templateNo}`}>
            {t('list.template', { title: template.title, version: template.version, revision: template.revision })}
          </Link>{' '}
          <code title={template.blocksHash}>{template.blocksHash.slice(0, 12)}</code>
        </p>
      ) : null}
    </div>
  );
}
