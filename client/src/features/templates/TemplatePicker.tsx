import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@eln/shared';
import { useApiQuery } from '../../api/queries';
import { Button } from '../../ui/Button';
import { EyeIcon } from '../../ui/icons';
import { RevisionPreview } from './TemplateHistory';
import './templates.css';

/**
 * The note-create dialog's choice of what a new note starts from: blank, or an approved template (its
 * latest approved version), with a preview of what will be copied.
 */
export function TemplatePicker({ value, onChange }: { value: number | null; onChange(templateNo: number | null): void }) {
  const { t } = useTranslation('template');
  const approved = useApiQuery(api.templates.choices, {});
  // Loading: null (the choice waits); a failure leaves the blank note as the only choice.
  const choices = approved.phase === 'error' ? [] : (approved.data?.list ?? null);
  const [previewing, setPreviewing] = useState(false);

  const chosen = choices?.find((c) => c.templateNo === value) ?? null;
  return (
    <div className="template-picker">
      <label className="template-picker-label" htmlFor="new-note-template">
        {t('picker.label')}
      </label>
      <select
        id="new-note-template"
        className="input"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value ? Number(event.target.value) : null)}
        disabled={choices === null}
        data-testid="new-note-template"
      >
        <option value="">{choices === null ? t('picker.loading') : t('picker.blank')}</option>
        {(choices ?? []).map((choice) => (
          <option key={choice.templateNo} value={choice.templateNo}>
            {t('picker.option', { title: choice.title, version: choice.version })}
          </option>
        ))}
      </select>
      {chosen ? (
        <Button
          variant="ghost"
          size="sm"
          icon={<EyeIcon size={14} />}
          onClick={() => setPreviewing(true)}
          data-testid="new-note-template-preview"
        >
          {t('picker.preview')}
        </Button>
      ) : null}
      {previewing && chosen ? (
        <RevisionPreview
          templateNo={chosen.templateNo}
          title={t('picker.previewTitle', { title: chosen.title, version: chosen.version })}
          onClose={() => setPreviewing(false)}
        />
      ) : null}
    </div>
  );
}
