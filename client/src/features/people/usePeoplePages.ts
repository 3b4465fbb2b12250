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
 * asks for the first page, then each next one, never two at once for the same key. The pages live in a
 * ref changed at once (a button press and the list's end coming into view can ask in the same moment, and
 * both must see the first ask) and are copied into state to render.
 */
export function usePeoplePages() {
  const known = useRef(new Map<string, PagedPeople>());
  const [pages, setPages] = useState<ReadonlyMap<string, PagedPeople>>(new Map());

  const put = (key: string, page: PagedPeople) => {
    known.current.set(key, page);
    setPages(new Map(known.current));
  };

  const more = useCallback((key: string, scope: PeopleScope, word = '') => {
    const before = known.current.get(key);
    if (before && (before.phase === 'loading' || (before.phase === 'ready' && before.next === null))) return;
    const users = before?.users ?? [];
    const after = before?.next ?? null;
    put(key, { users, next: after, phase: 'loading' });
    searchPeople(word, scope, after).then(
      (page) => put(key, { users: [...users, ...page.users], next: page.next, phase: 'ready' }),
      (error: unknown) => put(key, { users, next: after, phase: 'error', error }),
    );
  }, []);

  return { pages, more };
}
