import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { ERR, signInRequest, ssoCalls } from '@eln/shared';
import { ApiError, apiErrorText, call, isApiError, retryAfterOf } from '../../api';
import type { FromState } from '../../app/guards';
import { currentLanguage } from '../../i18n';
import { validateForm } from '../../lib/forms';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../lib/storage';
import { useFormSubmit } from '../../lib/useFormSubmit';
import { signIn, startSingleSignOn } from '../../session/actions';
import { Button } from '../../ui/Button';
import { Checkbox, TextField } from '../../ui/Field';
import { KeyIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { PasswordToggle } from '../../ui/PasswordToggle';
import { usePageTitle } from '../../ui/usePageTitle';
import { FindIdDialog } from './FindIdDialog';
import { FindPasswordDialog } from './FindPasswordDialog';
import { secondsLeft } from './lockout';
import { UserIdField } from './UserIdField';

export interface SignInNoticeState extends FromState {
  notice?: 'passwordReset';
  /** After signing out of a single sign-on session: the provider's end-session address, offered here. */
  providerSignOutUrl?: string;
}

/**
 * Whether single sign-on is configured (the SSO button shows only then); unknown counts as no. Asked
 * without the query cache, which the first route does not load (it belongs to the signed-in screens).
 */
function useSsoEnabled(): boolean {
  const [enabled, setEnabled] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    call(ssoCalls.config, {}, { signal: controller.signal }).then(
      (answer) => setEnabled(answer.enabled),
      () => setEnabled(false),
    );
    return () => controller.abort();
  }, []);
  return enabled;
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
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [lockedUntil, setLockedUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [dialog, setDialog] = useState<'findId' | 'findPassword' | null>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const ssoEnabled = useSsoEnabled();
  const [ssoStarting, setSsoStarting] = useState(false);

  const onSso = () => {
    setSsoStarting(true);
    setFailure(null);
    // On success the browser is on its way to the provider; the button stays busy until the page goes.
    startSingleSignOn().catch((error: unknown) => {
      setSsoStarting(false);
      setFailure(isApiError(error) ? error : new ApiError(ERR.unexpected, '', 0));
    });
  };

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

  const form = useFormSubmit({
    blocked: remaining > 0,
    reset: () => setFailure(null),
    check: () => validateForm(signInRequest, { userId, password }),
    send: async (data) => {
      await signIn(data);
      writeStorage(STORAGE_KEYS.savedUserId, saveId ? data.userId : null);
      const from = state.from;
      void navigate(from && from.pathname !== '/signin' ? `${from.pathname}${from.search}${from.hash}` : '/', { replace: true });
    },
    onError: (error, controls) => {
      setPassword('');
      if (controls.showFieldErrors(error)) {
        controls.focusFirstInvalid();
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
    },
    leavesOnSuccess: true,
  });

  const failureText = failure ? apiErrorText(failure, language, remaining > 0 ? remaining : undefined) : null;

  return (
    <>
      <div className="auth-card-icon">
        <KeyIcon size={22} />
      </div>
      <h1 className="auth-title">{t('signin.heading')}</h1>
      <p className="auth-subtitle">{t('signin.subheading')}</p>

      {state.providerSignOutUrl && !failure ? (
        <InlineAlert tone="info" testId="signin-provider-signout">
          {t('sso.signedOut')}{' '}
          <a href={state.providerSignOutUrl} className="inline-link" data-testid="signin-provider-signout-link">
            {t('sso.providerSignOut')}
          </a>
        </InlineAlert>
      ) : null}
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

      <form ref={form.ref} className="form" onSubmit={form.onSubmit} noValidate>
        <UserIdField
          label={t('signin.userId')}
          value={userId}
          onChange={(event) => setUserId(event.target.value)}
          error={form.fieldError('userId')}
          testId="signin-userId"
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the page is this form: it opens to type the user ID (the password, when the ID was saved)
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
          error={form.fieldError('password')}
          testId="signin-password"
          trailing={<PasswordToggle shown={showPassword} onToggle={() => setShowPassword((shown) => !shown)} />}
        />
        <div className="form-row-between">
          <Checkbox
            label={t('signin.saveId')}
            checked={saveId}
            onChange={(event) => setSaveId(event.target.checked)}
            testId="signin-saveId"
          />
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
        <Button type="submit" variant="primary" size="lg" block loading={form.busy} disabled={remaining > 0} data-testid="signin-submit">
          {form.busy ? t('signin.submitting') : t('signin.submit')}
        </Button>
      </form>

      {ssoEnabled ? (
        <>
          <div className="divider">
            <span>{t('signin.or')}</span>
          </div>
          <Button
            variant="secondary"
            size="lg"
            block
            icon={<KeyIcon size={17} />}
            loading={ssoStarting}
            onClick={onSso}
            data-testid="signin-sso"
          >
            {ssoStarting ? t('signin.ssoStarting') : t('signin.sso')}
          </Button>
        </>
      ) : null}

      {dialog === 'findId' ? <FindIdDialog onClose={() => setDialog(null)} /> : null}
      {dialog === 'findPassword' ? <FindPasswordDialog initialUserId={userId} onClose={() => setDialog(null)} /> : null}
    </>
  );
}
