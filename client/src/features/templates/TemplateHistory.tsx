import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, diffBlockLists, type BlockChange, type TemplateDetail, type TemplateRevision } from '@eln/shared';
import { apiErrorText } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { Comparison } from '../diff/Comparison';
import type { DiffView } from '../diff/diffRows';
import { StaticDocument } from '../editor/StaticDocument';
import { RevisionBadge } from './TemplateStateBadge';

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
        <CompareDialog
          templateNo={template.templateNo}
          from={byNo(from)!}
          to={byNo(to)!}
          label={label}
          onClose={() => setComparing(false)}
        />
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

/** One checked-in revision as the viewer answers it: without `revision`, the latest approved one. */
function useRevision(templateNo: number, revision?: number) {
  // Never the previous revision's blocks under the next one's title.
  return useApiQuery(api.templates.viewer, revision === undefined ? { templateNo } : { templateNo, revision }, { keepPrevious: false });
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

function CompareDialog({
  templateNo,
  from,
  to,
  label,
  onClose,
}: {
  templateNo: number;
  from: TemplateRevision;
  to: TemplateRevision;
  label(r: TemplateRevision): string;
  onClose(): void;
}) {
  const { t } = useTranslation('template');
  const before = useRevision(templateNo, from.revision);
  const after = useRevision(templateNo, to.revision);
  const [view, setView] = useState<DiffView>('inline');
  const [onlyChanges, setOnlyChanges] = useState(true);
  const error = before.phase === 'error' ? before.error : after.phase === 'error' ? after.error : null;
  const compared = useMemo(
    () => (before.data && after.data ? diffBlockLists(before.data.blockList, after.data.blockList) : null),
    [before.data, after.data],
  );
  // Who wrote each block: the newer revision's writers of a block it has, the older's of one it removed.
  const writersOf = (change: BlockChange) => (change.after ? after.data?.authors : before.data?.authors)?.[change.blockUid];
  return (
    <Dialog
      title={t('compare.title', { from: label(from), to: label(to) })}
      onClose={onClose}
      closeOnBackdrop
      size="lg"
      testId="template-compare-dialog"
    >
      {error ? <ErrorState message={apiErrorText(error, currentLanguage())} /> : null}
      {!compared && !error ? <SkeletonBlock lines={5} /> : null}
      {compared ? (
        <Comparison
          changes={compared.changes}
          summary={compared.summary}
          view={view}
          onView={setView}
          onlyChanges={onlyChanges}
          onOnlyChanges={setOnlyChanges}
          writersOf={writersOf}
          testId="template-compare-diff"
        />
      ) : null}
      <div className="modal-footer modal-footer-inline">
        <Button variant="secondary" onClick={onClose}>
          {t('compare.close')}
        </Button>
      </div>
    </Dialog>
  );
}
