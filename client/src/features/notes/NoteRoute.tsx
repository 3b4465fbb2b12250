import { lazy, Suspense } from 'react';
import { Navigate, useParams } from 'react-router-dom';
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

/** `/note/:id` and `/editor/:id`; `/note/:id/history`, the note's versions compared; any other path under a note is not found. */
export function NoteRoute() {
  const rest = useParams()['*'] ?? '';
  if (rest !== '' && rest !== 'history') return <Navigate to="/notFound" replace />;
  return <Suspense fallback={<NoteLoading />}>{rest === 'history' ? <HistoryPage /> : <NoteWorkspace />}</Suspense>;
}
