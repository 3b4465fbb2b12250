import { useId } from 'react';

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

/** A search form's "from ~ to" dates; each input keeps the other from crossing it. */
export function DateRangeField({ startDate, endDate, onChange, error, labels, className, testId }: DateRangeFieldProps) {
  const id = useId();
  const errorId = `${id}-date-error`;
  const both = { type: 'date', className: 'input', 'aria-invalid': error ? true : undefined } as const;
  return (
    <fieldset className={['search-field search-dates', className ?? '', error ? 'field-invalid' : ''].filter(Boolean).join(' ')}>
      <legend className="search-label">{labels.legend}</legend>
      <div className="date-range">
        <input
          {...both}
          value={startDate}
          max={endDate || undefined}
          onChange={(event) => onChange({ startDate: event.target.value })}
          aria-label={labels.start}
          data-testid={`${testId}-start`}
        />
        <span className="date-sep" aria-hidden="true">
          ~
        </span>
        <input
          {...both}
          value={endDate}
          min={startDate || undefined}
          onChange={(event) => onChange({ endDate: event.target.value })}
          aria-label={labels.end}
          aria-describedby={error ? errorId : undefined}
          data-testid={`${testId}-end`}
        />
      </div>
      {error ? (
        <p className="field-error" id={errorId} data-testid={`${testId}-date-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
