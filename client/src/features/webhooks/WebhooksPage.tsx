import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../ui/PageFrame';
import { LinkIcon } from '../../ui/icons';
import { WebhooksPanel } from './WebhooksPanel';

/** Admin → Webhooks: every endpoint, those of the whole notebook and the projects'. */
export function WebhooksPage() {
  const { t } = useTranslation();
  return (
    <PageFrame testId="webhooks-page" title={t('webhooks.title')} description={t('webhooks.description')} icon={<LinkIcon size={22} />}>
      <WebhooksPanel />
    </PageFrame>
  );
}
