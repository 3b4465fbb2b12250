import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ERR, errorMessage, fieldMessage, LIMITS, MAX_PROJECT_PARTICIPANTS, projectCreateRequest, type SignatureList } from '@eln/shared';
import { isApiError } from '../../api';
import { currentLanguage } from '../../i18n';
import { fieldText, validateForm } from '../../lib/forms';
import { useFormSubmit, type FormControls } from '../../lib/useFormSubmit';
import { alertApiError, confirm } from '../../modals/store';
import { Button } from '../../ui/Button';
import { TextAreaField, TextField } from '../../ui/Field';
import { ParticipantPicker } from '../people/ParticipantPicker';
import { toSignatureList, type Selection } from '../people/selection';

export interface ProjectFormValues {
  title: string;
  description: string;
  selection: Selection;
}

export interface ProjectPayload {
  title: string;
  description: string;
  signatureList: SignatureList;
}

interface ProjectFormProps {
  initial: ProjectFormValues;
  /** Sends the project; rejects with the call's error, which the form shows beside the right field. */
  submit(payload: ProjectPayload): Promise<void>;
  onCancel(): void;
  submitLabel: string;
}

function missingOf(error: unknown): string[] {
  if (!isApiError(error) || typeof error.data !== 'object' || error.data === null) return [];
  const missing = (error.data as { missing?: unknown }).missing;
  return Array.isArray(missing) ? missing.filter((entry): entry is string => typeof entry === 'string') : [];
}

const sameSelection = (a: Selection, b: Selection) => {
  const left = toSignatureList(a);
  const right = toSignatureList(b);
  return left.user === right.user && left.department === right.department;
};

/**
 * Title (at most 25), description (at most 100) and participants, checked with the shared schema before
 * sending; the server's refusals (field errors, duplicate title, unknown participants) land beside the
 * fields, anything else in the alert modal.
 */
export function ProjectForm({ initial, submit, onCancel, submitLabel }: ProjectFormProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [title, setTitle] = useState(initial.title);
  const [description, setDescription] = useState(initial.description);
  const [selection, setSelection] = useState(initial.selection);
  const [titleTaken, setTitleTaken] = useState<string | null>(null);
  const [pickerProblem, setPickerProblem] = useState<string | null>(null);
  const [invalidUserIds, setInvalidUserIds] = useState<string[]>([]);

  const showRefusal = (error: unknown, controls: FormControls) => {
    if (controls.showFieldErrors(error)) {
      controls.focusFirstInvalid();
    } else if (isApiError(error) && error.status === ERR.projectDuplicate) {
      setTitleTaken(errorMessage(ERR.projectDuplicate, language));
      controls.focusFirstInvalid();
    } else if (isApiError(error) && error.status === ERR.participantMissing) {
      const missing = missingOf(error);
      const names = missing.map(
        (userId) => selection.users.find((user) => user.userId.toLowerCase() === userId.toLowerCase())?.name ?? userId,
      );
      setInvalidUserIds(missing);
      setPickerProblem(
        names.length ? t('project.missingParticipants', { list: names.join(', ') }) : errorMessage(ERR.participantMissing, language),
      );
    } else if (isApiError(error) && error.status === ERR.departmentMissing) {
      setPickerProblem(errorMessage(ERR.departmentMissing, language));
    } else if (!(isApiError(error) && error.httpStatus === 401)) {
      void alertApiError(error);
    }
  };

  const form = useFormSubmit({
    reset: () => {
      setTitleTaken(null);
      setPickerProblem(null);
      setInvalidUserIds([]);
    },
    check: () => validateForm(projectCreateRequest, { title, description, signatureList: toSignatureList(selection) }),
    send: (data) => submit({ title: data.title, description: data.description, signatureList: data.signatureList }),
    onError: showRefusal,
  });
  const { errors, busy } = form;

  const forget = (...fields: string[]) =>
    form.setErrors((current) => {
      if (!fields.some((field) => current[field])) return current;
      const next = { ...current };
      for (const field of fields) delete next[field];
      return next;
    });

  const dirty = title !== initial.title || description !== initial.description || !sameSelection(selection, initial.selection);

  const cancel = async () => {
    if (dirty && !(await confirm(t('project.discardChanges')))) return;
    onCancel();
  };

  // The shared signatureList rules carry no numbers with their reasons: the picker says it in its own words.
  const userError = errors['signatureList.user'];
  const userErrorText = userError
    ? userError.reason === 'tooFew'
      ? t('picker.atLeastOne')
      : fieldMessage({ reason: userError.reason, params: { min: 1, max: MAX_PROJECT_PARTICIPANTS, ...userError.params } }, language)
    : undefined;
  const pickerError =
    pickerProblem ??
    userErrorText ??
    fieldText(errors, 'signatureList.department', language) ??
    fieldText(errors, 'signatureList', language);

  return (
    <form ref={form.ref} className="form project-form" onSubmit={form.onSubmit} noValidate data-testid="project-form">
      <div className="card form-card">
        <div className="form-grid">
          <TextField
            label={t('project.fields.title')}
            required
            name="title"
            value={title}
            maxLength={LIMITS.projectTitle}
            counter={{ length: title.length, max: LIMITS.projectTitle }}
            placeholder={t('project.fields.titlePlaceholder')}
            onChange={(event) => {
              setTitle(event.target.value);
              setTitleTaken(null);
              forget('title');
            }}
            error={titleTaken ?? fieldText(errors, 'title', language)}
            testId="project-title-input"
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the project form opens to type the title, its first field
            autoFocus
            autoComplete="off"
          />
          <TextAreaField
            label={t('project.fields.description')}
            name="description"
            value={description}
            rows={3}
            maxLength={LIMITS.projectDescription}
            counter={{ length: description.length, max: LIMITS.projectDescription }}
            placeholder={t('project.fields.descriptionPlaceholder')}
            onChange={(event) => {
              setDescription(event.target.value);
              forget('description');
            }}
            error={fieldText(errors, 'description', language)}
            testId="project-description-input"
          />
        </div>
      </div>
      <div className="card form-card">
        <ParticipantPicker
          label={t('project.fields.participants')}
          value={selection}
          onChange={(next) => {
            setSelection(next);
            setPickerProblem(null);
            forget('signatureList', 'signatureList.user', 'signatureList.department');
          }}
          error={pickerError}
          invalidUserIds={invalidUserIds}
          disabled={busy}
        />
      </div>
      <div className="form-actions">
        <Button variant="secondary" onClick={() => void cancel()} disabled={busy} data-testid="project-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="primary" loading={busy} data-testid="project-save">
          {busy ? t('common.saving') : submitLabel}
        </Button>
      </div>
    </form>
  );
}
