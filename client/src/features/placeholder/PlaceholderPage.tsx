import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type en from '../../i18n/en';
import { EmptyState, PageFrame } from '../../ui/PageFrame';
import {
  AuditIcon,
  BuildingIcon,
  DownloadIcon,
  DropboxIcon,
  FolderIcon,
  WrenchIcon,
  SchemaIcon,
  TemplateIcon,
  UserIcon,
  UsersIcon,
} from '../../ui/icons';

export type PageKey = Exclude<keyof (typeof en)['pages'], 'building' | 'buildingHint'>;

const ICONS: Record<PageKey, ReactNode> = {
  project: <FolderIcon size={20} />,
  projectCreate: <FolderIcon size={20} />,
  projectDetail: <FolderIcon size={20} />,
  schema: <SchemaIcon size={20} />,
  schemaCreate: <SchemaIcon size={20} />,
  schemaDetail: <SchemaIcon size={20} />,
  dropbox: <DropboxIcon size={20} />,
  dropboxCreate: <DropboxIcon size={20} />,
  dropboxDetail: <DropboxIcon size={20} />,
  template: <TemplateIcon size={20} />,
  templateNote: <TemplateIcon size={20} />,
  note: <TemplateIcon size={20} />,
  editor: <TemplateIcon size={20} />,
  admin: <UsersIcon size={20} />,
  adminUser: <UserIcon size={20} />,
  adminAudit: <AuditIcon size={20} />,
  adminDepartment: <BuildingIcon size={20} />,
  adminDownload: <DownloadIcon size={20} />,
};

/**
 * A screen that later work fills in: its frame, localised title and an honest empty state.
 * `testName` gives the root's data-testid (`page-<testName>`).
 */
export function PlaceholderPage({ page, testName }: { page: PageKey; testName: string }) {
  const { t } = useTranslation();
  const { id } = useParams();
  const title = t(`pages.${page}.title`);
  return (
    <PageFrame testId={`page-${testName}`} title={id ? `${title} #${id}` : title} description={t(`pages.${page}.description`)} icon={ICONS[page]}>
      <div className="card">
        <EmptyState icon={<WrenchIcon size={26} />} title={t('pages.building')}>
          <p>{t('pages.buildingHint')}</p>
        </EmptyState>
      </div>
    </PageFrame>
  );
}
