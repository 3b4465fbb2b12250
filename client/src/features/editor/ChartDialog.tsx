import { cellAddress } from './cellAddress';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CHART_TYPES, type ChartType } from '@eln/shared';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import type { CellRef, ChartDirection } from '@eln/shared/editor';

export interface ChartFields {
  name: string;
  label: string;
  dataName: string;
  chartType: ChartType;
  direction: ChartDirection;
  xLabel: string;
  yLabel: string;
}

const FIELD_MAX = 60;

/** The chart's questions (spec: name, label and data name required; axis labels; direction; type). */
export function ChartDialog({
  initial,
  range,
  editing = false,
  onSubmit,
  onClose,
}: {
  initial: ChartFields;
  range: { from: CellRef; to: CellRef };
  editing?: boolean;
  onSubmit(fields: ChartFields): void;
  onClose(): void;
}) {
  const { t } = useTranslation('editor');
  const { t: tApp } = useTranslation();
  const [fields, setFields] = useState<ChartFields>(initial);
  const [tried, setTried] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const set = <K extends keyof ChartFields>(key: K, value: ChartFields[K]) => setFields((previous) => ({ ...previous, [key]: value }));
  const missing = (value: string) => (tried && !value.trim() ? t('chart.required') : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!fields.name.trim() || !fields.label.trim() || !fields.dataName.trim()) return;
    onSubmit({
      ...fields,
      name: fields.name.trim(),
      label: fields.label.trim(),
      dataName: fields.dataName.trim(),
      xLabel: fields.xLabel.trim(),
      yLabel: fields.yLabel.trim(),
    });
  };

  return (
    <Dialog
      title={editing ? t('chart.editTitle') : t('chart.dialogTitle')}
      onClose={onClose}
      size="md"
      testId="chart-dialog"
      initialFocus={nameRef}
    >
      <form className="form chart-form" onSubmit={submit} noValidate>
        <p className="chart-form-range" data-testid="chart-range">
          <span className="chart-form-range-label">{t('chart.range')}</span>
          {t('chart.rangeValue', { from: cellAddress(range.from), to: cellAddress(range.to) })}
        </p>
        <div className="form-grid form-grid-2">
          <TextField
            ref={nameRef}
            label={t('chart.name')}
            value={fields.name}
            onChange={(event) => set('name', event.target.value)}
            maxLength={FIELD_MAX}
            required
            error={missing(fields.name)}
            testId="chart-name"
          />
          <SelectField
            label={t('chart.type')}
            value={fields.chartType}
            onChange={(event) => set('chartType', event.target.value as ChartType)}
            testId="chart-type"
          >
            {CHART_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`chart.types.${type}`)}
              </option>
            ))}
          </SelectField>
          <TextField
            label={t('chart.label')}
            value={fields.label}
            onChange={(event) => set('label', event.target.value)}
            maxLength={FIELD_MAX}
            required
            error={missing(fields.label)}
            hint={t('chart.labelHint')}
            testId="chart-label"
          />
          <TextField
            label={t('chart.dataName')}
            value={fields.dataName}
            onChange={(event) => set('dataName', event.target.value)}
            maxLength={FIELD_MAX}
            required
            error={missing(fields.dataName)}
            hint={t('chart.dataNameHint')}
            testId="chart-data-name"
          />
          <TextField
            label={t('chart.xLabel')}
            value={fields.xLabel}
            onChange={(event) => set('xLabel', event.target.value)}
            maxLength={FIELD_MAX}
            testId="chart-x-label"
          />
          <TextField
            label={t('chart.yLabel')}
            value={fields.yLabel}
            onChange={(event) => set('yLabel', event.target.value)}
            maxLength={FIELD_MAX}
            testId="chart-y-label"
          />
          <SelectField
            label={t('chart.direction')}
            value={fields.direction}
            onChange={(event) => set('direction', event.target.value === 'horizontal' ? 'horizontal' : 'vertical')}
            className="field-span-2"
            testId="chart-direction"
          >
            <option value="vertical">{t('chart.vertical')}</option>
            <option value="horizontal">{t('chart.horizontal')}</option>
          </SelectField>
        </div>
        <div className="modal-footer modal-footer-inline">
          <Button variant="secondary" onClick={onClose}>
            {tApp('common.cancel')}
          </Button>
          <Button type="submit" variant="primary" data-testid="chart-submit">
            {editing ? t('chart.save') : t('chart.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
