import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { ADMIN_LEVEL, PAGING, rowNumber, USER_SEARCH_TYPES, type AdminUserRow, type ListAnswer } from '@eln/shared';
import { apiErrorText, call } from '../../api';
import { currentLanguage } from '../../i18n';
import { formatDate, initials } from '../../lib/format';
import { isFiltered, listSearchParams, pageCount, parseListQuery, toCount, toPagingBody, type ListQuery } from '../../lib/listParams';
import { useLoad } from '../../lib/useLoad';
import { Badge } from '../../ui/Badge';
import { Button, ButtonLink } from '../../ui/Button';
import { SearchIcon, UserPlusIcon, UsersIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { EmptyState, NoMatchesState, PageFrame } from '../../ui/PageFrame';
import { Pagination } from '../../ui/Pagination';
import { SearchBar } from '../../ui/SearchBar';
import { TotalText } from '../../ui/TotalText';
import { ErrorState, SkeletonRows } from '../../ui/States';
import { FlagBadges } from './FlagBadges';
import { UserCreateDialog } from './UserCreateDialog';

type SearchType = (typeof USER_SEARCH_TYPES)[number];
const DEFAULT_TYPE: SearchType = 'name';
const PAGE_SIZE = PAGING.defaultPageSize;
const SKELETON_COLUMNS = [30, 80, 90, 60, 70, 80, 40, 70, 50, 70];

/** Where the edit page's "back" returns: the list with the search it was opened from. */
export interface UserListReturn {
  listSearch?: string;
}

/**
 * `/admin`: every user account, searched by name, ID, employee number or department, paged in the URL
 * (t, w, p). A row opens `/admin/{userNo}`; "New user" opens the create dialog.
 */
export function UserListPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => parseListQuery(params, USER_SEARCH_TYPES, DEFAULT_TYPE), [params]);
  const key = listSearchParams(query, DEFAULT_TYPE).toString();
  const list = useLoad((signal) => call<ListAnswer<AdminUserRow>>('/v1/admin/user/list', toPagingBody(query, PAGE_SIZE, false), { signal }), key);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ userNo: number; name: string } | null>(null);

  const searchFor = (next: ListQuery<SearchType>) => {
    const search = listSearchParams(next, DEFAULT_TYPE).toString();
    return search ? `?${search}` : '';
  };
  const onSearch = (next: ListQuery<SearchType>) => {
    const search = listSearchParams({ ...next, startDate: '', endDate: '' }, DEFAULT_TYPE);
    if (search.toString() === key) list.reload();
    else setParams(search);
  };
  const open = (userNo: number) => navigate(`/admin/${userNo}`, { state: { listSearch: location.search } satisfies UserListReturn });

  const totalCount = toCount(list.data?.totalCount);
  const rows = list.data?.list ?? [];
  const loading = list.phase === 'loading';
  const filtered = isFiltered(query);
  const types = USER_SEARCH_TYPES.map((value) => ({ value, label: t(`admin.users.searchTypes.${value}`) }));

  const renderBody = () => {
    if (list.phase === 'error' && !list.data) {
      return <ErrorState message={apiErrorText(list.error, language)} onRetry={list.reload} testId="user-list-error" />;
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
      return (
        filtered ? (
          <NoMatchesState />
        ) : (
          <EmptyState icon={<SearchIcon size={26} />} title={t('admin.users.emptyTitle')}>
            <p>{t('admin.users.emptyBody')}</p>
          </EmptyState>
        )
      );
    }
    return (
      <div className="table-scroll">
        <table className="data-table data-table-compact" data-testid="user-table" aria-busy={loading}>
          <thead>
            <tr>
              <th scope="col" className="col-num">
                {t('list.number')}
              </th>
              <th scope="col">{t('admin.users.columns.name')}</th>
              <th scope="col">{t('admin.users.columns.userId')}</th>
              <th scope="col">{t('admin.users.columns.employeeNo')}</th>
              <th scope="col">{t('admin.users.columns.department')}</th>
              <th scope="col">{t('admin.users.columns.phone')}</th>
              <th scope="col" className="col-center">
                {t('admin.users.columns.level')}
              </th>
              <th scope="col">{t('admin.users.columns.flags')}</th>
              <th scope="col">{t('admin.users.columns.active')}</th>
              <th scope="col">{t('admin.users.columns.createdAt')}</th>
            </tr>
          </thead>
          <tbody className={loading && list.data ? 'is-stale' : undefined}>
            {loading && !list.data ? (
              <SkeletonRows rows={5} columns={SKELETON_COLUMNS} />
            ) : (
              rows.map((row, index) => (
                <tr
                  key={row.userNo}
                  className={row.active ? 'row-link' : 'row-link row-inactive'}
                  data-testid="user-row"
                  data-user-id={row.userId}
                  onClick={(event) => {
                    if (!(event.target instanceof HTMLElement) || !event.target.closest('a')) open(row.userNo);
                  }}
                >
                  <td className="col-num" data-label={t('list.number')}>
                    {rowNumber(totalCount, query.page, PAGE_SIZE, index)}
                  </td>
                  <td className="col-title" data-label={t('admin.users.columns.name')}>
                    <Link
                      to={`/admin/${row.userNo}`}
                      state={{ listSearch: location.search } satisfies UserListReturn}
                      className="cell-link person"
                      data-testid="user-name-link"
                    >
                      <span className="avatar avatar-sm" aria-hidden="true">
                        {initials(row.name)}
                      </span>
                      <span>{row.name}</span>
                    </Link>
                  </td>
                  <td data-label={t('admin.users.columns.userId')}>
                    <span className="cell-mono">{row.email}</span>
                  </td>
                  <td data-label={t('admin.users.columns.employeeNo')}>{row.employeeNo || <span className="cell-muted">—</span>}</td>
                  <td data-label={t('admin.users.columns.department')}>{row.departmentName ?? <span className="cell-muted">—</span>}</td>
                  <td className="col-nowrap" data-label={t('admin.users.columns.phone')}>
                    {row.phone || <span className="cell-muted">—</span>}
                  </td>
                  <td className="col-center" data-label={t('admin.users.columns.level')}>
                    {row.level === ADMIN_LEVEL ? (
                      <Badge tone="accent" title={t('admin.users.adminLevel')}>
                        {row.level}
                      </Badge>
                    ) : (
                      <span className="level-value">{row.level}</span>
                    )}
                  </td>
                  <td data-label={t('admin.users.columns.flags')}>
                    <FlagBadges auth={row.auth} testId="user-flags" />
                  </td>
                  <td data-label={t('admin.users.columns.active')}>
                    <Badge tone={row.active ? 'success' : 'neutral'} dot>
                      {row.active ? t('admin.users.active') : t('admin.users.inactive')}
                    </Badge>
                  </td>
                  <td className="col-date" data-label={t('admin.users.columns.createdAt')}>
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
      testId="page-admin"
      title={t('pages.admin.title')}
      description={t('pages.admin.description')}
      icon={<UsersIcon size={20} />}
      actions={
        <Button variant="primary" icon={<UserPlusIcon size={16} />} onClick={() => setCreating(true)} data-testid="user-create-button">
          {t('admin.users.create')}
        </Button>
      }
    >
      {created ? (
        <InlineAlert tone="success" testId="user-created-notice">
          {t('admin.users.created', { name: created.name })}{' '}
          <Link to={`/admin/${created.userNo}`} className="inline-link">
            {t('admin.users.openCreated')}
          </Link>
        </InlineAlert>
      ) : null}
      <SearchBar query={query} types={types} onSearch={onSearch} onReset={() => setParams(new URLSearchParams())} filtered={filtered} testId="user" />
      <div className="card table-card">
        <div className="table-toolbar">
          <p className="table-total" data-testid="user-total" data-count={list.data ? totalCount : undefined}>
            {list.data ? (
              <TotalText i18nKey="list.total" n={totalCount} />
            ) : (
              <span className="skeleton skeleton-text" style={{ width: 80 }} aria-hidden="true" />
            )}
          </p>
          <p className="table-legend">{t('admin.users.flagLegend')}</p>
        </div>
        {list.phase === 'error' && list.data ? <ErrorState message={apiErrorText(list.error, language)} onRetry={list.reload} /> : null}
        {renderBody()}
        {rows.length > 0 && pageCount(totalCount, PAGE_SIZE) > 1 ? (
          <div className="table-footer">
            <Pagination page={query.page} pageSize={PAGE_SIZE} totalCount={totalCount} searchFor={(page) => searchFor({ ...query, page })} testId="user-pagination" />
          </div>
        ) : null}
      </div>
      {creating ? (
        <UserCreateDialog
          onClose={() => setCreating(false)}
          onCreated={(user) => {
            setCreating(false);
            setCreated(user);
            // The new user is the newest: the unfiltered first page shows it.
            if (key === '') list.reload();
            else setParams(new URLSearchParams());
          }}
        />
      ) : null}
    </PageFrame>
  );
}
