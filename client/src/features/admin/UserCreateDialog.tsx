import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { adminUserCreateRequest } from '@eln/shared';
import { call } from '../../api';
import { currentLanguage } from '../../i18n';
import { focusFirstInvalid, validateForm, type FieldErrorMap } from '../../lib/forms';
import { useLoad } from '../../lib/useLoad';
import { Dialog } from '../../modals/Dialog';
import { alertApiError } from '../../modals/store';
import { Button } from '../../ui/Button';
import { UserPlusIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { loadDepartmentRows } from './DepartmentSelect';
import { classifyUserError } from './userErrors';
import { createBody, NEW_USER, UserFields, type UserFormValues } from './UserFields';

/** The "New user" dialog of `/admin`. */
export function UserCreateDialog({ onClose, onCreated }: { onClose(): void; onCreated(user: { userNo: number; name: string }): void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const form = useRef<HTMLFormElement>(null);
  const departments = useLoad((signal) => loadDepartmentRows(signal), 'departments');
  const [values, setValues] = useState<UserFormValues>(NEW_USER);
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [extra, setExtra] = useState<Partial<Record<'userId' | 'departmentCode', string>>>({});
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setExtra({});
    const body = createBody(values);
    const checked = validateForm(adminUserCreateRequest, body);
    if (!checked.ok) {
      setErrors(checked.errors);
      focusFirstInvalid(form.current);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const answer = await call<{ userNo: number }>('/v1/admin/user/create', body);
      onCreated({ userNo: answer.userNo, name: checked.data.name });
    } catch (error) {
      setBusy(false);
      const problem = classifyUserError(error, language);
      if (problem.kind === 'fields') setErrors(problem.errors);
      else if (problem.kind === 'extra') setExtra({ [problem.field]: problem.message });
      else if (problem.kind === 'other' || problem.kind === 'access') void alertApiError(error);
      focusFirstInvalid(form.current);
    }
  };

  return (
    <Dialog
      title={t('admin.userForm.createTitle')}
      icon={<UserPlusIcon size={20} />}
      size="lg"
      onClose={busy ? undefined : onClose}
      testId="user-create-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy} data-testid="user-create-cancel">
            {t('common.cancel')}
          </Button>
          <Button variant="primary" type="submit" form="user-create-form" loading={busy} data-testid="user-create-submit">
            {t('admin.userForm.create')}
          </Button>
        </>
      }
    >
      <form id="user-create-form" ref={form} className="form" onSubmit={onSubmit} noValidate>
        {departments.phase === 'error' ? <InlineAlert tone="error">{t('admin.departments.loadFailed')}</InlineAlert> : null}
        <UserFields
          mode="create"
          values={values}
          onChange={(patch) => setValues((current) => ({ ...current, ...patch }))}
          errors={errors}
          extraErrors={extra}
          departments={departments.data ?? (departments.phase === 'error' ? [] : undefined)}
        />
      </form>
    </Dialog>
  );
}
