import { useTranslation } from 'react-i18next';
import { EXPORT_LIMITS, PROJECT_EXPORT_FORMATS } from '@eln/shared';
import { DownloadIcon, InfoIcon } from '../../ui/icons';
import { ExportForm } from './ExportForm';
import { ExportJobList } from './ExportJobList';
import { useExportJobs } from './exportJobs';
import './exports.css';

/** The project screen's export panel (shown when the server's abilities allow it): start one, follow its jobs. */
export function ProjectExportCard({ projectNo }: { projectNo: number }) {
  const { t } = useTranslation('audit');
  const exports = useExportJobs(projectNo);
  return (
    <section className="card export-card" aria-labelledby="project-export-title" data-testid="project-export">
      <header className="card-header">
        <h2 className="card-title" id="project-export-title">
          <DownloadIcon size={16} />
          {t('exports.title')}
        </h2>
      </header>
      <ExportForm formats={PROJECT_EXPORT_FORMATS} projectNo={projectNo} onStart={exports.start} testId="project-export-form" />
      <p className="download-hint">
        <InfoIcon size={15} />
        <span>{t('exports.background', { days: EXPORT_LIMITS.keepDays })}</span>
      </p>
      <h3 className="export-jobs-title">{t('exports.projectJobsTitle')}</h3>
      <ExportJobList
        jobs={exports.jobs}
        failed={exports.failed}
        onRetry={() => void exports.refresh()}
        onDownload={(job) => void exports.download(job)}
        testId="project-export-jobs"
      />
    </section>
  );
}
