import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../layout/LanguageSwitch';
import { ThemeToggle } from '../../layout/ThemeToggle';
import { CheckCircleIcon, LogoMark } from '../../ui/icons';

/** The frame of the sign pages: a brand panel beside the card (folded away on small screens). */
export function AuthScreen({ testId, children }: { testId: string; children: ReactNode }) {
  const { t } = useTranslation();
  const points = [t('signin.brandPoint1'), t('signin.brandPoint2'), t('signin.brandPoint3')];
  return (
    <div className="auth-screen" data-testid={testId}>
      <aside className="auth-brand" aria-hidden="true">
        <div className="auth-brand-inner">
          <div className="brand auth-brand-logo">
            <LogoMark size={34} />
            <span className="brand-name">{t('app.name')}</span>
          </div>
          <div className="auth-brand-copy">
            <p className="auth-brand-title">{t('signin.brandTitle')}</p>
            <p className="auth-brand-body">{t('signin.brandBody')}</p>
            <ul className="auth-brand-points">
              {points.map((point) => (
                <li key={point}>
                  <CheckCircleIcon size={18} />
                  <span>{point}</span>
                </li>
              ))}
            </ul>
          </div>
          <div className="auth-brand-art">
            <div className="art-sheet art-sheet-back" />
            <div className="art-sheet art-sheet-front">
              <span className="art-line w80" />
              <span className="art-line w60" />
              <span className="art-grid">
                {Array.from({ length: 9 }, (_, i) => (
                  <span key={i} />
                ))}
              </span>
              <span className="art-line w70" />
              <span className="art-sign">
                <svg viewBox="0 0 80 24" width="80" height="24">
                  <path
                    d="M2 18c6-10 10-14 13-12s-4 12 0 12 8-14 12-14-2 12 2 12 6-8 10-8 3 6 7 6 8-4 12-6"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2"
                    strokeLinecap="round"
                  />
                </svg>
              </span>
            </div>
          </div>
        </div>
      </aside>
      <main className="auth-main">
        <div className="auth-topbar">
          <div className="brand auth-mobile-logo">
            <LogoMark size={28} />
            <span className="brand-name">{t('app.name')}</span>
          </div>
          <div className="auth-tools">
            <ThemeToggle variant="pill" />
            <LanguageSwitch />
          </div>
        </div>
        <div className="auth-card">{children}</div>
        <p className="auth-footer">{t('signin.footer')}</p>
      </main>
    </div>
  );
}
