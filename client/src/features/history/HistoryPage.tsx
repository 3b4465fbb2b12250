import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { api, type NoteCompareAnswer } from '@eln/shared';
import { apiErrorText } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { ButtonLink } from '../../ui/Button';
import { ArrowLeftIcon } from '../../ui/icons';
import { EmptyState, PageFrame } from '../../ui/PageFrame';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { Comparison } from '../diff/Comparison';
import { NoteIcon } from '../editor/icons';
import { parseNoteNo } from '../notes/tabs';
import { chosenSides, historySearch, readHistoryParams, type ComparedVersion, type HistoryParams } from './historyParams';
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
            />
          </aside>
          <section className="card history-compare" aria-labelledby="history-compare-title" data-testid="history-compare">
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
                  keysOnPage
                />
              </>
            ) : (
              <SkeletonBlock lines={8} />
            )}
          </section>
        </div>
      )}
    </PageFrame>
  );
}
