import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@eln/shared';
import { useApiQuery } from '../../api/queries';
import type { Loaded } from '../../api/queries';
import { SelectField } from '../../ui/Field';
import { flattenDepartments, indentedLabel, type DepartmentTreeRow } from '../people/departmentTree';

/** Every department of the company, in tree order, loaded for a screen (one cache for every screen that shows them). */
export function useDepartmentRows(): Loaded<DepartmentTreeRow[]> {
  const loaded = useApiQuery(api.departments.list, {});
  const rows = useMemo(() => (loaded.data ? flattenDepartments(loaded.data.list) : undefined), [loaded.data]);
  // The rows are there exactly when the answer is: the load state carries over as it is.
  return { ...loaded, data: rows } as Loaded<DepartmentTreeRow[]>;
}

interface DepartmentSelectProps {
  label: string;
  value: string;
  onChange(code: string): void;
  rows: readonly DepartmentTreeRow[] | undefined;
  /** The label of the empty choice ("No department", "Top level"). */
  emptyLabel: string;
  /** Codes shown but not choosable, with the reason appended to their label. */
  disabledCodes?: ReadonlySet<string>;
  disabledSuffix?: string;
  error?: string | undefined;
  hint?: string;
  testId: string;
  disabled?: boolean;
}

/** A department chooser: a native select whose options are indented to show the tree. */
export function DepartmentSelect({
  label,
  value,
  onChange,
  rows,
  emptyLabel,
  disabledCodes,
  disabledSuffix,
  error,
  hint,
  testId,
  disabled,
}: DepartmentSelectProps) {
  const { t } = useTranslation();
  const known = rows?.some((row) => row.code === value) ?? false;
  return (
    <SelectField
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      hint={hint}
      testId={testId}
      disabled={disabled || !rows}
    >
      <option value="">{rows ? emptyLabel : t('common.loading')}</option>
      {value && rows && !known ? <option value={value}>{value}</option> : null}
      {(rows ?? []).map((row) => {
        const blocked = disabledCodes?.has(row.code) ?? false;
        return (
          <option key={row.code} value={row.code} disabled={blocked}>
            {indentedLabel(row.name, row.depth)}
            {blocked && disabledSuffix ? ` ${disabledSuffix}` : ''}
          </option>
        );
      })}
    </SelectField>
  );
}
