import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { pageCount, pageWindow } from '../lib/listParams';

interface PaginationProps {
  page: number;
  pageSize: number;
  totalCount: number;
  /** The URL search (with '?') of a page, so that every page is a link and back/forward work. */
  searchFor(page: number): string;
  testId?: string;
}

/** First, previous, a window of page numbers, next, last. Hidden when everything fits on one page. */
export function Pagination({ page, pageSize, totalCount, searchFor, testId = 'pagination' }: PaginationProps) {
  const { t } = useTranslation();
  const last = pageCount(totalCount, pageSize);
  if (last <= 1 && page <= 1) return null;
  const current = Math.min(page, last);
  const pages = pageWindow(current, last);

  const arrow = (target: number, label: string, glyph: string, id: string, disabled: boolean) =>
    disabled ? (
      <span className="pager-item pager-arrow" aria-disabled="true" data-testid={`${testId}-${id}`}>
        <span aria-hidden="true">{glyph}</span>
        <span className="visually-hidden">{label}</span>
      </span>
    ) : (
      <Link
        className="pager-item pager-arrow"
        to={{ search: searchFor(target) }}
        aria-label={label}
        title={label}
        data-testid={`${testId}-${id}`}
      >
        <span aria-hidden="true">{glyph}</span>
      </Link>
    );

  return (
    <nav className="pager" aria-label={t('list.pagination')} data-testid={testId}>
      {arrow(1, t('list.first'), '«', 'first', current <= 1)}
      {arrow(current - 1, t('list.previous'), '‹', 'prev', current <= 1)}
      {pages.map((n) => (
        <Link
          key={n}
          className={n === page ? 'pager-item pager-current' : 'pager-item'}
          to={{ search: searchFor(n) }}
          aria-current={n === page ? 'page' : undefined}
          aria-label={t('list.page', { page: n })}
          data-testid={`${testId}-page-${n}`}
        >
          {n}
        </Link>
      ))}
      {arrow(current + 1, t('list.next'), '›', 'next', current >= last)}
      {arrow(last, t('list.last'), '»', 'last', current >= last)}
    </nav>
  );
}
