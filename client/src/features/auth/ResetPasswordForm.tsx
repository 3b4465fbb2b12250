import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { authCalls, fieldMessage, PASSWORD_POLICY, passwordResetRequest } from '@eln/shared';
import { apiErrorText, call, fieldErrorsOf } from '../../api';
import { currentLanguage } from '../../i18n';
import { toErrorMap, validateForm, type FieldErrorMap } from '../../lib/forms';
import { useFormSubmit } from '../../lib/useFormSubmit';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { ArrowLeftIcon, LockIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { usePageTitle } from '../../ui/usePageTitle';
import type { SignInNoticeState } from './SignInForm';

/** The shared reset rule, and the confirmation matching the new password (once that is valid itself). */
function checkNewPassword(token: string, password: string, confirmation: string) {
  const checked = validateForm(passwordResetRequest, { token, password });
  const errors: FieldErrorMap = checked.ok ? {} : { ...checked.errors };
  if (!errors.password && password !== confirmation) errors.confirm = { field: 'confirm', reason: 'passwordMismatch' };
  if (!checked.ok || errors.confirm) return { ok: false as const, errors };
  return checked;
}

/** /signin?reset=<token>: choose a new password (the shared `newPassword` rule), then back to sign-in. */
export function ResetPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const navigate = useNavigate();
  usePageTitle(t('reset.pageTitle'));
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const form = useFormSubmit({
    check: (controls) => {
      const checked = checkNewPassword(token, password, confirmation);
      // A bad token is nothing the user can fix in a field: say it above the form.
      if (!checked.ok && checked.errors.token) controls.setFailure(fieldMessage(checked.errors.token, language));
      return checked;
    },
    send: async (data) => {
      await call(authCalls.resetPassword, data);
      const state: SignInNoticeState = { notice: 'passwordReset' };
      void navigate('/signin', { replace: true, state });
    },
    onError: (error, controls) => {
      const fields = fieldErrorsOf(error);
      if (fields.some((field) => field.field === 'password')) controls.setErrors(toErrorMap(fields));
      else controls.setFailure(apiErrorText(error, language));
    },
    leavesOnSuccess: true,
  });

  return (
    <>
      <div className="auth-card-icon">
        <LockIcon size={22} />
      </div>
      <h1 className="auth-title">{t('reset.heading')}</h1>
      <p className="auth-subtitle">{t('reset.intro', { min: PASSWORD_POLICY.minLength })}</p>
      {form.failure ? (
        <InlineAlert tone="error" testId="reset-error">
          {form.failure}
        </InlineAlert>
      ) : null}
      <form ref={form.ref} className="form" onSubmit={form.onSubmit} noValidate data-testid="reset-form">
        <TextField
          label={t('reset.password')}
          type="password"
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={form.fieldError('password')}
          minLength={PASSWORD_POLICY.minLength}
          maxLength={PASSWORD_POLICY.maxLength}
          testId="reset-password"
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the page is this form: it opens to type the new password, its first field
          autoFocus
        />
        <TextField
          label={t('reset.confirm')}
          type="password"
          name="confirm"
          autoComplete="new-password"
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
          error={form.fieldError('confirm')}
          maxLength={PASSWORD_POLICY.maxLength}
          testId="reset-confirm"
        />
        <Button type="submit" variant="primary" size="lg" block loading={form.busy} data-testid="reset-submit">
          {form.busy ? t('reset.submitting') : t('reset.submit')}
        </Button>
      </form>
      <Link to="/signin" replace className="back-link">
        <ArrowLeftIcon size={16} />
        {t('reset.backToSignIn')}
      </Link>
    </>
  );
}
