import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LogoMark } from '../../ui/icons';
import { usePageTitle } from '../../ui/usePageTitle';

interface ErrorScreenProps {
  testId: string;
  code: string;
  title: string;
  body: string;
  actions: ReactNode;
}

/** A full-page error: big code, friendly words, a way back. */
export function ErrorScreen({ testId, code, title, body, actions }: ErrorScreenProps) {
  const { t } = useTranslation();
  usePageTitle(title);
  return (
    <main className="error-screen" data-testid={testId}>
      <Link to="/" className="brand error-brand" aria-label={t('app.name')}>
        <LogoMark size={28} />
        <span className="brand-name">{t('app.name')}</span>
      </Link>
      <div className="error-card">
        <p className="error-code" aria-hidden="true">
          {code}
        </p>
        <h1 className="error-title">{title}</h1>
        <p className="error-body">{body}</p>
        <div className="error-actions">{actions}</div>
      </div>
    </main>
  );
}
