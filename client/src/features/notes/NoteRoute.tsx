import { lazy, Suspense } from 'react';
import { SkeletonBlock } from '../../ui/States';

/** The note screen and its editor load on demand: the first route's bundle carries none of it. */
const NoteWorkspace = lazy(() => import('./NoteWorkspace'));

function NoteLoading() {
  return (
    <section className="page" aria-busy="true" data-testid="note-workspace-loading">
      <div className="card">
        <SkeletonBlock lines={6} />
      </div>
    </section>
  );
}

/** `/note/:id` and `/editor/:id`. */
export function NoteRoute() {
  return (
    <Suspense fallback={<NoteLoading />}>
      <NoteWorkspace />
    </Suspense>
  );
}
