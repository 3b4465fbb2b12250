import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ERR, LIMITS, templateCreateRequest, type TemplateSummary } from '@eln/shared';
import { apiErrorText, call, fieldErrorsOf, isApiError } from '../../api';
import { currentLanguage } from '../../i18n';
import { fieldText, toErrorMap, validateForm, type FieldErrorMap } from '../../lib/forms';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { TextAreaField, TextField } from '../../ui/Field';
import { InlineAlert } from '../../ui/InlineAlert';

/**
 * Names a new template (trimmed, 1-25, unique) and opens it in the editor; with `initial`, renames that
 * template (and changes its description) under the same rules.
 */
export function TemplateCreateDialog({
  initial,
  onClose,
  onCreated,
}: {
  initial?: Pick<TemplateSummary, 'templateNo' | 'title' | 'description'>;
  onClose(): void;
  onCreated(templateNo: number): void;
}) {
  const { t } = useTranslation('template');
  const language = currentLanguage();
  const [title, setTitle] = useState(initial?.title ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const titleRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const checked = validateForm(templateCreateRequest, { title, description });
    if (!checked.ok) {
      setErrors(checked.errors);
      titleRef.current?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      if (initial) {
        await call(api.templates.rename, { templateNo: initial.templateNo, ...checked.data });
        onCreated(initial.templateNo);
      } else {
        const created = await call(api.templates.create, checked.data);
        onCreated(created.templateNo);
      }
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length) setErrors(toErrorMap(fields));
      else if (isApiError(error) && error.status === ERR.templateDuplicate)
        setErrors({ title: { field: 'title', reason: 'invalidValue', message: apiErrorText(error, language) } });
      else setFailure(apiErrorText(error, language));
      titleRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  const titleError = errors.title?.message ?? fieldText(errors, 'title', language);
  return (
    <Dialog
      title={initial ? t('editor.rename') : t('create.title')}
      onClose={onClose}
      testId="template-create-dialog"
      initialFocus={titleRef}
      size="md"
    >
      <form onSubmit={(event) => void submit(event)} noValidate className="form">
        {failure ? <InlineAlert tone="error">{failure}</InlineAlert> : null}
        <TextField
          ref={titleRef}
          label={t('create.name')}
          required
          value={title}
          maxLength={LIMITS.templateTitle}
          counter={{ length: title.trim().length, max: LIMITS.templateTitle }}
          error={titleError}
          onChange={(event) => setTitle(event.target.value)}
          testId="template-create-title"
        />
        <TextAreaField
          label={t('create.description')}
          hint={t('create.descriptionHint')}
          value={description}
          maxLength={LIMITS.projectDescription}
          counter={{ length: description.length, max: LIMITS.projectDescription }}
          error={fieldText(errors, 'description', language)}
          onChange={(event) => setDescription(event.target.value)}
          testId="template-create-description"
        />
        <div className="modal-footer modal-footer-inline">
          <Button variant="secondary" onClick={onClose}>
            {t('create.cancel')}
          </Button>
          <Button type="submit" variant="primary" loading={busy} data-testid="template-create-submit">
            {initial ? t('editor.rename') : t('create.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
