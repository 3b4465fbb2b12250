import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_LEVEL, AUTH_FLAG_NAMES, LIMITS, PASSWORD_POLICY, type AdminUserRow, type AuthFlags } from '@eln/shared';
import { currentLanguage } from '../../i18n';
import { fieldText, type FieldErrorMap } from '../../lib/forms';
import { SelectField, Switch, TextField } from '../../ui/Field';
import { PasswordToggle } from '../../ui/PasswordToggle';
import type { DepartmentTreeRow } from '../people/departmentTree';
import { DepartmentSelect } from './DepartmentSelect';
import { FLAG_LETTERS } from './FlagBadges';

export interface UserFormValues {
  userId: string;
  name: string;
  /** On create: the password. On edit: a new password, used only when `setPassword` is on. */
  password: string;
  setPassword: boolean;
  employeeNo: string;
  phone: string;
  departmentCode: string;
  level: number;
  auth: AuthFlags;
  active: boolean;
}

export const NEW_USER: UserFormValues = {
  userId: '',
  name: '',
  password: '',
  setPassword: true,
  employeeNo: '',
  phone: '',
  departmentCode: '',
  level: 1,
  auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' },
  active: true,
};

export function valuesOfUser(user: AdminUserRow): UserFormValues {
  return {
    userId: user.userId,
    name: user.name,
    password: '',
    setPassword: false,
    employeeNo: user.employeeNo ?? '',
    phone: user.phone ?? '',
    departmentCode: user.departmentCode ?? '',
    level: user.level,
    auth: { ...user.auth },
    active: user.active,
  };
}

/** The create call's body (`adminUserCreateRequest`). */
export function createBody(values: UserFormValues) {
  return {
    userId: values.userId,
    name: values.name,
    password: values.password,
    employeeNo: values.employeeNo,
    phone: values.phone.trim(),
    departmentCode: values.departmentCode || null,
    level: values.level,
    auth: values.auth,
    active: values.active,
  };
}

/** The update call's body (`adminUserUpdateRequest`): every field, the password only when one is being set. */
export function updateBody(userNo: number, values: UserFormValues) {
  return {
    userNo,
    name: values.name,
    employeeNo: values.employeeNo,
    phone: values.phone.trim(),
    departmentCode: values.departmentCode || null,
    level: values.level,
    auth: values.auth,
    active: values.active,
    ...(values.setPassword ? { password: values.password } : {}),
  };
}

const LEVELS = Array.from({ length: ADMIN_LEVEL }, (_, index) => index + 1);

interface UserFieldsProps {
  mode: 'create' | 'edit';
  values: UserFormValues;
  onChange(patch: Partial<UserFormValues>): void;
  errors: FieldErrorMap;
  /** Messages that are not schema reasons (a duplicate ID, an unknown department). */
  extraErrors?: Partial<Record<'userId' | 'departmentCode', string>>;
  departments: readonly DepartmentTreeRow[] | undefined;
  /** Editing one's own account: level and active are explained. */
  self?: boolean;
  /** Where a refusal about level or active shows (the 5002 answer). */
  accessAlert?: ReactNode;
}

/**
 * The fields of a user account, grouped as account, profile and access. Shared by the create dialog and
 * the edit page. Test ids: `user-id-input`, `user-name-input`, `user-password-input`, `user-set-password`,
 * `user-employee-input`, `user-phone-input`, `user-department-select`, `user-level-select`,
 * `user-flag-<project|schema|dropbox|template>`, `user-active`.
 */
export function UserFields({ mode, values, onChange, errors, extraErrors = {}, departments, self = false, accessAlert }: UserFieldsProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [showPassword, setShowPassword] = useState(false);
  const error = (field: string) => fieldText(errors, field, language);
  // The edit page's sections sit under its h1, the create dialog's under the dialog's h2.
  const SectionHeading = mode === 'edit' ? 'h2' : 'h3';

  const passwordField = (
    <TextField
      label={mode === 'create' ? t('admin.userForm.password') : t('admin.userForm.newPassword')}
      required={mode === 'create'}
      type={showPassword ? 'text' : 'password'}
      name="new-password"
      autoComplete="new-password"
      value={values.password}
      maxLength={PASSWORD_POLICY.maxLength}
      onChange={(event) => onChange({ password: event.target.value })}
      error={error('password')}
      hint={t('admin.userForm.passwordHint', { min: PASSWORD_POLICY.minLength })}
      testId="user-password-input"
      trailing={<PasswordToggle shown={showPassword} onToggle={() => setShowPassword((shown) => !shown)} />}
    />
  );

  return (
    <div className="user-fields">
      <section className="form-section" aria-labelledby="user-section-account">
        <SectionHeading className="form-section-title" id="user-section-account">
          {t('admin.userForm.account')}
        </SectionHeading>
        <div className="form-grid form-grid-2">
          {mode === 'create' ? (
            <TextField
              label={t('admin.userForm.userId')}
              required
              type="email"
              inputMode="email"
              autoComplete="off"
              value={values.userId}
              maxLength={LIMITS.email}
              placeholder={t('signin.userIdPlaceholder')}
              onChange={(event) => onChange({ userId: event.target.value })}
              error={extraErrors.userId ?? error('userId')}
              testId="user-id-input"
              // eslint-disable-next-line jsx-a11y/no-autofocus -- a new user's form opens to type this field, its first
              autoFocus
            />
          ) : (
            <TextField
              label={t('admin.userForm.userId')}
              value={values.userId}
              readOnly
              disabled
              hint={t('admin.userForm.userIdFixed')}
              testId="user-id-input"
            />
          )}
          <TextField
            label={t('admin.userForm.name')}
            required
            autoComplete="off"
            value={values.name}
            maxLength={LIMITS.userName}
            onChange={(event) => onChange({ name: event.target.value })}
            error={error('name')}
            testId="user-name-input"
          />
          {mode === 'create' ? (
            passwordField
          ) : (
            <div className="field-span-2 password-reset">
              <Switch
                label={t('admin.userForm.setPassword')}
                description={t('admin.userForm.setPasswordHint')}
                checked={values.setPassword}
                onChange={(event) => onChange({ setPassword: event.target.checked, password: '' })}
                testId="user-set-password"
              />
              {values.setPassword ? passwordField : null}
            </div>
          )}
        </div>
      </section>

      <section className="form-section" aria-labelledby="user-section-profile">
        <SectionHeading className="form-section-title" id="user-section-profile">
          {t('admin.userForm.profile')}
        </SectionHeading>
        <div className="form-grid form-grid-2">
          <TextField
            label={t('admin.userForm.employeeNo')}
            autoComplete="off"
            value={values.employeeNo}
            maxLength={LIMITS.employeeNo}
            onChange={(event) => onChange({ employeeNo: event.target.value })}
            error={error('employeeNo')}
            testId="user-employee-input"
          />
          <TextField
            label={t('admin.userForm.phone')}
            type="tel"
            inputMode="tel"
            autoComplete="off"
            value={values.phone}
            placeholder={t('findId.phonePlaceholder')}
            onChange={(event) => onChange({ phone: event.target.value })}
            error={error('phone')}
            hint={t('admin.userForm.phoneHint')}
            testId="user-phone-input"
          />
          <div className="field-span-2">
            <DepartmentSelect
              label={t('admin.userForm.department')}
              value={values.departmentCode}
              onChange={(departmentCode) => onChange({ departmentCode })}
              rows={departments}
              emptyLabel={t('admin.userForm.noDepartment')}
              error={extraErrors.departmentCode ?? error('departmentCode')}
              testId="user-department-select"
            />
          </div>
        </div>
      </section>

      <section className="form-section" aria-labelledby="user-section-access">
        <SectionHeading className="form-section-title" id="user-section-access">
          {t('admin.userForm.access')}
        </SectionHeading>
        {accessAlert}
        {self ? <p className="form-note">{t('admin.userForm.selfHint')}</p> : null}
        <div className="form-grid form-grid-2">
          <SelectField
            label={t('admin.userForm.level')}
            value={String(values.level)}
            onChange={(event) => onChange({ level: Number(event.target.value) })}
            error={error('level')}
            hint={t('admin.userForm.levelHint', { level: ADMIN_LEVEL })}
            testId="user-level-select"
          >
            {LEVELS.map((level) => (
              <option key={level} value={level}>
                {level === ADMIN_LEVEL ? t('admin.userForm.levelAdmin', { level }) : t('admin.userForm.levelOption', { level })}
              </option>
            ))}
          </SelectField>
          <div className="field">
            <span className="field-label">{t('admin.userForm.status')}</span>
            <Switch
              label={values.active ? t('admin.users.active') : t('admin.users.inactive')}
              description={t('admin.userForm.activeHint')}
              checked={values.active}
              onChange={(event) => onChange({ active: event.target.checked })}
              testId="user-active"
            />
          </div>
        </div>
        <fieldset className="field flag-fieldset">
          <legend className="field-label">{t('admin.userForm.permissions')}</legend>
          <div className="flag-grid">
            {AUTH_FLAG_NAMES.map((flag) => (
              <div key={flag} className={values.auth[flag] === 'Y' ? 'flag-card on' : 'flag-card'}>
                <span className="flag-letter" aria-hidden="true">
                  {FLAG_LETTERS[flag]}
                </span>
                <Switch
                  label={t(`admin.flags.${flag}`)}
                  description={t(`admin.userForm.flagHints.${flag}`)}
                  checked={values.auth[flag] === 'Y'}
                  onChange={(event) => onChange({ auth: { ...values.auth, [flag]: event.target.checked ? 'Y' : 'N' } })}
                  testId={`user-flag-${flag}`}
                />
              </div>
            ))}
          </div>
        </fieldset>
      </section>
    </div>
  );
}
