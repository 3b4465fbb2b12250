import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { ADMIN_LEVEL, api, PAGING, USER_SEARCH_TYPES, type AdminUserRow } from '@eln/shared';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { formatDate, initials } from '../../lib/format';
import { isFiltered, listSearchParams, parseListQuery, toPagingBody, type ListQuery } from '../../lib/listParams';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { SearchIcon, UserPlusIcon, UsersIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { ListTable, openRowUnlessOn, type ListColumn } from '../../ui/ListTable';
import { EmptyState, NoMatchesState, PageFrame } from '../../ui/PageFrame';
import { SearchBar } from '../../ui/SearchBar';
import { FlagBadges } from './FlagBadges';
import { AccessTokensCard } from './AccessTokensCard';
import { MailFailuresCard } from './MailFailuresCard';
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
 * (t, w, p). A row opens `/admin/{userNo}`; "New user" opens the create dialog. Below the list, the mails
 * the notebook could not deliver to them (MailFailuresCard).
 */
export function UserListPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => parseListQuery(params, USER_SEARCH_TYPES, DEFAULT_TYPE), [params]);
  const key = listSearchParams(query, DEFAULT_TYPE).toString();
  const list = useApiQuery(api.users.list, toPagingBody(query, PAGE_SIZE, false));
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
  const open = (userNo: number) => void navigate(`/admin/${userNo}`, { state: { listSearch: location.search } satisfies UserListReturn });

  const filtered = isFiltered(query);
  const types = USER_SEARCH_TYPES.map((value) => ({ value, label: t(`admin.users.searchTypes.${value}`) }));
  const columns: ListColumn[] = [
    { label: t('list.number'), className: 'col-num' },
    { label: t('admin.users.columns.name') },
    { label: t('admin.users.columns.userId') },
    { label: t('admin.users.columns.employeeNo') },
    { label: t('admin.users.columns.department') },
    { label: t('admin.users.columns.phone') },
    { label: t('admin.users.columns.level'), className: 'col-center' },
    { label: t('admin.users.columns.flags') },
    { label: t('admin.users.columns.active') },
    { label: t('admin.users.columns.createdAt') },
  ];

  const renderRow = (row: AdminUserRow, number: number) => (
    <tr
      key={row.userNo}
      className={row.active ? 'row-link' : 'row-link row-inactive'}
      data-testid="user-row"
      data-user-id={row.userId}
      onClick={openRowUnlessOn('a', () => open(row.userNo))}
    >
      <td className="col-num" data-label={t('list.number')}>
        {number}
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
  );

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
      <SearchBar
        query={query}
        types={types}
        withDates
        onSearch={onSearch}
        onReset={() => setParams(new URLSearchParams())}
        filtered={filtered}
        testId="user"
      />
      <ListTable
        list={list}
        page={query.page}
        pageSize={PAGE_SIZE}
        searchFor={(page) => searchFor({ ...query, page })}
        testId="user"
        tableClassName="data-table data-table-compact"
        columns={columns}
        skeleton={{ rows: 5, widths: SKELETON_COLUMNS }}
        toolbar={<p className="table-legend">{t('admin.users.flagLegend')}</p>}
        empty={
          filtered ? (
            <NoMatchesState />
          ) : (
            <EmptyState icon={<SearchIcon size={26} />} title={t('admin.users.emptyTitle')}>
              <p>{t('admin.users.emptyBody')}</p>
            </EmptyState>
          )
        }
        renderRow={renderRow}
      />
      <MailFailuresCard />
      <AccessTokensCard />
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
