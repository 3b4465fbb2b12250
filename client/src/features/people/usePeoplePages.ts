import { useCallback, useRef, useState } from 'react';
import type { DepartmentSearchCursor } from '@eln/shared';
import type { PickedUser } from './selection';
import { searchPeople, type PeopleScope } from './directory';

export interface PagedPeople {
  users: PickedUser[];
  next: DepartmentSearchCursor | null;
  phase: 'loading' | 'ready' | 'error';
  error?: unknown;
}

/**
 * People loaded a page at a time per key (a department, the people of none, or a search word): `more`
 * asks for the first page, then each next one, never two at once for the same key.
 */
export function usePeoplePages() {
  const [pages, setPages] = useState<ReadonlyMap<string, PagedPeople>>(new Map());
  const current = useRef(pages);
  current.current = pages;

  const update = (key: string, change: (before: PagedPeople | undefined) => PagedPeople) =>
    setPages((before) => {
      const next = new Map(before);
      next.set(key, change(before.get(key)));
      current.current = next;
      return next;
    });

  const more = useCallback((key: string, scope: PeopleScope, word = '') => {
    const before = current.current.get(key);
    if (before && (before.phase === 'loading' || (before.phase === 'ready' && before.next === null))) return;
    const after = before?.next ?? null;
    update(key, (page) => ({ users: page?.users ?? [], next: page?.next ?? null, phase: 'loading' }));
    searchPeople(word, scope, after).then(
      (page) => update(key, (had) => ({ users: [...(had?.users ?? []), ...page.users], next: page.next, phase: 'ready' })),
      (error: unknown) => update(key, (had) => ({ users: had?.users ?? [], next: had?.next ?? null, phase: 'error', error })),
    );
  }, []);

  return { pages, more };
}
