import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { pagingRequest } from '@eln/shared';
import { currentLanguage } from '../i18n';
import { fieldText, validateForm } from '../lib/forms';
import { MAX_WORD_LENGTH, newSearch, type ListQuery } from '../lib/listParams';
import { useSearchDraft } from '../lib/useSearchDraft';
import { Button } from './Button';
import { DateRangeField } from './DateRangeField';
import { SearchIcon } from './icons';

interface SearchBarProps<T extends string> {
  /** The search in the URL; the bar shows it and follows back/forward. */
  query: ListQuery<T>;
  types: ReadonlyArray<{ value: T; label: string }>;
  withDates?: boolean;
  onSearch(query: ListQuery<T>): void;
  /** Shown when something is searched: clears the search. */
  onReset?: () => void;
  filtered?: boolean;
  /** Prefix of the test ids: `<prefix>-search-type`, `-start`, `-end`, `-word`, `-submit`, `-reset`. */
  testId: string;
}

/** A list's search bar: type selector, optional date range, word, Search. A search starts at page 1. */
export function SearchBar<T extends string>({ query, types, withDates = false, onSearch, onReset, filtered, testId }: SearchBarProps<T>) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const id = useId();
  const { draft, setDraft, errors, submit } = useSearchDraft({
    searched: query,
    // The page is left out: paging keeps what is typed but not yet searched.
    searchKey: JSON.stringify([query.type, query.startDate, query.endDate, query.word]),
    check: (next) =>
      validateForm(pagingRequest, { value: next.word, ...(withDates ? { startDate: next.startDate, endDate: next.endDate } : {}) }),
    onSearch: (next) => onSearch(newSearch(next)),
  });

  const dateError = fieldText(errors, 'endDate', language) ?? fieldText(errors, 'startDate', language);

  return (
    <form className="search-bar card" role="search" onSubmit={submit} noValidate data-testid={`${testId}-search`}>
      <div className="search-field search-type">
        <label className="search-label" htmlFor={`${id}-type`}>
          {t('list.searchType')}
        </label>
        <div className="select-wrap">
          <select
            id={`${id}-type`}
            className="input select"
            value={draft.type}
            onChange={(event) => setDraft({ ...draft, type: event.target.value as T })}
            data-testid={`${testId}-search-type`}
          >
            {types.map((type) => (
              <option key={type.value} value={type.value}>
                {type.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {withDates ? (
        <DateRangeField
          startDate={draft.startDate}
          endDate={draft.endDate}
          onChange={(patch) => setDraft({ ...draft, ...patch })}
          error={dateError}
          labels={{ legend: t('list.dateRange'), start: t('list.startDate'), end: t('list.endDate') }}
          testId={`${testId}-search`}
        />
      ) : null}
      <div className={errors.value ? 'search-field search-word field-invalid' : 'search-field search-word'}>
        <label className="search-label" htmlFor={`${id}-word`}>
          {t('list.word')}
        </label>
        <div className="field-control">
          <span className="search-word-icon" aria-hidden="true">
            <SearchIcon size={16} />
          </span>
          <input
            id={`${id}-word`}
            type="search"
            className="input"
            value={draft.word}
            maxLength={MAX_WORD_LENGTH}
            placeholder={t('list.wordPlaceholder')}
            onChange={(event) => setDraft({ ...draft, word: event.target.value })}
            data-testid={`${testId}-search-word`}
          />
        </div>
        {errors.value ? <p className="field-error">{fieldText(errors, 'value', language)}</p> : null}
      </div>
      <div className="search-actions">
        <Button type="submit" variant="primary" icon={<SearchIcon size={16} />} data-testid={`${testId}-search-submit`}>
          {t('list.search')}
        </Button>
        {filtered && onReset ? (
          <Button variant="ghost" onClick={onReset} data-testid={`${testId}-search-reset`}>
            {t('list.reset')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
