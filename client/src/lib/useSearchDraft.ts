import { useEffect, useState, type FormEvent } from 'react';
import type { Checked, FieldErrorMap } from './forms';

interface SearchDraftOptions<T> {
  /** The search in the URL. */
  searched: T;
  /** Changes exactly when the URL's search does (back, forward, a link), which then replaces the draft. */
  searchKey: string;
  /** Checks the draft with the shared schema the server uses, so that a bad search never leaves the form. */
  check(draft: T): Checked<unknown>;
  onSearch(draft: T): void;
}

/** What a search form shows and edits until it searches: the URL's search, changed by the user. */
export function useSearchDraft<T>({ searched, searchKey, check, onSearch }: SearchDraftOptions<T>) {
  const [draft, setDraft] = useState(searched);
  const [errors, setErrors] = useState<FieldErrorMap>({});

  useEffect(() => {
    setDraft(searched);
    setErrors({});
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new search in the URL replaces the draft; a new `searched` object with the same key must not
  }, [searchKey]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = check(draft);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    onSearch(draft);
  };

  return { draft, setDraft, errors, submit };
}
