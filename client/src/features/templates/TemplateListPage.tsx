import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { api, PAGING, TEMPLATE_STATE, type TemplateSummary } from '@eln/shared';
import { currentLanguage } from '../../i18n';
import { formatDate, formatNumber } from '../../lib/format';
import { useFilteredTitleList } from '../../lib/useFilteredTitleList';
import { Button } from '../../ui/Button';
import { PlusIcon, TemplateIcon } from '../../ui/icons';
import { ListTable, openRowUnlessOn, type ListColumn } from '../../ui/ListTable';
import { EmptyState, NoMatchesState, PageFrame } from '../../ui/PageFrame';
import { SearchBar } from '../../ui/SearchBar';
import { SegmentedFilter } from '../../ui/SegmentedFilter';
import { TemplateCreateDialog } from './TemplateCreateDialog';
import { TemplateStateBadge } from './TemplateStateBadge';
import './templates.css';

const STATE_FILTERS = ['', TEMPLATE_STATE.draft, TEMPLATE_STATE.checking, TEMPLATE_STATE.approved] as const;
const STATES = [TEMPLATE_STATE.draft, TEMPLATE_STATE.checking, TEMPLATE_STATE.approved] as const;

/** `/template`: the template library, searched by title and filtered by state; drafts only for those who write templates. */
export function TemplateListPage() {
  const { t } = useTranslation('template');
  const { t: tc } = useTranslation();
  const language = currentLanguage();
  const navigate = useNavigate();
  const {
    query,
    filter: state,
    list,
    filtered,
    onSearch,
    searchFor,
    setFilter,
    reset,
  } = useFilteredTitleList({
    call: api.templates.list,
    filterField: 'state',
    filterValues: STATES,
  });
  const [creating, setCreating] = useState(false);
  const canCreate = list.data?.abilities.create ?? false;

  const columns: ListColumn[] = [
    { label: tc('list.number'), className: 'col-num' },
    { label: t('list.columns.title') },
    { label: t('list.columns.state') },
    { label: t('list.columns.version') },
    { label: t('list.columns.author') },
    { label: t('list.columns.notes'), className: 'col-center' },
    { label: t('list.columns.updated') },
  ];
  const createButton = (testId: string) =>
    canCreate ? (
      <Button variant="primary" icon={<PlusIcon size={16} />} onClick={() => setCreating(true)} data-testid={testId}>
        {t('list.create')}
      </Button>
    ) : null;

  const renderRow = (row: TemplateSummary, number: number) => (
    <tr
      key={row.templateNo}
      className="row-link"
      data-testid="template-row"
      data-state={row.state}
      onClick={openRowUnlessOn('a', () => void navigate(`/template/note/${row.templateNo}`))}
    >
      <td className="col-num" data-label={tc('list.number')}>
        {number}
      </td>
      <td className="col-title" data-label={t('list.columns.title')}>
        <Link to={`/template/note/${row.templateNo}`} className="cell-link" data-testid="template-title-link">
          {row.title}
        </Link>
        {row.description ? <span className="cell-sub">{row.description}</span> : null}
      </td>
      <td data-label={t('list.columns.state')}>
        <TemplateStateBadge state={row.state} />
      </td>
      <td data-label={t('list.columns.version')} data-testid="template-version">
        {row.version ? <span className="template-version">v{row.version}</span> : <span className="cell-muted">{t('list.noVersion')}</span>}
      </td>
      <td data-label={t('list.columns.author')}>{row.author}</td>
      <td className="col-center" data-label={t('list.columns.notes')}>
        {formatNumber(row.noteCount, language)}
      </td>
      <td className="col-date" data-label={t('list.columns.updated')}>
        {formatDate(row.updatedAt, language)}
      </td>
    </tr>
  );

  return (
    <PageFrame
      testId="page-template"
      title={tc('pages.template.title')}
      description={tc('pages.template.description')}
      icon={<TemplateIcon size={20} />}
      actions={createButton('template-create-button')}
    >
      <SearchBar
        query={query}
        types={[{ value: 'title', label: t('list.columns.title') }]}
        withDates
        onSearch={onSearch}
        onReset={reset}
        filtered={filtered}
        testId="template"
      />
      <SegmentedFilter
        options={STATE_FILTERS.map((value) => ({ value, label: value === '' ? t('list.stateAll') : t(`state.${value}`) }))}
        value={state}
        onChange={setFilter}
        label={t('list.columns.state')}
        testId="template-state-filter"
      />
      <ListTable
        list={list}
        page={query.page}
        pageSize={PAGING.defaultPageSize}
        searchFor={searchFor}
        testId="template"
        tableClassName="data-table"
        columns={columns}
        skeleton={{ rows: 4, widths: [30, 140, 60, 50, 80, 30, 70] }}
        empty={
          filtered ? (
            <NoMatchesState clearTestId="template-clear-search" />
          ) : (
            <div data-testid="template-empty">
              <EmptyState icon={<TemplateIcon size={26} />} title={t('list.emptyTitle')}>
                <p>{canCreate ? t('list.emptyBodyCanCreate') : t('list.emptyBody')}</p>
                {canCreate ? <div className="empty-state-action">{createButton('template-empty-create')}</div> : null}
              </EmptyState>
            </div>
          )
        }
        renderRow={renderRow}
      />
      {creating ? (
        <TemplateCreateDialog
          onClose={() => setCreating(false)}
          onCreated={(templateNo) => void navigate(`/template/note/${templateNo}`)}
        />
      ) : null}
    </PageFrame>
  );
}
