import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../ui/Button';
import { ArrowLeftIcon, KeyIcon } from '../../ui/icons';
import { usePageTitle } from '../../ui/usePageTitle';
import { AuthScreen } from './AuthScreen';

/** /login/okta/auth/callback: single sign-on is not configured yet, so say so and lead back. */
export function SsoCallbackPage() {
  const { t } = useTranslation();
  usePageTitle(t('sso.pageTitle'));
  return (
    <AuthScreen testId="page-sso-callback">
      <div className="auth-card-icon">
        <KeyIcon size={22} />
      </div>
      <h1 className="auth-title">{t('sso.heading')}</h1>
      <p className="auth-subtitle">{t('sso.body')}</p>
      <ButtonLink to="/signin" variant="primary" size="lg" block icon={<ArrowLeftIcon size={16} />} data-testid="sso-back">
        {t('sso.back')}
      </ButtonLink>
    </AuthScreen>
  );
}
