import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { PAGING, PROJECT_SEARCH_TYPES, rowNumber, type ListAnswer, type ProjectRow } from '@eln/shared';
import { apiErrorText, call } from '../../api';
import { currentLanguage } from '../../i18n';
import { formatDate, formatNumber } from '../../lib/format';
import { isFiltered, listSearchParams, pageCount, parseListQuery, toCount, toPagingBody, type ListQuery } from '../../lib/listParams';
import { useLoad } from '../../lib/useLoad';
import { isAdmin } from '../../session/model';
import { useSession } from '../../session/store';
import { ButtonLink } from '../../ui/Button';
import { FolderIcon, PlusIcon, SearchIcon, UsersIcon } from '../../ui/icons';
import { EmptyState, NoMatchesState, PageFrame } from '../../ui/PageFrame';
import { Pagination } from '../../ui/Pagination';
import { SearchBar } from '../../ui/SearchBar';
import { TotalText } from '../../ui/TotalText';
import { ErrorState, SkeletonRows } from '../../ui/States';
import { StatusBadge } from './StatusBadge';

type SearchType = (typeof PROJECT_SEARCH_TYPES)[number];
const DEFAULT_TYPE: SearchType = 'title';
const PAGE_SIZE = PAGING.defaultPageSize;
const SKELETON_COLUMNS = [30, 90, 70, 70, 40, 60, 70];

/**
 * `/project`: the projects the user leads or takes part in (an administrator sees all), searched by title
 * or leader within a date range. The search lives in the URL (t, sd, ed, w, p).
 */
export function ProjectListPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const navigate = useNavigate();
  const session = useSession();
  const canCreate = session?.auth.project === 'Y';
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => parseListQuery(params, PROJECT_SEARCH_TYPES, DEFAULT_TYPE), [params]);
  const key = listSearchParams(query, DEFAULT_TYPE).toString();
  const list = useLoad((signal) => call<ListAnswer<ProjectRow>>('/v1/project/list', toPagingBody(query, PAGE_SIZE), { signal }), key);

  const searchFor = (next: ListQuery<SearchType>) => {
    const search = listSearchParams(next, DEFAULT_TYPE).toString();
    return search ? `?${search}` : '';
  };
  const onSearch = (next: ListQuery<SearchType>) => {
    const search = listSearchParams(next, DEFAULT_TYPE);
    // Searching again for the same thing still asks the server again.
    if (search.toString() === key) list.reload();
    else setParams(search);
  };

  const totalCount = toCount(list.data?.totalCount);
  const rows = list.data?.list ?? [];
  const loading = list.phase === 'loading';
  const filtered = isFiltered(query);
  const types = [
    { value: 'title' as const, label: t('project.searchTypes.title') },
    { value: 'leader' as const, label: t('project.searchTypes.leader') },
  ];

  const createButton = (testId: string) =>
    canCreate ? (
      <ButtonLink to="/project/create" variant="primary" icon={<PlusIcon size={16} />} data-testid={testId}>
        {t('project.create')}
      </ButtonLink>
    ) : null;

  const renderBody = () => {
    if (list.phase === 'error' && !list.data) {
      return <ErrorState message={apiErrorText(list.error, language)} onRetry={list.reload} testId="project-list-error" />;
    }
    if (!loading && rows.length === 0) {
      if (totalCount > 0 && query.page > 1) {
        return (
          <EmptyState icon={<SearchIcon size={26} />} title={t('list.pageEmpty')}>
            <p>{t('list.pageEmptyHint', { n: pageCount(totalCount, PAGE_SIZE) })}</p>
            <ButtonLink to={{ search: searchFor({ ...query, page: 1 }) }} variant="secondary" className="empty-state-action">
              {t('list.firstPage')}
            </ButtonLink>
          </EmptyState>
        );
      }
      if (filtered) {
        return <NoMatchesState clearTestId="project-clear-search" />;
      }
      return (
        <div data-testid="project-empty">
          <EmptyState icon={<FolderIcon size={26} />} title={t('project.emptyTitle')}>
            <p>{canCreate ? t('project.emptyBodyCanCreate') : t('project.emptyBody')}</p>
            {canCreate ? <div className="empty-state-action">{createButton('project-empty-create')}</div> : null}
          </EmptyState>
        </div>
      );
    }
    return (
      <div className="table-scroll">
        <table className="data-table" data-testid="project-table" aria-busy={loading}>
          <thead>
            <tr>
              <th scope="col" className="col-num">
                {t('list.number')}
              </th>
              <th scope="col">{t('project.columns.title')}</th>
              <th scope="col">{t('project.columns.leader')}</th>
              <th scope="col">{t('project.columns.department')}</th>
              <th scope="col" className="col-center">
                {t('project.columns.participants')}
              </th>
              <th scope="col">{t('project.columns.status')}</th>
              <th scope="col">{t('project.columns.created')}</th>
            </tr>
          </thead>
          <tbody className={loading && list.data ? 'is-stale' : undefined}>
            {loading && !list.data ? (
              <SkeletonRows rows={5} columns={SKELETON_COLUMNS} />
            ) : (
              rows.map((row, index) => (
                <tr
                  key={row.no}
                  className="row-link"
                  data-testid="project-row"
                  data-project-no={row.no}
                  onClick={(event) => {
                    if (!(event.target instanceof HTMLElement) || !event.target.closest('a')) navigate(`/project/${row.no}`);
                  }}
                >
                  <td className="col-num" data-label={t('list.number')}>
                    {rowNumber(totalCount, query.page, PAGE_SIZE, index)}
                  </td>
                  <td className="col-title" data-label={t('project.columns.title')}>
                    <Link to={`/project/${row.no}`} className="cell-link" data-testid="project-title-link">
                      {row.title}
                    </Link>
                    {row.description ? <span className="cell-sub">{row.description}</span> : null}
                  </td>
                  <td data-label={t('project.columns.leader')}>
                    <span className="cell-main">{row.leaderName}</span>
                    <span className="cell-sub">{row.userId}</span>
                  </td>
                  <td data-label={t('project.columns.department')}>{row.department ?? <span className="cell-muted">—</span>}</td>
                  <td className="col-center" data-label={t('project.columns.participants')}>
                    <span className="count-pill" title={t('project.participantCount', { count: row.participantCount })}>
                      <UsersIcon size={14} />
                      {formatNumber(row.participantCount, language)}
                    </span>
                  </td>
                  <td data-label={t('project.columns.status')}>
                    <StatusBadge status={row.status} />
                  </td>
                  <td className="col-date" data-label={t('project.columns.created')}>
                    {formatDate(row.createdAt, language)}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    );
  };

  return (
    <PageFrame
      testId="page-project"
      title={t('pages.project.title')}
      description={isAdmin(session?.user) ? t('project.adminDescription') : t('pages.project.description')}
      icon={<FolderIcon size={20} />}
      actions={createButton('project-create-button')}
    >
      <SearchBar
        query={query}
        types={types}
        withDates
        onSearch={onSearch}
        onReset={() => setParams(new URLSearchParams())}
        filtered={filtered}
        testId="project"
      />
      <div className="card table-card">
        <div className="table-toolbar">
          <p className="table-total" data-testid="project-total" data-count={list.data ? totalCount : undefined}>
            {list.data ? (
              <TotalText i18nKey="list.total" n={totalCount} />
            ) : (
              <span className="skeleton skeleton-text" style={{ width: 80 }} aria-hidden="true" />
            )}
          </p>
          {loading && list.data ? <span className="spinner spinner-muted" aria-label={t('common.loading')} /> : null}
        </div>
        {list.phase === 'error' && list.data ? (
          <ErrorState message={apiErrorText(list.error, language)} onRetry={list.reload} testId="project-list-error" />
        ) : null}
        {renderBody()}
        {rows.length > 0 && pageCount(totalCount, PAGE_SIZE) > 1 ? (
          <div className="table-footer">
            <Pagination page={query.page} pageSize={PAGE_SIZE} totalCount={totalCount} searchFor={(page) => searchFor({ ...query, page })} testId="project-pagination" />
          </div>
        ) : null}
      </div>
    </PageFrame>
  );
}
