import { useTranslation } from 'react-i18next';
import { errorMessage, type ExportJob } from '@eln/shared';
import { apiErrorText } from '../../api';
import { currentLanguage } from '../../i18n';
import { formatDate, formatDateTime } from '../../lib/format';
import { Badge, type BadgeTone } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { DownloadIcon } from '../../ui/icons';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { formatSize } from '../audit/csvExport';
import { TimestampMark } from '../timestamps/TimestampMark';
import { ArchiveIcon, FileCsvIcon, FilePdfIcon } from '../audit/icons';

const TONES: Record<ExportJob['status'], BadgeTone> = { queued: 'neutral', running: 'info', done: 'success', failed: 'danger' };
const FORMAT_ICONS = { pdf: FilePdfIcon, eln: ArchiveIcon, auditCsv: FileCsvIcon } as const;

interface ExportJobListProps {
  jobs: ExportJob[] | null;
  failed: unknown;
  onRetry(): void;
  onDownload(job: ExportJob): void;
  testId: string;
}

/** Export jobs, newest first: what, whose, when, progress, and the download once done. */
export function ExportJobList({ jobs, failed, onRetry, onDownload, testId }: ExportJobListProps) {
  const { t } = useTranslation('audit');
  const language = currentLanguage();
  if (!jobs) {
    return failed ? (
      <ErrorState message={apiErrorText(failed, language)} onRetry={onRetry} testId={`${testId}-error`} />
    ) : (
      <SkeletonBlock lines={3} />
    );
  }
  if (!jobs.length) {
    return (
      <p className="export-empty" data-testid={`${testId}-empty`}>
        {t('exports.jobsEmpty')}
      </p>
    );
  }
  const days = (job: ExportJob) =>
    job.startDate || job.endDate
      ? `${job.startDate ? formatDate(job.startDate, language) : '…'} ~ ${job.endDate ? formatDate(job.endDate, language) : '…'}`
      : t('exports.allDays');
  return (
    <ul className="export-jobs" data-testid={testId}>
      {jobs.map((job) => {
        const Icon = FORMAT_ICONS[job.format];
        const project = job.projectTitle ?? `#${job.projectNo}`;
        const what =
          job.format === 'auditCsv'
            ? t('exports.wholeTrail')
            : job.labNoteNumber
              ? `${project} · ${t('exports.noteVersion', { number: job.labNoteNumber, version: job.version })}`
              : project;
        return (
          <li
            key={job.jobId}
            className={`export-job export-job-${job.status}`}
            data-testid={`export-job-${job.jobId}`}
            data-status={job.status}
          >
            <span className="export-job-icon" aria-hidden="true">
              <Icon size={20} />
            </span>
            <div className="export-job-main">
              <p className="export-job-title">
                <span className="export-job-what">{what}</span>
                <span className="export-job-format">{job.pdfA ? t('exports.pdfAShort') : t(`exports.${job.format}`)}</span>
                {job.noteNo === null ? <span className="export-job-days">{days(job)}</span> : null}
              </p>
              <p className="export-job-meta">
                {t('exports.requestedBy', { name: job.requestedBy.name, time: formatDateTime(job.createdAt, language) })}
              </p>
              {job.status === 'running' || job.status === 'queued' ? (
                <progress
                  className="export-progress"
                  max={100}
                  value={job.progress}
                  aria-label={t('exports.progressLabel', { what })}
                  data-testid="export-job-progress"
                />
              ) : null}
              {job.status === 'failed' && job.errorCode ? (
                <p className="export-job-error" role="status">
                  {errorMessage(job.errorCode, language)}
                </p>
              ) : null}
              {job.status === 'done' && job.fileName ? (
                <p className="export-job-file">
                  <span>{job.fileName}</span>
                  {job.size !== null ? <span>{formatSize(job.size, language)}</span> : null}
                  {job.sha256 ? <code title="SHA-256">{job.sha256.slice(0, 16)}…</code> : null}
                </p>
              ) : null}
              {job.status === 'done' ? (
                <TimestampMark
                  stamp={job.timestamp}
                  kind="export"
                  id={job.jobId}
                  fileBase={`export-${job.jobId}`}
                  testId="export-timestamp"
                />
              ) : null}
            </div>
            <div className="export-job-side">
              <Badge tone={TONES[job.status]} testId="export-job-status">
                {job.status === 'running' ? t('exports.running', { progress: job.progress }) : t(`exports.${job.status}`)}
              </Badge>
              {job.downloadable ? (
                <Button
                  variant="secondary"
                  size="sm"
                  icon={<DownloadIcon size={15} />}
                  onClick={() => onDownload(job)}
                  aria-label={t('exports.downloadLabel', { name: job.fileName ?? what })}
                  data-testid="export-job-download"
                >
                  {t('exports.download')}
                </Button>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
