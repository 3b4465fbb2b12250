import { useTranslation } from 'react-i18next';
import { WebhooksPanel } from './WebhooksPanel';

/** A project's webhooks on its page, for whom the project's `abilities.webhooks` allows (its leader, administrators). */
export function ProjectWebhooksCard({ projectNo }: { projectNo: number }) {
  const { t } = useTranslation();
  return (
    <section className="card webhooks-section" aria-labelledby="project-webhooks-title" data-testid="project-webhooks">
      <header className="card-header">
        <h2 className="card-title" id="project-webhooks-title">
          {t('webhooks.section')}
        </h2>
      </header>
      <p className="webhooks-facts">{t('webhooks.sectionHint')}</p>
      <WebhooksPanel projectNo={projectNo} />
    </section>
  );
}
