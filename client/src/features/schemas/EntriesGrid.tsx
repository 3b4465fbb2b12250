import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@eln/shared';
import { Button } from '../../ui/Button';
import { PlusIcon } from '../../ui/icons';
import { ArrowDownIcon, ArrowUpIcon, TrashIcon } from './icons';
import { emptyEntry, entriesFromPaste, moveItem, pasteEntries, roomFor, type EntryDraft } from './schemaDraft';

interface EntriesGridProps {
  entries: EntryDraft[];
  onChange(next: EntryDraft[]): void;
  readOnly: boolean;
  /** Errors by entry key: the field (`field`, `value`) and its message. */
  errors: Map<number, { field: string; message: string }>;
  /** Said when a paste brought more rows than fit. */
  onNotice(message: string): void;
}

/**
 * A schema's field/value entries as an editable grid: Enter in a value adds the next row, rows pasted
 * from a spreadsheet (field and value columns) fill the grid from the row pasted into, each row moves
 * up and down and is removed by its own buttons.
 */
export function EntriesGrid({ entries, onChange, readOnly, errors, onNotice }: EntriesGridProps) {
  const { t } = useTranslation();
  const grid = useRef<HTMLTableSectionElement>(null);
  const full = entries.length >= LIMITS.schemaEntriesPerSchema;

  const focusRow = (index: number, column: 'field' | 'value' = 'field') =>
    requestAnimationFrame(() => grid.current?.querySelector<HTMLInputElement>(`[data-row="${index}"][data-column="${column}"]`)?.focus());

  const update = (key: number, patch: Partial<EntryDraft>) =>
    onChange(entries.map((entry) => (entry.key === key ? { ...entry, ...patch } : entry)));
  const addRow = (after = entries.length - 1) => {
    if (full) return;
    onChange([...entries.slice(0, after + 1), emptyEntry(), ...entries.slice(after + 1)]);
    focusRow(after + 1);
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>, key: number) => {
    const read = entriesFromPaste(event.clipboardData.getData('text/plain'), Number.MAX_SAFE_INTEGER);
    if (!read) return;
    event.preventDefault();
    // Only what fits beside the entries already there: a paste never pushes an entry out.
    const pasted = read.slice(0, roomFor(entries));
    onChange(pasteEntries(entries, key, pasted));
    onNotice(
      pasted.length < read.length
        ? t('schema.entries.pastedSome', { count: pasted.length, total: read.length, max: LIMITS.schemaEntriesPerSchema })
        : t('schema.entries.pasted', { count: pasted.length }),
    );
  };

  const onValueKey = (event: KeyboardEvent<HTMLInputElement>, index: number) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    // Enter adds the next entry rather than submitting the whole type.
    event.preventDefault();
    if (index === entries.length - 1) addRow(index);
    else focusRow(index + 1);
  };

  return (
    <div className="schema-entries">
      <table className="data-table schema-entries-table" data-testid="schema-entries">
        <caption className="visually-hidden">{t('schema.entries.caption')}</caption>
        <thead>
          <tr>
            <th scope="col" className="col-num">
              {t('list.number')}
            </th>
            <th scope="col">{t('schema.entries.field')}</th>
            <th scope="col">{t('schema.entries.value')}</th>
            <th scope="col" className="col-center">
              {t('schema.entries.used')}
            </th>
            {readOnly ? null : (
              <th scope="col" className="col-actions">
                <span className="visually-hidden">{t('schema.entries.actions')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody ref={grid}>
          {entries.map((entry, index) => {
            const error = errors.get(entry.key);
            const rowLabel = t('schema.entries.row', { n: index + 1 });
            return (
              <tr key={entry.key} data-testid="schema-entry" className={error ? 'has-error' : undefined}>
                <td className="col-num">{index + 1}</td>
                <td>
                  <input
                    className="input input-sm"
                    value={entry.field}
                    readOnly={readOnly}
                    maxLength={LIMITS.schemaField + 10}
                    onChange={(event) => update(entry.key, { field: event.target.value })}
                    onPaste={(event) => onPaste(event, entry.key)}
                    aria-label={`${rowLabel}: ${t('schema.entries.field')}`}
                    aria-invalid={error?.field === 'field' || undefined}
                    data-row={index}
                    data-column="field"
                    data-testid="schema-entry-field"
                  />
                </td>
                <td>
                  <input
                    className="input input-sm"
                    value={entry.value}
                    readOnly={readOnly}
                    maxLength={LIMITS.schemaValue + 10}
                    onChange={(event) => update(entry.key, { value: event.target.value })}
                    onPaste={(event) => onPaste(event, entry.key)}
                    onKeyDown={(event) => onValueKey(event, index)}
                    aria-label={`${rowLabel}: ${t('schema.entries.value')}`}
                    aria-invalid={error?.field === 'value' || undefined}
                    data-row={index}
                    data-column="value"
                    data-testid="schema-entry-value"
                  />
                  {error ? (
                    <p className="field-error" role="alert" data-testid="schema-entry-error">
                      {error.message}
                    </p>
                  ) : null}
                </td>
                <td className="col-center">
                  <input
                    type="checkbox"
                    checked={entry.status === 'Y'}
                    disabled={readOnly}
                    onChange={(event) => update(entry.key, { status: event.target.checked ? 'Y' : 'N' })}
                    aria-label={`${rowLabel}: ${t('schema.entries.used')}`}
                    data-testid="schema-entry-used"
                  />
                </td>
                {readOnly ? null : (
                  <td className="col-actions">
                    <button
                      type="button"
                      className="icon-btn icon-btn-sm"
                      disabled={index === 0}
                      onClick={() => onChange(moveItem(entries, index, index - 1))}
                      aria-label={t('schema.entries.up', { n: index + 1 })}
                      title={t('schema.entries.up', { n: index + 1 })}
                    >
                      <ArrowUpIcon size={15} />
                    </button>
                    <button
                      type="button"
                      className="icon-btn icon-btn-sm"
                      disabled={index === entries.length - 1}
                      onClick={() => onChange(moveItem(entries, index, index + 1))}
                      aria-label={t('schema.entries.down', { n: index + 1 })}
                      title={t('schema.entries.down', { n: index + 1 })}
                    >
                      <ArrowDownIcon size={15} />
                    </button>
                    <button
                      type="button"
                      className="icon-btn icon-btn-sm"
                      onClick={() => onChange(entries.filter((each) => each.key !== entry.key))}
                      aria-label={t('schema.entries.remove', { n: index + 1 })}
                      title={t('schema.entries.remove', { n: index + 1 })}
                      data-testid="schema-entry-remove"
                    >
                      <TrashIcon size={15} />
                    </button>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      {readOnly ? null : (
        <div className="schema-entries-actions">
          <Button size="sm" icon={<PlusIcon size={15} />} onClick={() => addRow()} disabled={full} data-testid="schema-entry-add">
            {t('schema.entries.add')}
          </Button>
          <span className="field-hint">
            {full ? t('schema.entries.full', { max: LIMITS.schemaEntriesPerSchema }) : t('schema.entries.pasteHint')}
          </span>
        </div>
      )}
    </div>
  );
}
