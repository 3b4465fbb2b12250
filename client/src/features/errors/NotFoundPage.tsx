import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../ui/Button';
import { ArrowLeftIcon } from '../../ui/icons';
import { ErrorScreen } from './ErrorScreen';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <ErrorScreen
      testId="page-not-found"
      code="404"
      title={t('errors.notFoundTitle')}
      body={t('errors.notFoundBody')}
      actions={
        <ButtonLink to="/" variant="primary" icon={<ArrowLeftIcon size={16} />} data-testid="error-home">
          {t('common.goHome')}
        </ButtonLink>
      }
    />
  );
}
