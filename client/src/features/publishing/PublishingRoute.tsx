import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router-dom';
import { installStyleGuideSamples, PUBLISHING_PATH } from '../../lib/styleGuide';
import { QueryProvider } from '../../api/QueryProvider';
import { Layout } from '../../app/Layout';
import { DashboardPage } from '../dashboard/DashboardPage';
import { ProjectDetailPage } from '../projects/ProjectDetailPage';
import { ProjectListPage } from '../projects/ProjectListPage';
import { ProjectCreatePage } from '../projects/ProjectCreatePage';
import { SchemaEditorPage } from '../schemas/SchemaEditorPage';
import { UserListPage } from '../admin/UserListPage';
import { UserEditPage } from '../admin/UserEditPage';
import { ServerErrorPage } from '../errors/ServerErrorPage';
import { PageFrame } from '../../ui/PageFrame';
import { ArrowRightIcon, SparkleIcon } from '../../ui/icons';
import { SAMPLE_RECORDS, STYLE_GUIDE_SAMPLES } from './samples';
import { StylePage } from './StylePage';
import { ChartsPage } from './ChartsPage';
import './publishing.css';

// The chunk of the guide brings its samples: from here on, calls made under /publishing answer from them.
installStyleGuideSamples(STYLE_GUIDE_SAMPLES);

export const PUBLISHED_PAGES = [
  'dashboard',
  'project',
  'projectList',
  'projectCreate',
  'schemaCreate',
  'userList',
  'userEdit',
  'error',
  'stylePage',
  'chart',
] as const;
export type PublishedPage = (typeof PUBLISHED_PAGES)[number];

/** Each page of the guide: the real screen (with the guide's sample records), or the guide's own pages. */
const SCREENS: Record<PublishedPage, () => ReactNode> = {
  dashboard: () => <DashboardPage />,
  project: () => <ProjectDetailPage recordNo={SAMPLE_RECORDS.projectNo} />,
  projectList: () => <ProjectListPage />,
  projectCreate: () => <ProjectCreatePage />,
  schemaCreate: () => <SchemaEditorPage />,
  userList: () => <UserListPage />,
  userEdit: () => <UserEditPage recordNo={SAMPLE_RECORDS.userNo} />,
  error: () => <ServerErrorPage />,
  stylePage: () => <StylePage />,
  chart: () => <ChartsPage />,
};

/** Screens the app shows without its header (the error page stands alone). */
const BARE: ReadonlySet<PublishedPage> = new Set(['error']);

const isPublished = (name: string | undefined): name is PublishedPage => (PUBLISHED_PAGES as readonly string[]).includes(name ?? '');

/** `/publishing`: what the guide holds, one link per page. */
function PublishingIndex() {
  const { t } = useTranslation();
  return (
    <PageFrame
      testId="publishing-index"
      title={t('publishing.title')}
      description={t('publishing.description')}
      icon={<SparkleIcon size={20} />}
    >
      <ul className="publishing-index" data-testid="publishing-pages">
        {PUBLISHED_PAGES.map((name) => (
          <li key={name}>
            <Link to={`${PUBLISHING_PATH}/${name}`} className="card publishing-card" data-testid={`publishing-link-${name}`}>
              <span>
                <span className="publishing-card-title">{t(`publishing.pages.${name}`)}</span>
                <span className="publishing-card-path">
                  {PUBLISHING_PATH}/{name}
                </span>
              </span>
              <ArrowRightIcon size={16} aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
    </PageFrame>
  );
}

/** One page of the guide, keyed by the address so each starts afresh. */
function PublishedScreen() {
  const { page } = useParams();
  if (!isPublished(page)) return <Navigate to={PUBLISHING_PATH} replace />;
  return <SampleRibbon key={page}>{SCREENS[page]()}</SampleRibbon>;
}

/** A quiet line saying this is sample data, with the way back to the guide's index. */
function SampleRibbon({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="publishing-ribbon" data-testid="publishing-ribbon">
        <span>{t('publishing.sampleNotice')}</span>
        <Link to={PUBLISHING_PATH}>{t('publishing.back')}</Link>
      </p>
      {children}
    </>
  );
}

/** `/publishing` and `/publishing/:page`: in the app's own frame (header and all), except bare screens. */
export function PublishingRoute() {
  const { page } = useParams();
  if (isPublished(page) && BARE.has(page)) {
    return (
      <QueryProvider>
        <PublishedScreen />
      </QueryProvider>
    );
  }
  return <Layout>{page === undefined ? <PublishingIndex /> : <PublishedScreen />}</Layout>;
}
