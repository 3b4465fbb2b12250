import { useTranslation } from 'react-i18next';
import { EXPORT_FORMATS, EXPORT_LIMITS } from '@eln/shared';
import { ButtonLink } from '../../ui/Button';
import { ArrowRightIcon, DownloadIcon, InfoIcon } from '../../ui/icons';
import { PageFrame } from '../../ui/PageFrame';
import { ElnImportCard } from './ElnImportCard';
import { ExportForm } from './ExportForm';
import { ImportedArchivesCard } from './ImportedArchivesCard';
import { KnownKeysCard } from './KnownKeysCard';
import { PublicKeyButton } from './PublicKeyButton';
import { ExportJobList } from './ExportJobList';
import { useExportJobs } from './exportJobs';
import '../audit/audit.css';
import './exports.css';

/**
 * `/admin/download`: what leaves the notebook. Projects as PDF or signed .eln archives and the audit trail as
 * CSV, made as background jobs listed with who asked, when and how far along; a finished file downloads
 * with a token made for its requester only.
 */
export function DownloadPage() {
  const { t } = useTranslation('audit');
  const { t: tc } = useTranslation();
  const exports = useExportJobs();

  return (
    <PageFrame
      testId="page-admin-download"
      title={tc('pages.adminDownload.title')}
      description={t('download.description')}
      icon={<DownloadIcon size={20} />}
    >
      <div className="export-layout">
        <section className="card export-card" aria-labelledby="export-new-title" data-testid="download-new">
          <header className="card-header">
            <h2 className="card-title" id="export-new-title">
              <DownloadIcon size={16} />
              {t('exports.title')}
            </h2>
          </header>
          <ExportForm formats={EXPORT_FORMATS} onStart={exports.start} testId="download-form" />
          <p className="download-hint">
            <InfoIcon size={15} />
            <span>{t('exports.background', { days: EXPORT_LIMITS.keepDays })}</span>
          </p>
          <div className="download-actions">
            <ButtonLink to="/admin/audit" variant="ghost" data-testid="download-open-audit">
              {t('download.openAudit')}
              <ArrowRightIcon size={15} />
            </ButtonLink>
            <PublicKeyButton testId="download-public-key" />
          </div>
        </section>
        <section className="card export-card" aria-labelledby="export-jobs-title" data-testid="download-jobs">
          <header className="card-header">
            <h2 className="card-title" id="export-jobs-title">
              {t('exports.jobsTitle')}
            </h2>
          </header>
          <ExportJobList
            jobs={exports.jobs}
            failed={exports.failed}
            onRetry={() => void exports.refresh()}
            onDownload={(job) => void exports.download(job)}
            testId="download-job-list"
          />
        </section>
        <ElnImportCard />
        <ImportedArchivesCard />
        <KnownKeysCard />
      </div>
    </PageFrame>
  );
}
