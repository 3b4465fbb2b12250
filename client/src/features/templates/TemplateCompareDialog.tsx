import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { diffBlockLists, type BlockChange, type TemplateRevision } from '@eln/shared';
import { apiErrorText } from '../../api';
import { currentLanguage } from '../../i18n';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { Comparison } from '../diff/Comparison';
import type { DiffView } from '../diff/diffRows';
import { useRevision } from './useRevision';

/**
 * Two checked-in revisions compared block by block, with the note history's comparison (loaded when
 * first opened, so the template screens do not carry it).
 */
export default function CompareDialog({
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
  const { t: th } = useTranslation('history');
  const peopleOf = (change: BlockChange) => {
    const names = writersOf(change);
    return names?.length ? th('diff.writtenBy', { names: names.join(', ') }) : undefined;
  };
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
          peopleOf={peopleOf}
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
