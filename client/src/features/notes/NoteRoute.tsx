import { lazy, Suspense } from 'react';
import { useMatch } from 'react-router-dom';
import { SkeletonBlock } from '../../ui/States';

/** The note screen and its editor load on demand: the first route's bundle carries none of it. */
const NoteWorkspace = lazy(() => import('./NoteWorkspace'));
const HistoryPage = lazy(() => import('../history/HistoryPage'));

function NoteLoading() {
  return (
    <section className="page" aria-busy="true" data-testid="note-workspace-loading">
      <div className="card">
        <SkeletonBlock lines={6} />
      </div>
    </section>
  );
}

/** `/note/:id` and `/editor/:id`; `/note/:id/history`, the note's versions compared. */
export function NoteRoute() {
  const history = useMatch('/note/:id/history');
  return <Suspense fallback={<NoteLoading />}>{history ? <HistoryPage /> : <NoteWorkspace />}</Suspense>;
}
