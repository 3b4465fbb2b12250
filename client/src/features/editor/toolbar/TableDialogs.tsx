import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@eln/shared';
import { Dialog } from '../../../modals/Dialog';
import { Button } from '../../../ui/Button';
import { Checkbox, TextField } from '../../../ui/Field';
import { validTableSize } from '../tableRules';

/** The size of a new table (1 to 30 per side) and whether its first row is a header. */
export function TableSizeDialog({
  onSubmit,
  onClose,
}: {
  onSubmit(rows: number, columns: number, header: boolean): void;
  onClose(): void;
}) {
  const { t } = useTranslation('editor');
  const { t: tApp } = useTranslation();
  const [rows, setRows] = useState(String(LIMITS.tableDefaultRows));
  const [columns, setColumns] = useState(String(LIMITS.tableDefaultColumns));
  const [header, setHeader] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const r = Number(rows);
    const c = Number(columns);
    if (!validTableSize(r, c)) {
      setError(t('refusal.tableSize', { max: LIMITS.tableMaxSide }));
      return;
    }
    onSubmit(r, c, header);
  };
  return (
    <Dialog title={t('table.insertTitle')} onClose={onClose} testId="table-dialog">
      <form className="form" onSubmit={submit} noValidate>
        <div className="form-grid form-grid-2">
          <TextField
            label={t('table.rows')}
            type="number"
            inputMode="numeric"
            min={1}
            max={LIMITS.tableMaxSide}
            value={rows}
            onChange={(event) => setRows(event.target.value)}
            testId="table-rows"
          />
          <TextField
            label={t('table.columns')}
            type="number"
            inputMode="numeric"
            min={1}
            max={LIMITS.tableMaxSide}
            value={columns}
            onChange={(event) => setColumns(event.target.value)}
            testId="table-columns"
          />
        </div>
        <Checkbox
          label={t('table.withHeader')}
          checked={header}
          onChange={(event) => setHeader(event.target.checked)}
          testId="table-header"
        />
        {error ? (
          <p className="field-error" role="alert" data-testid="table-size-error">
            {error}
          </p>
        ) : (
          <p className="field-hint">{t('table.sizeHint', { max: LIMITS.tableMaxSide })}</p>
        )}
        <div className="modal-footer modal-footer-inline">
          <Button variant="secondary" onClick={onClose}>
            {tApp('common.cancel')}
          </Button>
          <Button type="submit" variant="primary" data-testid="table-submit">
            {t('table.insert')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
