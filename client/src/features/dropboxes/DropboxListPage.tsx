import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { api, PAGING, type DropboxSummary } from '@eln/shared';
import { currentLanguage } from '../../i18n';
import { formatDate, formatNumber } from '../../lib/format';
import { useFilteredTitleList } from '../../lib/useFilteredTitleList';
import { ButtonLink } from '../../ui/Button';
import { DropboxIcon, PlusIcon } from '../../ui/icons';
import { ListTable, openRowUnlessOn, type ListColumn } from '../../ui/ListTable';
import { EmptyState, NoMatchesState, PageFrame } from '../../ui/PageFrame';
import { SearchBar } from '../../ui/SearchBar';
import { SegmentedFilter } from '../../ui/SegmentedFilter';
import { DropboxStatusBadge } from './DropboxStatus';

/** The status filter's choices: all, used (Y), unused (N). */
const STATUS_FILTERS = ['', 'Y', 'N'] as const;
const STATUSES = ['Y', 'N'] as const;

/** `/dropbox`: the lab's dropboxes, searched by title and filtered by status; managers see unused ones too. */
export function DropboxListPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const navigate = useNavigate();
  const {
    query,
    filter: status,
    list,
    filtered,
    onSearch,
    searchFor,
    setFilter,
    reset,
  } = useFilteredTitleList({
    call: api.dropboxes.list,
    filterField: 'status',
    filterValues: STATUSES,
  });
  const canCreate = list.data?.abilities.create ?? false;

  const columns: ListColumn[] = [
    { label: t('list.number'), className: 'col-num' },
    { label: t('dropbox.columns.title') },
    { label: t('dropbox.columns.rows'), className: 'col-center' },
    { label: t('dropbox.columns.status') },
    { label: t('dropbox.columns.updated') },
  ];
  const createButton = (testId: string) =>
    canCreate ? (
      <ButtonLink to="/dropbox/create" variant="primary" icon={<PlusIcon size={16} />} data-testid={testId}>
        {t('dropbox.create')}
      </ButtonLink>
    ) : null;

  const renderRow = (row: DropboxSummary, number: number) => (
    <tr
      key={row.dropboxNo}
      className="row-link"
      data-testid="dropbox-row"
      onClick={openRowUnlessOn('a', () => void navigate(`/dropbox/${row.dropboxNo}`))}
    >
      <td className="col-num" data-label={t('list.number')}>
        {number}
      </td>
      <td className="col-title" data-label={t('dropbox.columns.title')}>
        <Link to={`/dropbox/${row.dropboxNo}`} className="cell-link" data-testid="dropbox-title-link">
          {row.title}
        </Link>
      </td>
      <td className="col-center" data-label={t('dropbox.columns.rows')}>
        {formatNumber(row.rowCount, language)}
      </td>
      <td data-label={t('dropbox.columns.status')}>
        <DropboxStatusBadge status={row.status} />
      </td>
      <td className="col-date" data-label={t('dropbox.columns.updated')}>
        <span className="cell-main">{formatDate(row.updatedAt, language)}</span>
        {row.updatedByName ? <span className="cell-sub">{row.updatedByName}</span> : null}
      </td>
    </tr>
  );

  return (
    <PageFrame
      testId="page-dropbox"
      title={t('pages.dropbox.title')}
      description={t('pages.dropbox.description')}
      icon={<DropboxIcon size={20} />}
      actions={createButton('dropbox-create-button')}
    >
      <SearchBar
        query={query}
        types={[{ value: 'title', label: t('dropbox.columns.title') }]}
        withDates
        onSearch={onSearch}
        onReset={reset}
        filtered={filtered}
        testId="dropbox"
      />
      <SegmentedFilter
        options={STATUS_FILTERS.map((value) => ({
          value,
          label: value === '' ? t('dropbox.status.all') : value === 'Y' ? t('dropbox.status.used') : t('dropbox.status.unused'),
        }))}
        value={status}
        onChange={setFilter}
        label={t('dropbox.columns.status')}
        testId="dropbox-status-filter"
      />
      <ListTable
        list={list}
        page={query.page}
        pageSize={PAGING.defaultPageSize}
        searchFor={searchFor}
        testId="dropbox"
        tableClassName="data-table"
        columns={columns}
        skeleton={{ rows: 4, widths: [30, 120, 40, 50, 80] }}
        empty={
          filtered ? (
            <NoMatchesState clearTestId="dropbox-clear-search" />
          ) : (
            <div data-testid="dropbox-empty">
              <EmptyState icon={<DropboxIcon size={26} />} title={t('dropbox.emptyTitle')}>
                <p>{canCreate ? t('dropbox.emptyBodyCanCreate') : t('dropbox.emptyBody')}</p>
                {canCreate ? <div className="empty-state-action">{createButton('dropbox-empty-create')}</div> : null}
              </EmptyState>
            </div>
          )
        }
        renderRow={renderRow}
      />
    </PageFrame>
  );
}
