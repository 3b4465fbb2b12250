import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { ERR, signInRequest } from '@eln/shared';
import { ApiError, apiErrorText, fieldErrorsOf, isApiError, retryAfterOf } from '../../api';
import type { FromState } from '../../app/guards';
import { currentLanguage } from '../../i18n';
import { fieldText, focusFirstInvalid, toErrorMap, validateForm, type FieldErrorMap } from '../../lib/forms';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../lib/storage';
import { alert } from '../../modals/store';
import { signIn } from '../../session/actions';
import { Button } from '../../ui/Button';
import { Checkbox, TextField } from '../../ui/Field';
import { EyeIcon, EyeOffIcon, KeyIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { usePageTitle } from '../../ui/usePageTitle';
import { FindIdDialog } from './FindIdDialog';
import { FindPasswordDialog } from './FindPasswordDialog';
import { secondsLeft } from './lockout';

export interface SignInNoticeState extends FromState {
  notice?: 'passwordReset';
}

export function SignInForm() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const navigate = useNavigate();
  const location = useLocation();
  const state = (location.state ?? {}) as SignInNoticeState;
  usePageTitle(t('signin.pageTitle'));

  const savedUserId = readStorage(STORAGE_KEYS.savedUserId);
  const [userId, setUserId] = useState(savedUserId ?? '');
  const [password, setPassword] = useState('');
  const [saveId, setSaveId] = useState(savedUserId !== null);
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [lockedUntil, setLockedUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<'findId' | 'findPassword' | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  const remaining = secondsLeft(lockedUntil, now);
  useEffect(() => {
    if (lockedUntil === null) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [lockedUntil]);
  useEffect(() => {
    if (lockedUntil !== null && remaining === 0) {
      setLockedUntil(null);
      setFailure(null);
    }
  }, [lockedUntil, remaining]);

  useEffect(() => {
    if (savedUserId) passwordInput.current?.focus();
  }, [savedUserId]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || remaining > 0) return;
    setFailure(null);
    const checked = validateForm(signInRequest, { userId, password });
    if (!checked.ok) {
      setErrors(checked.errors);
      focusFirstInvalid(form.current);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await signIn(checked.data);
      writeStorage(STORAGE_KEYS.savedUserId, saveId ? checked.data.userId : null);
      const from = state.from;
      navigate(from && from.pathname !== '/signin' ? `${from.pathname}${from.search}${from.hash}` : '/', { replace: true });
    } catch (error) {
      setBusy(false);
      setPassword('');
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) {
        setErrors(toErrorMap(fields));
        focusFirstInvalid(form.current);
        return;
      }
      const apiError = isApiError(error) ? error : new ApiError(ERR.unexpected, '', 0);
      if (apiError.status === ERR.tooManyAttempts) {
        const start = Date.now();
        setNow(start);
        setLockedUntil(start + (retryAfterOf(apiError) ?? 60) * 1000);
      }
      setFailure(apiError);
      passwordInput.current?.focus();
    }
  };

  const failureText = failure ? apiErrorText(failure, language, remaining > 0 ? remaining : undefined) : null;

  return (
    <>
      <div className="auth-card-icon">
        <KeyIcon size={22} />
      </div>
      <h1 className="auth-title">{t('signin.heading')}</h1>
      <p className="auth-subtitle">{t('signin.subheading')}</p>

      {state.notice === 'passwordReset' && !failure ? (
        <InlineAlert tone="success" testId="signin-notice">
          {t('signin.resetDone')}
        </InlineAlert>
      ) : null}
      {failureText ? (
        <InlineAlert tone="error" testId="signin-error">
          {failureText}
        </InlineAlert>
      ) : null}

      <form ref={form} className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('signin.userId')}
          type="email"
          name="userId"
          autoComplete="username"
          inputMode="email"
          placeholder={t('signin.userIdPlaceholder')}
          value={userId}
          onChange={(event) => setUserId(event.target.value)}
          error={fieldText(errors, 'userId', language)}
          testId="signin-userId"
          autoFocus={!savedUserId}
        />
        <TextField
          ref={passwordInput}
          label={t('signin.password')}
          type={showPassword ? 'text' : 'password'}
          name="password"
          autoComplete="current-password"
          placeholder={t('signin.passwordPlaceholder')}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={fieldText(errors, 'password', language)}
          testId="signin-password"
          trailing={
            <button
              type="button"
              className="icon-btn icon-btn-sm"
              onClick={() => setShowPassword((shown) => !shown)}
              aria-label={showPassword ? t('signin.hidePassword') : t('signin.showPassword')}
              aria-pressed={showPassword}
              title={showPassword ? t('signin.hidePassword') : t('signin.showPassword')}
            >
              {showPassword ? <EyeOffIcon size={17} /> : <EyeIcon size={17} />}
            </button>
          }
        />
        <div className="form-row-between">
          <Checkbox label={t('signin.saveId')} checked={saveId} onChange={(event) => setSaveId(event.target.checked)} testId="signin-saveId" />
          <div className="link-group">
            <button type="button" className="link-btn" onClick={() => setDialog('findId')} data-testid="signin-find-id">
              {t('signin.findId')}
            </button>
            <span className="link-sep" aria-hidden="true" />
            <button type="button" className="link-btn" onClick={() => setDialog('findPassword')} data-testid="signin-find-password">
              {t('signin.findPassword')}
            </button>
          </div>
        </div>
        <Button type="submit" variant="primary" size="lg" block loading={busy} disabled={remaining > 0} data-testid="signin-submit">
          {busy ? t('signin.submitting') : t('signin.submit')}
        </Button>
      </form>

      <div className="divider">
        <span>{t('signin.or')}</span>
      </div>
      <Button
        variant="secondary"
        size="lg"
        block
        icon={<KeyIcon size={17} />}
        onClick={() => void alert(t('signin.ssoNotReady'), { tone: 'info' })}
        data-testid="signin-sso"
      >
        {t('signin.sso')}
      </Button>

      {dialog === 'findId' ? <FindIdDialog onClose={() => setDialog(null)} /> : null}
      {dialog === 'findPassword' ? <FindPasswordDialog initialUserId={userId} onClose={() => setDialog(null)} /> : null}
    </>
  );
}
