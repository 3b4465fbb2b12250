import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { fieldMessage, PASSWORD_POLICY, passwordResetRequest } from '@eln/shared';
import { apiErrorText, call, fieldErrorsOf } from '../../api';
import { currentLanguage } from '../../i18n';
import { fieldText, focusFirstInvalid, toErrorMap, validateForm, type FieldErrorMap } from '../../lib/forms';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { ArrowLeftIcon, LockIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { usePageTitle } from '../../ui/usePageTitle';
import type { SignInNoticeState } from './SignInForm';

/** /signin?reset=<token>: choose a new password (the shared `newPassword` rule), then back to sign-in. */
export function ResetPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const navigate = useNavigate();
  usePageTitle(t('reset.pageTitle'));
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const checked = validateForm(passwordResetRequest, { token, password });
    const nextErrors: FieldErrorMap = checked.ok ? {} : { ...checked.errors };
    if (!nextErrors.password && password !== confirmation) nextErrors.confirm = { field: 'confirm', reason: 'passwordMismatch' };
    if (!checked.ok || nextErrors.confirm) {
      setErrors(nextErrors);
      if (nextErrors.token) setFailure(fieldMessage(nextErrors.token, language));
      focusFirstInvalid(form.current);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await call('/v1/user/password/reset', checked.data);
      const state: SignInNoticeState = { notice: 'passwordReset' };
      navigate('/signin', { replace: true, state });
    } catch (error) {
      setBusy(false);
      const fields = fieldErrorsOf(error);
      if (fields.some((field) => field.field === 'password')) setErrors(toErrorMap(fields));
      else setFailure(apiErrorText(error, language));
    }
  };

  return (
    <>
      <div className="auth-card-icon">
        <LockIcon size={22} />
      </div>
      <h1 className="auth-title">{t('reset.heading')}</h1>
      <p className="auth-subtitle">{t('reset.intro', { min: PASSWORD_POLICY.minLength })}</p>
      {failure ? (
        <InlineAlert tone="error" testId="reset-error">
          {failure}
        </InlineAlert>
      ) : null}
      <form ref={form} className="form" onSubmit={onSubmit} noValidate data-testid="reset-form">
        <TextField
          label={t('reset.password')}
          type="password"
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={fieldText(errors, 'password', language)}
          minLength={PASSWORD_POLICY.minLength}
          maxLength={PASSWORD_POLICY.maxLength}
          testId="reset-password"
          autoFocus
        />
        <TextField
          label={t('reset.confirm')}
          type="password"
          name="confirm"
          autoComplete="new-password"
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
          error={fieldText(errors, 'confirm', language)}
          maxLength={PASSWORD_POLICY.maxLength}
          testId="reset-confirm"
        />
        <Button type="submit" variant="primary" size="lg" block loading={busy} data-testid="reset-submit">
          {busy ? t('reset.submitting') : t('reset.submit')}
        </Button>
      </form>
      <Link to="/signin" replace className="back-link">
        <ArrowLeftIcon size={16} />
        {t('reset.backToSignIn')}
      </Link>
    </>
  );
}
