import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from './Button';
import { SearchIcon } from './icons';
import { usePageTitle } from './usePageTitle';

interface PageFrameProps {
  testId: string;
  title: string;
  description?: string;
  icon?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}

/** The frame of every signed-in page: heading, description and actions, then the content. */
export function PageFrame({ testId, title, description, icon, actions, children }: PageFrameProps) {
  usePageTitle(title);
  return (
    <section className="page" data-testid={testId} aria-labelledby={`${testId}-title`}>
      <header className="page-header">
        <div className="page-heading">
          {icon ? <span className="page-icon">{icon}</span> : null}
          <div>
            <h1 className="page-title" id={`${testId}-title`} tabIndex={-1}>
              {title}
            </h1>
            {description ? <p className="page-description">{description}</p> : null}
          </div>
        </div>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

export function EmptyState({ icon, title, children }: { icon?: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      {icon ? <div className="empty-state-icon">{icon}</div> : null}
      <p className="empty-state-title">{title}</p>
      {children ? <div className="empty-state-body">{children}</div> : null}
    </div>
  );
}

/** A list's answer when a search found nothing: the same words and a way back to the whole list everywhere. */
export function NoMatchesState({ clearTestId }: { clearTestId?: string }) {
  const { t } = useTranslation();
  return (
    <EmptyState icon={<SearchIcon size={26} />} title={t('list.noMatches')}>
      <p>{t('list.noMatchesHint')}</p>
      <ButtonLink to={{ search: '' }} variant="secondary" className="empty-state-action" data-testid={clearTestId}>
        {t('list.clearSearch')}
      </ButtonLink>
    </EmptyState>
  );
}
