import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ERR, type SsoFinishRequest } from '@eln/shared';
import { apiErrorText, isApiError } from '../../api';
import { currentLanguage } from '../../i18n';
import { finishSingleSignOn, startSingleSignOn } from '../../session/actions';
import type { Session } from '../../session/model';
import { Button, ButtonLink } from '../../ui/Button';
import { ArrowLeftIcon, KeyIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { usePageTitle } from '../../ui/usePageTitle';
import { AuthScreen } from './AuthScreen';

/** What the provider put in the address: a code (with state and iss) or an error. Null: nothing to finish. */
function providerAnswer(search: string): SsoFinishRequest | null {
  const query = new URLSearchParams(search);
  const value = (name: string) => query.get(name) ?? undefined;
  const answer: SsoFinishRequest = {
    code: value('code'),
    state: value('state'),
    iss: value('iss'),
    error: value('error'),
    errorDescription: value('error_description'),
  };
  return answer.code || answer.error ? answer : null;
}

/**
 * A code is spent once. React runs a mount effect twice in development (StrictMode), so the exchange
 * of one answer is shared rather than sent twice.
 */
const exchanges = new Map<string, Promise<Session>>();
function exchangeOnce(answer: SsoFinishRequest): Promise<Session> {
  const key = JSON.stringify(answer);
  let exchange = exchanges.get(key);
  if (!exchange) {
    exchange = finishSingleSignOn(answer);
    exchanges.set(key, exchange);
  }
  return exchange;
}

type Outcome = { kind: 'working' } | { kind: 'nothing' } | { kind: 'notConfigured' } | { kind: 'failed'; error: unknown };

/**
 * /login/okta/auth/callback: where the provider sends the browser back. The page hands what the provider
 * sent to the server, which checks it against this browser's flow and answers like a sign-in; then the
 * dashboard. A refusal is explained here, with a way to start again.
 */
export function SsoCallbackPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const navigate = useNavigate();
  usePageTitle(t('sso.pageTitle'));
  const [answer] = useState(() => providerAnswer(window.location.search));
  const [outcome, setOutcome] = useState<Outcome>(answer ? { kind: 'working' } : { kind: 'nothing' });
  const [restarting, setRestarting] = useState(false);

  useEffect(() => {
    if (!answer) return;
    // The code leaves the address bar (and the history) at once: it is a credential until spent.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    let live = true;
    exchangeOnce(answer).then(
      () => live && navigate('/', { replace: true }),
      (error: unknown) =>
        live && setOutcome(isApiError(error) && error.status === ERR.unknownCall ? { kind: 'notConfigured' } : { kind: 'failed', error }),
    );
    return () => {
      live = false;
    };
  }, [answer, navigate]);

  const restart = () => {
    setRestarting(true);
    startSingleSignOn().catch((error: unknown) => {
      setRestarting(false);
      setOutcome({ kind: 'failed', error });
    });
  };

  const back = (
    <ButtonLink
      to="/signin"
      variant={outcome.kind === 'failed' ? 'secondary' : 'primary'}
      size="lg"
      block
      icon={<ArrowLeftIcon size={16} />}
      data-testid="sso-back"
    >
      {t('sso.back')}
    </ButtonLink>
  );

  return (
    <AuthScreen testId="page-sso-callback">
      <div className="auth-card-icon">
        <KeyIcon size={22} />
      </div>
      {outcome.kind === 'working' ? (
        <div data-testid="sso-working" aria-live="polite">
          <h1 className="auth-title">{t('sso.finishing')}</h1>
          <p className="auth-subtitle">{t('sso.finishingBody')}</p>
        </div>
      ) : null}
      {outcome.kind === 'nothing' || outcome.kind === 'notConfigured' ? (
        <>
          <h1 className="auth-title">{outcome.kind === 'nothing' ? t('sso.nothing') : t('sso.heading')}</h1>
          <p className="auth-subtitle">{outcome.kind === 'nothing' ? t('sso.nothingBody') : t('sso.body')}</p>
          {back}
        </>
      ) : null}
      {outcome.kind === 'failed' ? (
        <>
          <h1 className="auth-title">{t('sso.failed')}</h1>
          <p className="auth-subtitle">{t('sso.failedBody')}</p>
          <InlineAlert tone="error" testId="sso-error">
            {/* The server's text: it is already in the reader's language and names what it is about (the address, the provider's answer). */}
            {isApiError(outcome.error) && outcome.error.message ? outcome.error.message : apiErrorText(outcome.error, language)}
          </InlineAlert>
          <div className="form">
            <Button
              variant="primary"
              size="lg"
              block
              icon={<KeyIcon size={17} />}
              loading={restarting}
              onClick={restart}
              data-testid="sso-retry"
            >
              {t('sso.retry')}
            </Button>
            {back}
          </div>
        </>
      ) : null}
    </AuthScreen>
  );
}
