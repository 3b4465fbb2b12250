import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { api, LIMITS, NOTE_STATUS, PAGING, SEARCH_KINDS, searchRequest, type NoteStatus } from '@eln/shared';
import { apiErrorText } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { fieldText, validateForm } from '../../lib/forms';
import { useSearchDraft } from '../../lib/useSearchDraft';
import { Button } from '../../ui/Button';
import { DateRangeField } from '../../ui/DateRangeField';
import { SearchIcon } from '../../ui/icons';
import { EmptyState, PageFrame } from '../../ui/PageFrame';
import { Pagination } from '../../ui/Pagination';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { TotalText } from '../../ui/TotalText';
import { EMPTY_SEARCH, hitHref, parseSearchQuery, searchBody, searchParamsOf, type SearchQuery } from './searchParams';
import { SearchHitView } from './SearchHitView';
import './search.css';

const PAGE_SIZE = PAGING.defaultPageSize * 2;
/** The projects the filter offers: the first page of the caller's own list (an address may name any other). */
const PROJECT_CHOICES = PAGING.maxPageSize;
const STATUSES = Object.values(NOTE_STATUS) as NoteStatus[];

/**
 * `/search`: every kind of hit, ranked, with filters (kinds, project, writer, note status, dates) and paging,
 * all in the URL (w, k, pj, wr, st, sd, ed, p) like the other lists.
 */
export function SearchPage() {
  const { t } = useTranslation();
  const { t: te } = useTranslation('editor');
  const language = currentLanguage();
  const id = useId();
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => parseSearchQuery(params), [params]);
  const key = searchParamsOf(query).toString();
  const body = searchBody(query, PAGE_SIZE);
  const results = useApiQuery(api.search.search, body ?? { q: '', page: 1, pageSize: PAGE_SIZE }, { enabled: body !== null });
  const projects = useApiQuery(api.projects.list, { page: 1, pageSize: PROJECT_CHOICES });

  const { draft, setDraft, errors, submit } = useSearchDraft<SearchQuery>({
    searched: query,
    searchKey: JSON.stringify({ ...query, page: 0 }),
    check: (next) => {
      const checked = searchBody(next, PAGE_SIZE);
      return checked ? validateForm(searchRequest, checked) : { ok: true, data: null };
    },
    onSearch: (next) => {
      const search = searchParamsOf({ ...next, page: PAGING.startPage });
      // Searching again for the same thing still asks the server again.
      if (search.toString() === key) results.reload();
      else setParams(search);
    },
  });

  const wordsError = fieldText(errors, 'q', language) ?? fieldText(errors, 'writer', language);
  const dateError = fieldText(errors, 'endDate', language) ?? fieldText(errors, 'startDate', language);
  const projectRows = projects.data?.list ?? [];
  const toggleKind = (kind: (typeof SEARCH_KINDS)[number]) =>
    setDraft({ ...draft, kinds: draft.kinds.includes(kind) ? draft.kinds.filter((k) => k !== kind) : [...draft.kinds, kind] });

  const total = results.data?.totalCount ?? 0;
  const list = body ? (results.data?.list ?? []) : [];

  let content;
  if (!body) {
    content = (
      <div className="card" data-testid="search-page-idle">
        <EmptyState icon={<SearchIcon size={26} />} title={t('search.emptyTitle')}>
          <p>{t('search.emptyBody')}</p>
        </EmptyState>
      </div>
    );
  } else if (results.phase === 'error') {
    content = <ErrorState message={apiErrorText(results.error, language)} onRetry={results.reload} testId="search-page-error" />;
  } else if (!results.data) {
    content = (
      <div className="card">
        <SkeletonBlock lines={5} />
      </div>
    );
  } else if (list.length === 0) {
    content = (
      <div className="card" data-testid="search-page-empty">
        <EmptyState icon={<SearchIcon size={26} />} title={t('search.noMatches', { q: query.q })}>
          <p>{t('search.noMatchesHint')}</p>
        </EmptyState>
      </div>
    );
  } else {
    content = (
      <>
        <p className="search-summary" data-testid="search-page-total" aria-live="polite">
          <span>
            <TotalText i18nKey={results.data.more ? 'search.totalMore' : 'list.total'} n={total} />
          </span>
          {results.phase === 'loading' ? <span className="spinner spinner-muted" aria-label={t('common.loading')} /> : null}
        </p>
        <ol className="search-results" aria-busy={results.phase === 'loading'} data-testid="search-results">
          {list.map((hit, index) => (
            <li key={`${hit.kind}-${hit.no}-${hit.uid ?? ''}-${index}`}>
              <Link to={hitHref(hit)} className="search-result" data-testid="search-result" data-kind={hit.kind}>
                <span className="search-result-kind">
                  {t(`search.kinds.${hit.kind}`)}
                  {hit.status ? ` · ${te(`notes.status.${hit.status}`)}` : ''}
                  {hit.uid === null && hit.kind === 'note' ? ` · ${t('search.inTitle')}` : ''}
                </span>
                <SearchHitView hit={hit} />
              </Link>
            </li>
          ))}
        </ol>
        <Pagination
          page={query.page}
          pageSize={PAGE_SIZE}
          totalCount={total}
          searchFor={(page) => `?${searchParamsOf({ ...query, page }).toString()}`}
          testId="search-pagination"
        />
      </>
    );
  }

  return (
    <PageFrame
      testId="page-search"
      title={t('search.page.title')}
      description={t('search.page.description')}
      icon={<SearchIcon size={20} />}
    >
      <form className="search-bar card search-form" role="search" onSubmit={submit} noValidate data-testid="search-page-form">
        <div className={wordsError ? 'search-field search-word search-words field-invalid' : 'search-field search-word search-words'}>
          <label className="search-label" htmlFor={`${id}-words`}>
            {t('search.words')}
          </label>
          <div className="field-control">
            <span className="search-word-icon" aria-hidden="true">
              <SearchIcon size={16} />
            </span>
            <input
              id={`${id}-words`}
              type="search"
              className="input"
              value={draft.q}
              maxLength={LIMITS.searchQuery}
              placeholder={t('search.wordsPlaceholder')}
              aria-describedby={`${id}-syntax`}
              onChange={(event) => setDraft({ ...draft, q: event.target.value })}
              data-testid="search-page-words"
            />
          </div>
          {wordsError ? <p className="field-error">{wordsError}</p> : null}
          <p className="search-syntax" id={`${id}-syntax`}>
            {t('search.syntax')}
          </p>
        </div>
        <fieldset className="search-field search-kinds-field" data-testid="search-page-kinds">
          <legend className="search-label">{t('search.kindsLabel')}</legend>
          <div className="segmented search-kinds">
            <button
              type="button"
              className="segmented-item"
              aria-pressed={draft.kinds.length === 0}
              onClick={() => setDraft({ ...draft, kinds: [] })}
              data-value=""
            >
              {t('search.allKinds')}
            </button>
            {SEARCH_KINDS.map((kind) => (
              <button
                key={kind}
                type="button"
                className="segmented-item"
                aria-pressed={draft.kinds.includes(kind)}
                onClick={() => toggleKind(kind)}
                data-value={kind}
              >
                {t(`search.kinds.${kind}`)}
              </button>
            ))}
          </div>
        </fieldset>
        <div className="search-field search-filter">
          <label className="search-label" htmlFor={`${id}-project`}>
            {t('search.project')}
          </label>
          <div className="select-wrap">
            <select
              id={`${id}-project`}
              className="input select"
              value={draft.projectNo ?? ''}
              onChange={(event) => setDraft({ ...draft, projectNo: event.target.value ? Number(event.target.value) : null })}
              data-testid="search-page-project"
            >
              <option value="">{t('search.anyProject')}</option>
              {draft.projectNo !== null && !projectRows.some((row) => row.no === draft.projectNo) ? (
                <option value={draft.projectNo}>{t('search.projectNo', { no: draft.projectNo })}</option>
              ) : null}
              {projectRows.map((row) => (
                <option key={row.no} value={row.no}>
                  {row.title}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="search-field search-filter">
          <label className="search-label" htmlFor={`${id}-writer`}>
            {t('search.writer')}
          </label>
          <input
            id={`${id}-writer`}
            className="input"
            value={draft.writer}
            maxLength={LIMITS.email}
            onChange={(event) => setDraft({ ...draft, writer: event.target.value })}
            data-testid="search-page-writer"
          />
        </div>
        <div className="search-field search-filter">
          <label className="search-label" htmlFor={`${id}-status`}>
            {t('search.status')}
          </label>
          <div className="select-wrap">
            <select
              id={`${id}-status`}
              className="input select"
              value={draft.status}
              onChange={(event) => setDraft({ ...draft, status: event.target.value as NoteStatus | '' })}
              data-testid="search-page-status"
            >
              <option value="">{t('search.anyStatus')}</option>
              {STATUSES.map((status) => (
                <option key={status} value={status}>
                  {te(`notes.status.${status}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <DateRangeField
          startDate={draft.startDate}
          endDate={draft.endDate}
          onChange={(patch) => setDraft({ ...draft, ...patch })}
          error={dateError}
          labels={{ legend: t('search.dates'), start: t('list.startDate'), end: t('list.endDate') }}
          testId="search-page"
        />
        <div className="search-actions">
          <Button type="submit" variant="primary" icon={<SearchIcon size={16} />} data-testid="search-page-submit">
            {t('list.search')}
          </Button>
          {key ? (
            <Button variant="ghost" onClick={() => setParams(searchParamsOf(EMPTY_SEARCH))} data-testid="search-page-reset">
              {t('list.reset')}
            </Button>
          ) : null}
        </div>
      </form>
      {content}
    </PageFrame>
  );
}
