import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { api, PAGING, PROJECT_LIST_STATUSES, PROJECT_SEARCH_TYPES, type ProjectListStatus, type ProjectRow } from '@eln/shared';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { formatDate, formatNumber } from '../../lib/format';
import { isFiltered, listSearchParams, parseListQuery, toPagingBody, type ListQuery } from '../../lib/listParams';
import { may } from '../../session/model';
import { useSession } from '../../session/store';
import { ButtonLink } from '../../ui/Button';
import { FolderIcon, PlusIcon, UsersIcon } from '../../ui/icons';
import { ListTable, openRowUnlessOn, type ListColumn } from '../../ui/ListTable';
import { EmptyState, NoMatchesState, PageFrame } from '../../ui/PageFrame';
import { SearchBar } from '../../ui/SearchBar';
import { readFilterParam, SegmentedFilter } from '../../ui/SegmentedFilter';
import { StatusBadge } from './StatusBadge';

type SearchType = (typeof PROJECT_SEARCH_TYPES)[number];
const DEFAULT_TYPE: SearchType = 'title';
const PAGE_SIZE = PAGING.defaultPageSize;
/** The status filter's URL parameter (beside the lists' t, sd, ed, w, p); the dashboard's cards link to it. */
const STATUS_PARAM = 'st';
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
  const canCreate = may(session, 'createProject');
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => parseListQuery(params, PROJECT_SEARCH_TYPES, DEFAULT_TYPE), [params]);
  const status: ProjectListStatus | '' = readFilterParam(params, STATUS_PARAM, PROJECT_LIST_STATUSES);
  const paramsFor = (next: ListQuery<SearchType>, nextStatus: ProjectListStatus | '' = status) => {
    const search = listSearchParams(next, DEFAULT_TYPE);
    if (nextStatus) search.set(STATUS_PARAM, nextStatus);
    return search;
  };
  const key = paramsFor(query).toString();
  const list = useApiQuery(api.projects.list, { ...toPagingBody(query, PAGE_SIZE), ...(status ? { status } : {}) });

  const searchFor = (next: ListQuery<SearchType>) => {
    const search = paramsFor(next).toString();
    return search ? `?${search}` : '';
  };
  const onSearch = (next: ListQuery<SearchType>) => {
    const search = paramsFor(next);
    // Searching again for the same thing still asks the server again.
    if (search.toString() === key) list.reload();
    else setParams(search);
  };

  const loading = list.phase === 'loading';
  const filtered = isFiltered(query) || status !== '';
  const types = [
    { value: 'title' as const, label: t('project.searchTypes.title') },
    { value: 'leader' as const, label: t('project.searchTypes.leader') },
  ];
  const columns: ListColumn[] = [
    { label: t('list.number'), className: 'col-num' },
    { label: t('project.columns.title') },
    { label: t('project.columns.leader') },
    { label: t('project.columns.department') },
    { label: t('project.columns.participants'), className: 'col-center' },
    { label: t('project.columns.status') },
    { label: t('project.columns.created') },
  ];

  const createButton = (testId: string) =>
    canCreate ? (
      <ButtonLink to="/project/create" variant="primary" icon={<PlusIcon size={16} />} data-testid={testId}>
        {t('project.create')}
      </ButtonLink>
    ) : null;

  const empty = filtered ? (
    <NoMatchesState clearTestId="project-clear-search" />
  ) : (
    <div data-testid="project-empty">
      <EmptyState icon={<FolderIcon size={26} />} title={t('project.emptyTitle')}>
        <p>{canCreate ? t('project.emptyBodyCanCreate') : t('project.emptyBody')}</p>
        {canCreate ? <div className="empty-state-action">{createButton('project-empty-create')}</div> : null}
      </EmptyState>
    </div>
  );

  const renderRow = (row: ProjectRow, number: number) => (
    <tr
      key={row.no}
      className="row-link"
      data-testid="project-row"
      data-project-no={row.no}
      onClick={openRowUnlessOn('a', () => void navigate(`/project/${row.no}`))}
    >
      <td className="col-num" data-label={t('list.number')}>
        {number}
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
  );

  return (
    <PageFrame
      testId="page-project"
      title={t('pages.project.title')}
      description={may(session, 'administer') ? t('project.adminDescription') : t('pages.project.description')}
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
      <SegmentedFilter
        options={(['', ...PROJECT_LIST_STATUSES] as const).map((value) => ({ value, label: t(`project.statusFilter.${value || 'all'}`) }))}
        value={status}
        onChange={(value) => setParams(paramsFor({ ...query, page: PAGING.startPage }, value))}
        label={t('project.columns.status')}
        testId="project-status-filter"
      />
      <ListTable
        list={list}
        page={query.page}
        pageSize={PAGE_SIZE}
        searchFor={(page) => searchFor({ ...query, page })}
        testId="project"
        tableClassName="data-table"
        columns={columns}
        skeleton={{ rows: 5, widths: SKELETON_COLUMNS }}
        toolbar={loading && list.data ? <span className="spinner spinner-muted" aria-label={t('common.loading')} /> : null}
        empty={empty}
        renderRow={renderRow}
      />
    </PageFrame>
  );
}
