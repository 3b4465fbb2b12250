import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TemplateDetail, TemplateRevision } from '@eln/shared';
import { apiErrorText } from '../../api';
import { currentLanguage } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { StaticDocument } from '../editor/StaticDocument';
import { RevisionBadge } from './TemplateStateBadge';
import { useRevision } from './useRevision';

const CompareDialog = lazy(() => import('./TemplateCompareDialog'));

const revisionLabel = (revision: TemplateRevision, t: (key: 'history.revision', options: { revision: number }) => string) =>
  revision.version ? `v${revision.version}` : t('history.revision', { revision: revision.revision });

/** The checked-in revisions, newest first, each viewable; any two compared block by block. */
export function TemplateHistory({ template }: { template: TemplateDetail }) {
  const { t } = useTranslation('template');
  const language = currentLanguage();
  const revisions = template.revisions;
  const [viewing, setViewing] = useState<TemplateRevision | null>(null);
  const [from, setFrom] = useState(revisions[1]?.revision ?? 0);
  const [to, setTo] = useState(revisions[0]?.revision ?? 0);
  const [comparing, setComparing] = useState(false);
  const label = (revision: TemplateRevision) => revisionLabel(revision, t);
  const byNo = (no: number) => revisions.find((r) => r.revision === no);

  return (
    <aside className="card template-history" aria-labelledby="template-history-title" data-testid="template-history">
      <h2 className="card-title" id="template-history-title">
        {t('history.title')}
      </h2>
      {revisions.length === 0 ? <p className="cell-muted">{t('history.empty')}</p> : null}
      {revisions.length >= 2 ? (
        <div className="template-compare-pick">
          <RevisionSelect
            revisions={revisions}
            value={from}
            onChange={setFrom}
            label={t('compare.before')}
            testId="template-compare-from"
          />
          <span aria-hidden="true">→</span>
          <RevisionSelect revisions={revisions} value={to} onChange={setTo} label={t('compare.after')} testId="template-compare-to" />
          <Button variant="secondary" size="sm" onClick={() => setComparing(true)} disabled={from === to} data-testid="template-compare">
            {t('history.compare')}
          </Button>
        </div>
      ) : null}
      <ol className="template-revisions">
        {revisions.map((revision) => (
          <li
            key={revision.revision}
            className="template-revision"
            data-testid="template-revision"
            data-revision={revision.revision}
            data-version={revision.version ?? ''}
          >
            <div className="template-revision-head">
              <strong>{label(revision)}</strong>
              <RevisionBadge revision={revision} />
              <Button variant="ghost" size="sm" onClick={() => setViewing(revision)} data-testid="template-revision-view">
                {t('history.view')}
              </Button>
            </div>
            <p className="template-revision-line">
              {t('history.checked', { name: revision.checkedBy, time: formatDateTime(revision.checkedAt, language) })}
            </p>
            {revision.writtenBy.length ? (
              <p className="template-revision-line" data-testid="template-revision-writers">
                {t('history.writtenBy', { names: revision.writtenBy.join(', ') })}
              </p>
            ) : null}
            {revision.approvedAt ? (
              <p className="template-revision-line">
                {t('history.approved', { name: revision.approvedBy ?? '', time: formatDateTime(revision.approvedAt, language) })}
              </p>
            ) : null}
            {revision.returnReason ? <p className="template-revision-line template-revision-reason">“{revision.returnReason}”</p> : null}
          </li>
        ))}
      </ol>
      {viewing ? (
        <RevisionPreview
          templateNo={template.templateNo}
          title={`${template.title} — ${label(viewing)}`}
          revision={viewing.revision}
          onClose={() => setViewing(null)}
        />
      ) : null}
      {comparing && byNo(from) && byNo(to) ? (
        <Suspense fallback={null}>
          <CompareDialog
            templateNo={template.templateNo}
            from={byNo(from)!}
            to={byNo(to)!}
            label={label}
            onClose={() => setComparing(false)}
          />
        </Suspense>
      ) : null}
    </aside>
  );
}

function RevisionSelect({
  revisions,
  value,
  onChange,
  label,
  testId,
}: {
  revisions: TemplateRevision[];
  value: number;
  onChange(revision: number): void;
  label: string;
  testId: string;
}) {
  const { t } = useTranslation('template');
  return (
    <select
      className="input"
      value={value}
      onChange={(event) => onChange(Number(event.target.value))}
      data-testid={testId}
      aria-label={label}
    >
      {revisions.map((r) => (
        <option key={r.revision} value={r.revision}>
          {revisionLabel(r, t)}
        </option>
      ))}
    </select>
  );
}

/** One revision's content, read-only (also what the note-create picker previews). */
export function RevisionPreview({
  templateNo,
  revision,
  title,
  onClose,
}: {
  templateNo: number;
  revision?: number;
  title: string;
  onClose(): void;
}) {
  const { t } = useTranslation('template');
  const viewed = useRevision(templateNo, revision);
  const error = viewed.phase === 'error' ? viewed.error : null;
  const shown = viewed.data?.blockList ?? null;
  return (
    <Dialog title={title} onClose={onClose} closeOnBackdrop size="lg" testId="template-preview">
      {error ? (
        <ErrorState message={apiErrorText(error, currentLanguage())} />
      ) : shown ? (
        <StaticDocument blocks={shown} testId="template-preview-document" />
      ) : (
        <SkeletonBlock lines={5} />
      )}
      <div className="modal-footer modal-footer-inline">
        <Button variant="secondary" onClick={onClose}>
          {t('compare.close')}
        </Button>
      </div>
    </Dialog>
  );
}
