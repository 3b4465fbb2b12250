import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { Button, ButtonLink } from '../../ui/Button';
import { ArrowLeftIcon } from '../../ui/icons';
import { ErrorScreen } from './ErrorScreen';

/** /error: the 500 page. */
export function ServerErrorPage({ testId = 'page-error' }: { testId?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Sent here by a screen whose first load failed: trying again opens that screen again.
  const from = (useLocation().state as { from?: unknown } | null)?.from;
  return (
    <ErrorScreen
      testId={testId}
      code="500"
      title={t('errors.serverTitle')}
      body={t('errors.serverBody')}
      actions={
        <>
          <ButtonLink to="/" variant="primary" icon={<ArrowLeftIcon size={16} />} data-testid="error-home">
            {t('common.goHome')}
          </ButtonLink>
          <Button
            variant="secondary"
            onClick={() => {
              if (typeof from === 'string') void navigate(from, { replace: true });
              else window.location.reload();
            }}
            data-testid="error-retry"
          >
            {t('errors.reload')}
          </Button>
        </>
      }
    />
  );
}

/** Shown when a screen fails while rendering (the router's error boundary). */
export function RouteErrorPage() {
  return <ServerErrorPage testId="page-error" />;
}
