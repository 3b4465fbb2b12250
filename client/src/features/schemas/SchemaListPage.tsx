import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { api, PAGING, type SchemaTypeSummary } from '@eln/shared';
import { currentLanguage } from '../../i18n';
import { formatDate, formatNumber } from '../../lib/format';
import { useFilteredTitleList } from '../../lib/useFilteredTitleList';
import { ButtonLink } from '../../ui/Button';
import { PlusIcon, SchemaIcon } from '../../ui/icons';
import { ListTable, openRowUnlessOn, type ListColumn } from '../../ui/ListTable';
import { EmptyState, NoMatchesState, PageFrame } from '../../ui/PageFrame';
import { SearchBar } from '../../ui/SearchBar';
import { SegmentedFilter } from '../../ui/SegmentedFilter';
import { SchemaStatusBadge } from './SchemaStatus';
import { SchemaThumb } from './SchemaThumb';
import './schemas.css';

/** The status filter's choices: all, used (Y), unused (N). */
const STATUS_FILTERS = ['', 'Y', 'N'] as const;
const STATUSES = ['Y', 'N'] as const;

/** `/schema`: the lab's schema types, searched by a part of their name and filtered by status; managers see unused ones too. */
export function SchemaListPage() {
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
    call: api.schemas.list,
    filterField: 'status',
    filterValues: STATUSES,
  });
  const canCreate = list.data?.abilities.create ?? false;

  const columns: ListColumn[] = [
    { label: t('list.number'), className: 'col-num' },
    { label: t('schema.thumbnail.column'), className: 'col-thumb' },
    { label: t('schema.columns.code') },
    { label: t('schema.columns.title') },
    { label: t('schema.columns.schemas'), className: 'col-center' },
    { label: t('schema.columns.status') },
    { label: t('schema.columns.updated') },
  ];
  const createButton = (testId: string) =>
    canCreate ? (
      <ButtonLink to="/schema/create" variant="primary" icon={<PlusIcon size={16} />} data-testid={testId}>
        {t('schema.create')}
      </ButtonLink>
    ) : null;

  const renderRow = (row: SchemaTypeSummary, number: number) => (
    <tr
      key={row.schemasTypeNo}
      className="row-link"
      data-testid="schema-row"
      onClick={openRowUnlessOn('a', () => void navigate(`/schema/${row.schemasTypeNo}`))}
    >
      <td className="col-num" data-label={t('list.number')}>
        {number}
      </td>
      <td className="col-thumb" data-label={t('schema.thumbnail.column')}>
        <SchemaThumb thumbnail={row.thumbnail} name={row.title} testId="schema-row-thumbnail" />
      </td>
      <td className="col-code" data-label={t('schema.columns.code')}>
        <span className="mono">{row.code}</span>
      </td>
      <td className="col-title" data-label={t('schema.columns.title')}>
        <Link to={`/schema/${row.schemasTypeNo}`} className="cell-link" data-testid="schema-title-link">
          {row.title}
        </Link>
        {row.description ? <span className="cell-sub">{row.description}</span> : null}
      </td>
      <td className="col-center" data-label={t('schema.columns.schemas')}>
        {formatNumber(row.schemaCount, language)}
      </td>
      <td data-label={t('schema.columns.status')}>
        <SchemaStatusBadge status={row.status} />
      </td>
      <td className="col-date" data-label={t('schema.columns.updated')}>
        <span className="cell-main">{formatDate(row.updatedAt, language)}</span>
        {row.updatedByName ? <span className="cell-sub">{row.updatedByName}</span> : null}
      </td>
    </tr>
  );

  return (
    <PageFrame
      testId="page-schema"
      title={t('pages.schema.title')}
      description={t('pages.schema.description')}
      icon={<SchemaIcon size={20} />}
      actions={createButton('schema-create-button')}
    >
      <SearchBar
        query={query}
        types={[{ value: 'title', label: t('schema.columns.title') }]}
        withDates
        onSearch={onSearch}
        onReset={reset}
        filtered={filtered}
        testId="schema"
      />
      <SegmentedFilter
        options={STATUS_FILTERS.map((value) => ({
          value,
          label: value === '' ? t('schema.status.all') : value === 'Y' ? t('schema.status.used') : t('schema.status.unused'),
        }))}
        value={status}
        onChange={setFilter}
        label={t('schema.columns.status')}
        testId="schema-status-filter"
      />
      <ListTable
        list={list}
        page={query.page}
        pageSize={PAGING.defaultPageSize}
        searchFor={searchFor}
        testId="schema"
        tableClassName="data-table"
        columns={columns}
        skeleton={{ rows: 4, widths: [30, 40, 70, 140, 40, 50, 80] }}
        empty={
          filtered ? (
            <NoMatchesState clearTestId="schema-clear-search" />
          ) : (
            <div data-testid="schema-empty">
              <EmptyState icon={<SchemaIcon size={26} />} title={t('schema.emptyTitle')}>
                <p>{canCreate ? t('schema.emptyBodyCanCreate') : t('schema.emptyBody')}</p>
                {canCreate ? <div className="empty-state-action">{createButton('schema-empty-create')}</div> : null}
              </EmptyState>
            </div>
          )
        }
        renderRow={renderRow}
      />
    </PageFrame>
  );
}
