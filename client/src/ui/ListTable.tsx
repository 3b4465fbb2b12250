import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { rowNumber, type ListAnswer } from '@eln/shared';
import { apiErrorText } from '../api';
import { currentLanguage } from '../i18n';
import { pageCount, toCount } from '../lib/listParams';
import type { Loaded } from '../api/queries';
import { useServerErrorPage } from '../lib/useServerErrorPage';
import { ButtonLink } from './Button';
import { SearchIcon } from './icons';
import { EmptyState } from './PageFrame';
import { Pagination } from './Pagination';
import { ErrorState, SkeletonRows } from './States';
import { TotalText } from './TotalText';
import { TableScroll } from './TableScroll';

export interface ListColumn {
  label: string;
  className?: string;
}

interface ListTableProps<Row> {
  /** The page's load; its last answer stays on screen (dimmed) while the next page loads. */
  list: Loaded<ListAnswer<Row>>;
  page: number;
  pageSize: number;
  /** The URL search (with '?') of a page of the same search. */
  searchFor(page: number): string;
  /** Prefix of the test ids: `<prefix>-table`, `-total`, `-list-error`, `-pagination`. */
  testId: string;
  tableClassName: string;
  columns: readonly ListColumn[];
  /** How many placeholder rows the first load shows, and each placeholder cell's relative width. */
  skeleton: { rows: number; widths: readonly number[] };
  /** Beside the total: a legend or a busy sign. */
  toolbar?: ReactNode;
  /** What an empty list says on its first page: nothing yet, or nothing matches the search. */
  empty: ReactNode;
  /** One `<tr>` (with its key); `number` counts down from the total, as the spec numbers rows. */
  renderRow(row: Row, number: number): ReactNode;
}

/**
 * The card of a paged list: the total, the table (placeholder rows on the first load, the previous rows
 * dimmed while the next page loads), the empty and failed states, and the pager.
 */
export function ListTable<Row>(props: ListTableProps<Row>) {
  const { list, page, pageSize, searchFor, testId, toolbar } = props;
  useServerErrorPage(list);
  const totalCount = toCount(list.data?.totalCount);
  const rows = list.data?.list ?? [];
  const errorTestId = `${testId}-list-error`;

  return (
    <div className="card table-card">
      <div className="table-toolbar">
        <p className="table-total" data-testid={`${testId}-total`} data-count={list.data ? totalCount : undefined}>
          {list.data ? (
            <TotalText i18nKey="list.total" n={totalCount} />
          ) : (
            <span className="skeleton skeleton-text" style={{ width: 80 }} aria-hidden="true" />
          )}
        </p>
        {toolbar}
      </div>
      {list.phase === 'error' && list.data ? <ListError list={list} testId={errorTestId} /> : null}
      {list.phase === 'error' && !list.data ? (
        <ListError list={list} testId={errorTestId} />
      ) : (
        <ListBody {...props} totalCount={totalCount} rows={rows} />
      )}
      {rows.length > 0 && pageCount(totalCount, pageSize) > 1 ? (
        <div className="table-footer">
          <Pagination page={page} pageSize={pageSize} totalCount={totalCount} searchFor={searchFor} testId={`${testId}-pagination`} />
        </div>
      ) : null}
    </div>
  );
}

function ListError({ list, testId }: { list: Loaded<unknown>; testId: string }) {
  return <ErrorState message={apiErrorText(list.error, currentLanguage())} onRetry={list.reload} testId={testId} />;
}

type ListBodyProps<Row> = ListTableProps<Row> & { totalCount: number; rows: readonly Row[] };

function ListBody<Row>({
  list,
  page,
  pageSize,
  searchFor,
  testId,
  tableClassName,
  columns,
  skeleton,
  empty,
  renderRow,
  totalCount,
  rows,
}: ListBodyProps<Row>) {
  const loading = list.phase === 'loading';
  if (!loading && rows.length === 0) {
    // A page past the end (the list shrank since the link was made) is not the same as an empty list.
    return totalCount > 0 && page > 1 ? <PastLastPage last={pageCount(totalCount, pageSize)} firstPageSearch={searchFor(1)} /> : empty;
  }
  return (
    <TableScroll>
      <table className={tableClassName} data-testid={`${testId}-table`} aria-busy={loading}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={column.className}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={loading && list.data ? 'is-stale' : undefined}>
          {loading && !list.data ? (
            <SkeletonRows rows={skeleton.rows} columns={skeleton.widths} />
          ) : (
            rows.map((row, index) => renderRow(row, rowNumber(totalCount, page, pageSize, index)))
          )}
        </tbody>
      </table>
    </TableScroll>
  );
}

function PastLastPage({ last, firstPageSearch }: { last: number; firstPageSearch: string }) {
  const { t } = useTranslation();
  return (
    <EmptyState icon={<SearchIcon size={26} />} title={t('list.pageEmpty')}>
      <p>{t('list.pageEmptyHint', { n: last })}</p>
      <ButtonLink to={{ search: firstPageSearch }} variant="secondary" className="empty-state-action">
        {t('list.firstPage')}
      </ButtonLink>
    </EmptyState>
  );
}

/** A clickable row's handler that leaves clicks on the row's own links (or buttons) to them. */
export function openRowUnlessOn(controls: string, open: () => void) {
  return (event: MouseEvent<HTMLElement>) => {
    if (!(event.target instanceof HTMLElement) || !event.target.closest(controls)) open();
  };
}
