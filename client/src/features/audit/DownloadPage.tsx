import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n';
import { Badge } from '../../ui/Badge';
import { Button, ButtonLink } from '../../ui/Button';
import { ArrowRightIcon, DownloadIcon, InfoIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { PageFrame } from '../../ui/PageFrame';
import { EMPTY_AUDIT_QUERY, filterOf } from './auditQuery';
import { formatSize } from './csvExport';
import { ArchiveIcon, FileCsvIcon, FilePdfIcon } from './icons';
import { useAuditExport } from './useAuditExport';
import './audit.css';

const ALL_RECORDS = filterOf(EMPTY_AUDIT_QUERY);

/**
 * `/admin/download`: what can be taken out of the notebook. Today that is the whole audit trail as CSV;
 * project exports are named as not available yet rather than offered and failing.
 */
export function DownloadPage() {
  const { t } = useTranslation('audit');
  const { t: tc } = useTranslation();
  const language = currentLanguage();
  const exporter = useAuditExport();

  return (
    <PageFrame testId="page-admin-download" title={tc('pages.adminDownload.title')} description={t('download.description')} icon={<DownloadIcon size={20} />}>
      {exporter.saved ? (
        <InlineAlert tone="success" testId="download-saved">
          {t('export.saved', { name: exporter.saved.filename, size: formatSize(exporter.saved.size, language) })}
        </InlineAlert>
      ) : null}
      <div className="download-grid">
        <section className="card download-card" aria-labelledby="download-audit-title" data-testid="download-audit">
          <header className="download-head">
            <span className="download-icon">
              <FileCsvIcon size={22} />
            </span>
            <div>
              <h2 className="card-title" id="download-audit-title">
                {t('download.auditTitle')}
              </h2>
              <p className="download-format">{t('download.auditFormat')}</p>
            </div>
          </header>
          <p className="download-body">{t('download.auditBody')}</p>
          <p className="download-hint">
            <InfoIcon size={15} />
            <span>{t('download.auditFilterHint')}</span>
          </p>
          <div className="download-actions">
            <Button variant="primary" icon={<DownloadIcon size={16} />} onClick={() => void exporter.run(ALL_RECORDS)} loading={exporter.busy} data-testid="download-audit-csv">
              {t('download.auditAction')}
            </Button>
            <ButtonLink to="/admin/audit" variant="ghost" data-testid="download-open-audit">
              {t('download.openAudit')}
              <ArrowRightIcon size={15} />
            </ButtonLink>
          </div>
        </section>

        <section className="card download-card download-card-unavailable" aria-labelledby="download-project-title" data-testid="download-projects">
          <header className="download-head">
            <span className="download-icon download-icon-muted">
              <ArchiveIcon size={22} />
            </span>
            <div>
              <h2 className="card-title" id="download-project-title">
                {t('download.projectTitle')}
              </h2>
              <p className="download-format">
                <Badge tone="neutral" testId="download-projects-status">
                  {t('download.notYet')}
                </Badge>
              </p>
            </div>
          </header>
          <p className="download-body">{t('download.projectBody')}</p>
          <ul className="download-formats">
            <li>
              <FilePdfIcon size={16} />
              <span>{t('download.pdf')}</span>
            </li>
            <li>
              <ArchiveIcon size={16} />
              <span>{t('download.eln')}</span>
            </li>
          </ul>
        </section>
      </div>
    </PageFrame>
  );
}
