import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminUserCreateRequest, api } from '@eln/shared';
import { call } from '../../api';
import { currentLanguage } from '../../i18n';
import { validateForm } from '../../lib/forms';
import { useFormSubmit } from '../../lib/useFormSubmit';
import { Dialog } from '../../modals/Dialog';
import { alertApiError } from '../../modals/store';
import { Button } from '../../ui/Button';
import { UserPlusIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { useDepartmentRows } from './DepartmentSelect';
import { classifyUserError } from './userErrors';
import { createBody, NEW_USER, UserFields, type UserFormValues } from './UserFields';

/** The "New user" dialog of `/admin`. */
export function UserCreateDialog({ onClose, onCreated }: { onClose(): void; onCreated(user: { userNo: number; name: string }): void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const departments = useDepartmentRows();
  const [values, setValues] = useState<UserFormValues>(NEW_USER);
  const [extra, setExtra] = useState<Partial<Record<'userId' | 'departmentCode', string>>>({});
  const body = createBody(values);
  const form = useFormSubmit({
    reset: () => setExtra({}),
    check: () => validateForm(adminUserCreateRequest, body),
    send: async (data) => {
      const answer = await call(api.users.create, body);
      onCreated({ userNo: answer.userNo, name: data.name });
    },
    onError: (error, controls) => {
      const problem = classifyUserError(error, language);
      if (problem.kind === 'fields') controls.setErrors(problem.errors);
      else if (problem.kind === 'extra') setExtra({ [problem.field]: problem.message });
      else if (problem.kind === 'other' || problem.kind === 'access') void alertApiError(error);
      controls.focusFirstInvalid();
    },
    leavesOnSuccess: true,
  });

  return (
    <Dialog
      title={t('admin.userForm.createTitle')}
      icon={<UserPlusIcon size={20} />}
      size="lg"
      onClose={form.busy ? undefined : onClose}
      testId="user-create-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={form.busy} data-testid="user-create-cancel">
            {t('common.cancel')}
          </Button>
          <Button variant="primary" type="submit" form="user-create-form" loading={form.busy} data-testid="user-create-submit">
            {t('admin.userForm.create')}
          </Button>
        </>
      }
    >
      <form id="user-create-form" ref={form.ref} className="form" onSubmit={form.onSubmit} noValidate>
        {departments.phase === 'error' ? <InlineAlert tone="error">{t('admin.departments.loadFailed')}</InlineAlert> : null}
        <UserFields
          mode="create"
          values={values}
          onChange={(patch) => setValues((current) => ({ ...current, ...patch }))}
          errors={form.errors}
          extraErrors={extra}
          departments={departments.data ?? (departments.phase === 'error' ? [] : undefined)}
        />
      </form>
    </Dialog>
  );
}
