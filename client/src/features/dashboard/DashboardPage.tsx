import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { api, ERR, type DashboardCounts } from '@eln/shared';
import { isApiError } from '../../api';
import { useIsFetching } from '@tanstack/react-query';
import { apiQueryKey, useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { viewerTimeZone, zonedDay } from '../../lib/timeZone';
import type { Loaded } from '../../api/queries';
import { alertApiError } from '../../modals/store';
import { useSession } from '../../session/store';
import { CheckCircleIcon, DropboxIcon, FolderIcon, LockIcon, SchemaIcon, TemplateIcon, ArrowRightIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { usePageTitle } from '../../ui/usePageTitle';
import { HomeSections } from '../home/HomeSections';
import { greetingFor, parseCounts, type Counts, type DashboardCountKey } from './counts';
type State = { phase: 'loading' } | { phase: 'ready'; counts: Counts } | { phase: 'unavailable' } | { phase: 'failed' };

interface CardSpec {
  key: DashboardCountKey;
  to: string;
  icon: ReactNode;
  accent: string;
}

const PROJECT_CARDS: CardSpec[] = [
  { key: 'ongoing', to: '/project?st=ING', icon: <FolderIcon size={20} />, accent: 'blue' },
  { key: 'closable', to: '/project?st=closable', icon: <CheckCircleIcon size={20} />, accent: 'green' },
  { key: 'closed', to: '/project?st=C', icon: <LockIcon size={20} />, accent: 'slate' },
];
const LIBRARY_CARDS: CardSpec[] = [
  { key: 'templates', to: '/template', icon: <TemplateIcon size={20} />, accent: 'violet' },
  { key: 'schemas', to: '/schema', icon: <SchemaIcon size={20} />, accent: 'amber' },
  { key: 'dropboxes', to: '/dropbox', icon: <DropboxIcon size={20} />, accent: 'rose' },
];

/** What the cards show of the count call: its answer, or why there is none (the call may not exist yet: 9005). */
function stateOf(counts: Loaded<DashboardCounts>): State {
  if (counts.phase === 'error') {
    const { error } = counts;
    return isApiError(error) && (error.status === ERR.unknownCall || error.httpStatus === 404)
      ? { phase: 'unavailable' }
      : { phase: 'failed' };
  }
  return counts.data ? { phase: 'ready', counts: parseCounts(counts.data) } : { phase: 'loading' };
}

/**
 * `/`: greeting and the six counts (the count call may not exist yet, 9005: the cards then show "—"), then
 * the home's sections: what waits for the reader, their notes, what they opened last, their projects' news.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const session = useSession();
  const counts = useApiQuery(api.dashboard.counts, {});
  const state = stateOf(counts);
  // The page is busy until the counts and every section below them are in.
  const sectionsLoading = useIsFetching({ queryKey: apiQueryKey(api.inbox.section) }) > 0;
  usePageTitle(t('dashboard.pageTitle'));

  const failure = counts.phase === 'error' && state.phase === 'failed' ? counts.error : null;
  useEffect(() => {
    if (failure && !(isApiError(failure) && failure.httpStatus === 401)) void alertApiError(failure);
  }, [failure]);

  const language = currentLanguage();
  const today = new Intl.DateTimeFormat(language, { dateStyle: 'full', timeZone: viewerTimeZone() }).format(new Date());
  const name = session?.user.name ?? '';

  const value = (key: DashboardCountKey): number | null => (state.phase === 'ready' ? state.counts[key] : null);
  const format = (n: number | null) => (n === null ? '—' : new Intl.NumberFormat(language).format(n));

  const renderCards = (cards: CardSpec[]) =>
    cards.map((card) => {
      const label = t(`dashboard.cards.${card.key}.label`);
      return (
        <Link key={card.key} to={card.to} className={`stat-card accent-${card.accent}`} data-testid={`count-${card.key}`}>
          <span className="stat-icon">{card.icon}</span>
          <span className="stat-label">{label}</span>
          {state.phase === 'loading' ? (
            <span className="skeleton skeleton-number" aria-hidden="true" />
          ) : (
            <span
              className="stat-value"
              data-testid={`count-${card.key}-value`}
              title={value(card.key) === null ? t('common.notAvailable') : undefined}
            >
              {format(value(card.key))}
            </span>
          )}
          <span className="stat-hint">
            {t(`dashboard.cards.${card.key}.hint`)}
            <ArrowRightIcon size={14} className="stat-arrow" />
          </span>
        </Link>
      );
    });

  return (
    <section className="page dashboard" data-testid="dashboard" aria-busy={state.phase === 'loading' || sectionsLoading}>
      <header className="dashboard-hero">
        <p className="dashboard-date">{today}</p>
        <h1 className="dashboard-greeting" data-testid="dashboard-greeting" tabIndex={-1}>
          {t(`dashboard.${greetingFor(zonedDay().hour)}`, { name })}
        </h1>
        <p className="dashboard-subtitle">{t('dashboard.subtitle')}</p>
      </header>

      {state.phase === 'unavailable' ? (
        <InlineAlert tone="info" testId="dashboard-unavailable">
          {t('dashboard.countsUnavailable')}
        </InlineAlert>
      ) : null}
      {state.phase === 'failed' ? <InlineAlert tone="error">{t('dashboard.countsFailed')}</InlineAlert> : null}

      <h2 className="section-title">{t('dashboard.projects')}</h2>
      <div className="stat-grid">{renderCards(PROJECT_CARDS)}</div>
      <h2 className="section-title">{t('dashboard.library')}</h2>
      <div className="stat-grid">{renderCards(LIBRARY_CARDS)}</div>
      <HomeSections />
    </section>
  );
}
