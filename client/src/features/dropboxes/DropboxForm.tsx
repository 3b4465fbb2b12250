import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@eln/shared';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';

export interface DropboxBasics {
  title: string;
  status: 'Y' | 'N';
}

/** A dropbox's title and status; `children` go between the fields and the actions (the import). */
export function DropboxBasicsFields({
  value,
  onChange,
  titleError,
}: {
  value: DropboxBasics;
  onChange: (next: DropboxBasics) => void;
  titleError: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <div className="form-section dropbox-basics">
      <TextField
        label={t('dropbox.fields.title')}
        value={value.title}
        maxLength={LIMITS.dropboxName}
        counter={{ length: value.title.length, max: LIMITS.dropboxName }}
        required
        error={titleError}
        onChange={(e) => onChange({ ...value, title: e.target.value })}
        testId="dropbox-title"
      />
      <SelectField
        label={t('dropbox.fields.status')}
        value={value.status}
        onChange={(e) => onChange({ ...value, status: e.target.value === 'N' ? 'N' : 'Y' })}
        testId="dropbox-status-select"
      >
        <option value="Y">{t('dropbox.status.used')}</option>
        <option value="N">{t('dropbox.status.unused')}</option>
      </SelectField>
    </div>
  );
}

/** The form frame: a submit that shows its progress, and cancel. */
export function DropboxFormFrame({
  onSubmit,
  busy,
  submitLabel,
  submitDisabled,
  onCancel,
  children,
}: {
  onSubmit: () => void;
  busy: boolean;
  submitLabel: string;
  submitDisabled?: boolean;
  onCancel: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="form dropbox-form" onSubmit={submit} noValidate>
      <div className="card form-card">{children}</div>
      <div className="form-actions">
        <Button variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button variant="primary" type="submit" loading={busy} disabled={submitDisabled} data-testid="dropbox-submit">
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
