import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { api, type BlockChange, type NoteCompareAnswer } from '@eln/shared';
import { apiErrorText } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { ButtonLink } from '../../ui/Button';
import { ArrowLeftIcon } from '../../ui/icons';
import { EmptyState, PageFrame } from '../../ui/PageFrame';
import { InlineAlert } from '../../ui/InlineAlert';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { Comparison } from '../diff/Comparison';
import { NoteIcon } from '../editor/icons';
import { parseNoteNo } from '../notes/tabs';
import { chosenSides, historySearch, readHistoryParams, type ComparedVersion, type HistoryParams } from './historyParams';
import { RestoreDialog } from './RestoreDialog';
import { VersionList, zonedText } from './VersionList';
import './history.css';

/** A side of the comparison named as the reader knows it: "v3" or "live draft". */
function useSideLabel(): (version: ComparedVersion) => string {
  const { t } = useTranslation('history');
  return (version) => (version === 'live' ? t('compare.liveLabel') : t('compare.versionLabel', { version }));
}

function CompareHead({ answer }: { answer: NoteCompareAnswer }) {
  const { t } = useTranslation('history');
  const label = useSideLabel();
  const side = (which: NoteCompareAnswer['from']) =>
    which.savedBy
      ? `${label(which.version)}: ${t('list.savedBy', { name: which.savedBy.name })}, ${zonedText(which.savedAt)}`
      : label(which.version);
  return (
    <header className="history-compare-head">
      <h2 className="card-title" id="history-compare-title" data-testid="history-compare-title">
        {t('compare.title', { from: label(answer.from.version), to: label(answer.to.version) })}
      </h2>
      <p className="history-line">
        {side(answer.from)} → {side(answer.to)}
      </p>
    </header>
  );
}

/**
 * `/note/:id/history`: a note's saved versions and the comparison of any two of them, or of one with
 * the live draft. Every choice (the two sides, the view, whether unchanged blocks fold) is in the URL.
 */
export default function HistoryPage() {
  const { t } = useTranslation('history');
  const language = currentLanguage();
  const { id } = useParams();
  const labNoteNo = parseNoteNo(id) ?? 0;
  const [search, setSearch] = useSearchParams();
  const params = readHistoryParams(search);
  const note = useApiQuery(api.notes.blockList, { labNoteNo }, { enabled: labNoteNo > 0, keepPrevious: false });
  const history = useApiQuery(api.noteHistory.list, { labNoteNo }, { enabled: labNoteNo > 0, keepPrevious: false });
  const newest = history.data?.list[0]?.version ?? 0;
  const sides = history.data ? chosenSides(params, newest) : null;
  const compared = useApiQuery(
    api.noteHistory.compare,
    { labNoteNo, from: sides?.from ?? 1, to: sides?.to ?? 1 },
    { enabled: sides !== null },
  );

  // Who wrote what: each side's saved version's authors, fetched when the reader asks for them.
  const detailOf = (version: ComparedVersion | undefined) => ({ labNoteNo, version: typeof version === 'number' ? version : 1 });
  const wantAuthors = (version: ComparedVersion | undefined) => params.authors && typeof version === 'number';
  const fromDetail = useApiQuery(api.noteHistory.detail, detailOf(sides?.from), { enabled: wantAuthors(sides?.from) });
  const toDetail = useApiQuery(api.noteHistory.detail, detailOf(sides?.to), { enabled: wantAuthors(sides?.to) });
  const authorsOf = (change: BlockChange) => {
    // A block the newer side has is written by whoever wrote it there; one only the older side has, by its authors there.
    if (change.after) return sides?.to === 'live' ? undefined : toDetail.data?.authors[change.blockUid];
    return fromDetail.data?.authors[change.blockUid];
  };
  const [restoring, setRestoring] = useState<number | null>(null);
  const [restored, setRestored] = useState<{ from: number; version: number } | null>(null);
  const canRestore = note.data?.note.abilities.write === true;

  const choose = (change: Partial<HistoryParams>) =>
    setSearch(historySearch({ ...params, from: sides?.from ?? null, to: sides?.to ?? null, ...change }), { replace: true });
  const title = note.data?.note.title ?? '';
  const error = note.phase === 'error' ? note.error : history.phase === 'error' ? history.error : null;
  const back = (
    <ButtonLink to={`/note/${labNoteNo}`} variant="secondary" icon={<ArrowLeftIcon size={16} />} data-testid="history-back">
      {t('page.back')}
    </ButtonLink>
  );

  if (error || labNoteNo === 0)
    return (
      <PageFrame testId="history-page" title={t('list.title')} icon={<NoteIcon size={22} />} actions={back}>
        <div className="card">
          <ErrorState message={error ? apiErrorText(error, language) : t('page.loadFailed')} testId="history-error" />
        </div>
      </PageFrame>
    );

  return (
    <PageFrame
      testId="history-page"
      title={title ? t('page.title', { title }) : t('list.title')}
      description={note.data?.note.labNoteNumber}
      icon={<NoteIcon size={22} />}
      actions={back}
    >
      {!history.data ? (
        <div className="card">
          <SkeletonBlock lines={6} />
        </div>
      ) : history.data.list.length === 0 ? (
        <div className="card" data-testid="history-never-saved">
          <EmptyState icon={<NoteIcon size={26} />} title={t('list.neverSavedTitle')}>
            <p>{t('list.neverSavedBody')}</p>
          </EmptyState>
        </div>
      ) : (
        <div className="history-layout">
          <aside className="card history-aside" aria-labelledby="history-versions-title">
            <h2 className="card-title" id="history-versions-title">
              {t('list.title')}
            </h2>
            {history.data.list.length === 1 ? (
              <p className="history-single" data-testid="history-single">
                <strong>{t('list.singleTitle')}</strong> {t('list.singleBody')}
              </p>
            ) : null}
            <VersionList
              history={history.data}
              liveChanged={note.data?.changed ?? false}
              from={sides?.from ?? null}
              to={sides?.to ?? null}
              onPick={(side, version) => choose(side === 'from' ? { from: version === 'live' ? null : version } : { to: version })}
              onRestore={canRestore ? setRestoring : undefined}
            />
          </aside>
          <section className="card history-compare" aria-labelledby="history-compare-title" data-testid="history-compare">
            {restored ? (
              <InlineAlert tone="success" testId="history-restored-notice">
                {t('restore.done', restored)}
              </InlineAlert>
            ) : null}
            {compared.phase === 'error' ? (
              <ErrorState message={apiErrorText(compared.error, language)} onRetry={compared.reload} testId="history-compare-error" />
            ) : compared.data ? (
              <>
                <CompareHead answer={compared.data} />
                {sides && sides.from === sides.to ? <p className="history-line">{t('compare.sameVersion')}</p> : null}
                <Comparison
                  changes={compared.data.changes}
                  summary={compared.data.summary}
                  view={params.view}
                  onView={(view) => choose({ view })}
                  onlyChanges={params.onlyChanges}
                  onOnlyChanges={(onlyChanges) => choose({ onlyChanges })}
                  peopleOf={(change) => {
                    const people = compared.data?.changedBy[change.blockUid];
                    return people?.length ? t('diff.changedBy', { names: people.map((p) => p.name).join(', ') }) : undefined;
                  }}
                  authors={{
                    shown: params.authors,
                    onShown: (authors) => choose({ authors }),
                    of: authorsOf,
                    note: sides?.to === 'live' ? t('diff.authorsLive') : undefined,
                  }}
                  keysOnPage
                />
              </>
            ) : (
              <SkeletonBlock lines={8} />
            )}
          </section>
        </div>
      )}
      {restoring !== null ? (
        <RestoreDialog
          labNoteNo={labNoteNo}
          version={restoring}
          next={newest + 1}
          onClose={() => setRestoring(null)}
          onRestored={(entry) => {
            // The new version, against the one that was newest before it: what the restore changed.
            setRestoring(null);
            setRestored({ from: restoring, version: entry.version });
            choose({ from: newest, to: entry.version });
          }}
        />
      ) : null}
    </PageFrame>
  );
}
