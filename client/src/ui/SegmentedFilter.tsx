/**
 * A list's one-of filter beside its search (a status, a state): pressed buttons, the choice kept in the
 * URL by the page. `''` is "all".
 */
export function SegmentedFilter<Value extends string>({
  options,
  value,
  onChange,
  label,
  testId,
  className,
}: {
  options: ReadonlyArray<{ value: Value; label: string }>;
  value: Value;
  onChange(value: Value): void;
  label: string;
  testId: string;
  className?: string;
}) {
  return (
    <div
      className={['segmented', 'list-filter', className ?? ''].filter(Boolean).join(' ')}
      role="group"
      aria-label={label}
      data-testid={testId}
    >
      {options.map((option) => (
        <button
          key={option.value || 'all'}
          type="button"
          className="segmented-item"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
          data-value={option.value}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/** The filter's value from the URL parameter, or `''` (all) when it names none of `values`. */
export function readFilterParam<Value extends string>(params: URLSearchParams, name: string, values: readonly Value[]): Value | '' {
  const value = params.get(name);
  return (values as readonly string[]).includes(value ?? '') ? (value as Value) : '';
}
