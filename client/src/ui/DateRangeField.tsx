import { lazy, Suspense, useId } from 'react';

/** React Aria's date field is a chunk of its own, fetched when a page first shows a date. */
const DateInputField = lazy(() => import('./dates/DatePickers').then((m) => ({ default: m.DateInputField })));

export interface DateRange {
  startDate: string;
  endDate: string;
}

interface DateRangeFieldProps extends DateRange {
  onChange(patch: Partial<DateRange>): void;
  /** One message for the pair: the order of the dates is a fault of neither alone. */
  error: string | undefined;
  labels: { legend: string; start: string; end: string };
  className?: string;
  /** Prefix of the test ids: `<prefix>-start`, `-end`, `-date-error`. */
  testId: string;
}

/** Holds the field's place while its chunk loads. */
const pending = <span className="input date-field-pending" aria-hidden="true" />;

/**
 * A search form's "from ~ to" dates, in the interface language (not the browser's): each field marks a
 * day past the other as out of range.
 */
export function DateRangeField({ startDate, endDate, onChange, error, labels, className, testId }: DateRangeFieldProps) {
  const id = useId();
  const errorId = `${id}-date-error`;
  return (
    <fieldset className={['search-field search-dates', className ?? '', error ? 'field-invalid' : ''].filter(Boolean).join(' ')}>
      <legend className="search-label">{labels.legend}</legend>
      <div className="date-range">
        <Suspense fallback={pending}>
          <DateInputField
            value={startDate}
            max={endDate || undefined}
            onChange={(value) => onChange({ startDate: value })}
            label={labels.start}
            invalid={Boolean(error)}
            testId={`${testId}-start`}
          />
        </Suspense>
        <span className="date-sep" aria-hidden="true">
          ~
        </span>
        <Suspense fallback={pending}>
          <DateInputField
            value={endDate}
            min={startDate || undefined}
            onChange={(value) => onChange({ endDate: value })}
            label={labels.end}
            invalid={Boolean(error)}
            describedBy={error ? errorId : undefined}
            testId={`${testId}-end`}
          />
        </Suspense>
      </div>
      {error ? (
        <p className="field-error" id={errorId} data-testid={`${testId}-date-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
