import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type AuditDetailAnswer, type AuditRecord } from '@eln/shared';
import { apiErrorText } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { AuditIcon } from '../../ui/icons';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { ActionBadge, AuditTimeText, CopyButton, TargetText } from './AuditBits';
import { DeletedNoteSection } from './DeletedNoteSection';
import { FilterIcon } from './icons';
import { compareValues, pathLabel, type Change, type JsonLine } from './jsonDiff';
import { reasonText } from './labels';
import { formatAuditTime } from './time';

interface AuditDetailDialogProps {
  seq: number;
  /** The row the list already holds, shown while the record loads. */
  initial?: AuditRecord;
  onClose(): void;
  /** Filters the list to this record's target. */
  onShowTarget?: (targetType: string, targetId: string) => void;
}

/** One audit record: every field, before and after side by side with the changes marked, and its hashes. */
export function AuditDetailDialog({ seq, initial, onClose, onShowTarget }: AuditDetailDialogProps) {
  const { t } = useTranslation('audit');
  const { t: tc } = useTranslation();
  const language = currentLanguage();
  // Another record's answer is never shown under this one's number: the row's own copy shows while it loads.
  const record = useApiQuery(api.audit.detail, { seq }, { keepPrevious: false });
  const data = record.data ?? (initial?.seq === seq ? initial : undefined);
  const targetType = data?.targetType;
  const targetId = data?.targetId;

  return (
    <Dialog
      title={t('detail.title', { seq })}
      icon={<AuditIcon size={20} />}
      size="lg"
      onClose={onClose}
      closeOnBackdrop
      testId="audit-detail"
      footer={
        <>
          {onShowTarget && targetType && targetId ? (
            <Button
              variant="ghost"
              icon={<FilterIcon size={16} />}
              onClick={() => onShowTarget(targetType, targetId)}
              className="audit-detail-target"
              data-testid="audit-detail-show-target"
            >
              {t('detail.showTarget')}
            </Button>
          ) : null}
          <Button variant="primary" onClick={onClose} data-testid="audit-detail-close">
            {tc('common.close')}
          </Button>
        </>
      }
    >
      <div className="audit-detail-body" data-seq={seq} aria-busy={!data}>
        {data ? (
          <RecordView record={data} />
        ) : record.phase === 'error' ? (
          <ErrorState
            message={record.error ? apiErrorText(record.error, language) : t('detail.loadFailed')}
            onRetry={record.reload}
            testId="audit-detail-error"
          />
        ) : (
          <SkeletonBlock lines={8} />
        )}
      </div>
    </Dialog>
  );
}

function RecordView({ record }: { record: AuditRecord | AuditDetailAnswer }) {
  const { t } = useTranslation('audit');
  const comparison = useMemo(() => compareValues(record.before, record.after), [record.before, record.after]);
  const time = formatAuditTime(record.at);
  const changes = [...comparison.changes.entries()];
  const both = comparison.hasBefore && comparison.hasAfter;
  const genesis = /^0+$/.test(record.prevHash);

  return (
    <>
      <dl className="audit-fields">
        <Field label={t('detail.fields.seq')} testId="audit-detail-seq">
          <span className="audit-mono audit-strong">#{record.seq}</span>
        </Field>
        <Field label={t('detail.fields.action')} testId="audit-detail-action">
          <ActionBadge action={record.action} />
          <code className="audit-code">{record.action}</code>
        </Field>
        <Field label={t('detail.fields.time')} testId="audit-detail-time">
          <AuditTimeText iso={record.at} inline />
          {time ? (
            <span className="audit-sub">
              {t('detail.fields.utc')} <span className="audit-mono">{time.utc}</span> · {time.zoneName}
            </span>
          ) : null}
        </Field>
        <Field label={t('detail.fields.actor')} testId="audit-detail-actor">
          {record.actorUserId || record.actorName ? (
            <span className="person-text">
              <span className="person-name">{record.actorName ?? record.actorUserId}</span>
              {record.actorUserId ? <span className="person-sub">{record.actorUserId}</span> : null}
            </span>
          ) : (
            <span className="cell-muted">{t('noActor')}</span>
          )}
        </Field>
        <Field label={t('detail.fields.target')} testId="audit-detail-target">
          <TargetText type={record.targetType} id={record.targetId} />
        </Field>
        <Field label={t('detail.fields.clientAddress')} testId="audit-detail-address">
          {record.clientAddress ? <span className="audit-mono">{record.clientAddress}</span> : <span className="cell-muted">—</span>}
        </Field>
        {record.tokenId ? (
          <Field label={t('detail.fields.token')} testId="audit-detail-token">
            <span className="audit-mono">{record.tokenId}</span>
          </Field>
        ) : null}
        <Field label={t('detail.fields.reason')} testId="audit-detail-reason" wide>
          {record.reason ? <span className="pre-line">{reasonText(record.reason, t)}</span> : <span className="cell-muted">—</span>}
        </Field>
      </dl>

      <section className="audit-section" aria-labelledby={`audit-values-${record.seq}`}>
        <header className="audit-section-head">
          <h3 className="audit-section-title" id={`audit-values-${record.seq}`}>
            {t('detail.values')}
          </h3>
          {both ? (
            changes.length > 0 ? (
              <p className="audit-changes" data-testid="audit-changes" data-count={changes.length}>
                <span>{t('detail.changed', { count: changes.length })}</span>
                {changes.map(([path, change]) => (
                  <span key={path} className={`audit-change-chip is-${change}`} title={t(LEGEND[change])}>
                    {pathLabel(path)}
                  </span>
                ))}
              </p>
            ) : (
              <p className="audit-changes" data-testid="audit-changes" data-count={0}>
                {t('detail.identical')}
              </p>
            )
          ) : null}
        </header>
        {comparison.hasBefore || comparison.hasAfter ? (
          <div className="audit-compare">
            <JsonPane side="before" lines={comparison.before} has={comparison.hasBefore} value={record.before} testId="audit-before" />
            <JsonPane side="after" lines={comparison.after} has={comparison.hasAfter} value={record.after} testId="audit-after" />
          </div>
        ) : (
          <p className="audit-no-values" data-testid="audit-no-values">
            {t('detail.noValues')}
          </p>
        )}
      </section>

      {'deletedNote' in record && record.deletedNote ? (
        <DeletedNoteSection note={record.deletedNote} headingId={`audit-deleted-note-${record.seq}`} />
      ) : null}

      <section className="audit-section" aria-labelledby={`audit-chain-${record.seq}`}>
        <header className="audit-section-head">
          <h3 className="audit-section-title" id={`audit-chain-${record.seq}`}>
            {t('detail.chain')}
          </h3>
        </header>
        <dl className="audit-hashes">
          <HashRow
            label={t('detail.prevHash')}
            value={record.prevHash}
            note={genesis ? t('detail.genesis') : undefined}
            testId="audit-prev-hash"
          />
          <HashRow label={t('detail.hash')} value={record.hash} testId="audit-hash" />
        </dl>
      </section>
    </>
  );
}

const LEGEND = { added: 'detail.legendAdded', removed: 'detail.legendRemoved', changed: 'detail.legendChanged' } as const satisfies Record<
  Change,
  string
>;

function Field({ label, children, testId, wide }: { label: string; children: ReactNode; testId?: string; wide?: boolean }) {
  return (
    <div className={wide ? 'audit-field audit-field-wide' : 'audit-field'}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

function HashRow({ label, value, note, testId }: { label: string; value: string; note?: string; testId: string }) {
  return (
    <div className="audit-hash-row">
      <dt>{label}</dt>
      <dd>
        <code className="audit-hash" data-testid={testId}>
          {value}
        </code>
        <CopyButton text={value} label={label} testId={`${testId}-copy`} />
        {note ? <span className="audit-sub">{note}</span> : null}
      </dd>
    </div>
  );
}

function JsonPane({
  side,
  lines,
  has,
  value,
  testId,
}: {
  side: 'before' | 'after';
  lines: JsonLine[];
  has: boolean;
  value: unknown;
  testId: string;
}) {
  const { t } = useTranslation('audit');
  const title = side === 'before' ? t('detail.before') : t('detail.after');
  const marked = side === 'before' ? (['removed', 'changed'] as const) : (['added', 'changed'] as const);
  const present = new Set(lines.map((line) => line.change).filter((change): change is Change => change !== null));
  return (
    <div className={`audit-pane audit-pane-${side}`} data-testid={testId} data-empty={has ? undefined : 'true'}>
      <div className="audit-pane-head">
        <span className="audit-pane-title">{title}</span>
        <span className="audit-legend">
          {marked
            .filter((change) => present.has(change))
            .map((change) => (
              <span key={change} className={`audit-legend-item is-${change}`}>
                {t(LEGEND[change])}
              </span>
            ))}
        </span>
        {has ? <CopyButton text={JSON.stringify(value, null, 2)} label={title} testId={`${testId}-copy`} /> : null}
      </div>
      {has ? (
        <pre
          className="audit-json"
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the pane scrolls: keyboard users reach it to scroll it (axe's scrollable-region-focusable)
          tabIndex={0}
          aria-label={title}
        >
          {lines.map((line, index) => (
            <span
              key={index}
              className={line.change ? `json-line is-${line.change}` : 'json-line'}
              style={{ paddingLeft: `calc(${line.depth * 2}ch + 10px)` }}
              data-change={line.change ?? undefined}
              data-path={line.key !== null ? line.path : undefined}
            >
              {line.key !== null ? (
                <>
                  <span className="json-key">{line.key}</span>
                  <span className="json-punct">: </span>
                </>
              ) : null}
              <span className={`json-${line.kind}`}>{line.text}</span>
              {line.comma ? <span className="json-punct">,</span> : null}
            </span>
          ))}
        </pre>
      ) : (
        <p className="audit-pane-empty">{t('detail.noValue')}</p>
      )}
    </div>
  );
}
