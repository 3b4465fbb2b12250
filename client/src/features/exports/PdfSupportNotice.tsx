import { useTranslation } from 'react-i18next';
import type { ExportFormat, ExportSupport } from '@eln/shared';
import { InlineAlert } from '../../ui/InlineAlert';

/**
 * What the server lacks for PDF export, as it answered (`/v1/export/support`): no chromium (no PDF, and
 * .eln archives without their PDF copies), missing fonts (Korean and Japanese text as empty boxes), no
 * Ghostscript (no PDF/A), with the one command that installs the missing Debian packages.
 */
export function PdfSupportNotice({
  support,
  format,
  testId,
}: {
  support: ExportSupport | undefined;
  format: ExportFormat;
  testId: string;
}) {
  const { t } = useTranslation('audit');
  if (!support || format === 'auditCsv' || !support.missingPackages.length) return null;
  const fontsMissing = support.missingPackages.some((pkg) => pkg.startsWith('fonts-'));
  const what = !support.pdf ? 'noBrowser' : fontsMissing ? 'missingFonts' : format === 'pdf' ? 'noGhostscript' : null;
  if (!what) return null;
  return (
    <InlineAlert tone={what === 'noGhostscript' ? 'info' : 'warning'} testId={testId}>
      <p className="export-support-text">{t(`exports.support.${what}`)}</p>
      <p className="export-support-install">
        <span>{t('exports.support.install')}</span>{' '}
        <code data-testid={`${testId}-command`}>sudo apt-get install {support.missingPackages.join(' ')}</code>
      </p>
    </InlineAlert>
  );
}
