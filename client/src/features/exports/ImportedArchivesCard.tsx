import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { api, type ElnImportRecord, type ElnImportSignature } from '@eln/shared';
import { apiErrorText, call } from '../../api';
import { apiQueryKey, useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { Badge, type BadgeTone } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { CheckCircleIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { ArchiveIcon } from '../audit/icons';
import { TableScroll } from '../../ui/TableScroll';

const TONES = {
  thisServer: 'accent',
  otherKey: 'info',
  addedKey: 'success',
  mismatch: 'danger',
  unknownKey: 'warning',
  unsigned: 'neutral',
} as const satisfies Record<ElnImportSignature, BadgeTone>;

/**
 * The .eln archives imported (`/v1/admin/eln/import/list`), newest first, each with its signature as it
 * stands: by this notebook, by the key it shipped, by a key added here (its name), not matching the added
 * key of its id, by a key unknown here (waiting for an administrator to add it beside, in KnownKeysCard),
 * or unsigned. One signed by a key not its own can be checked again on demand.
 */
export function ImportedArchivesCard() {
  const { t } = useTranslation('audit');
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const imports = useApiQuery(api.exports.imports, {});
  const [checking, setChecking] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const verify = async (item: ElnImportRecord) => {
    setChecking(item.importNo);
    setFailure(null);
    try {
      await call(api.exports.verifyImport, { importNo: item.importNo });
      await queryClient.invalidateQueries({ queryKey: apiQueryKey(api.exports.imports) });
    } catch (error) {
      setFailure(apiErrorText(error, language));
    } finally {
      setChecking(null);
    }
  };

  const renderBody = () => {
    if (imports.phase === 'error' && !imports.data)
      return <ErrorState message={apiErrorText(imports.error, language)} onRetry={imports.reload} testId="eln-imports-error" />;
    if (!imports.data) return <SkeletonBlock lines={2} />;
    if (imports.data.list.length === 0)
      return (
        <p className="known-key-none" data-testid="eln-imports-none">
          {t('exports.importedArchives.none')}
        </p>
      );
    return (
      <TableScroll label={t('exports.importedArchives.title')}>
        <table className="data-table data-table-compact eln-imports-table" data-testid="eln-imports-table">
          <thead>
            <tr>
              <th scope="col">{t('exports.importedArchives.project')}</th>
              <th scope="col">{t('exports.importedArchives.signature')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('exports.knownKeys.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {imports.data.list.map((item) => (
              <tr key={item.importNo} data-testid="eln-import-row" data-signature={item.signature} data-import-no={item.importNo}>
                <td>
                  <Link to={`/project/${item.projectNo}`}>{item.projectTitle}</Link>
                  <div className="known-key-by">
                    {t('exports.importedArchives.importedFrom', {
                      archive: item.archiveName,
                      time: formatDateTime(item.importedAt, language),
                      name: item.importedBy,
                    })}
                  </div>
                </td>
                <td>
                  <Badge tone={TONES[item.signature]} testId="eln-import-signature">
                    {t(`exports.importedArchives.signatures.${item.signature}`, {
                      keyId: item.keyId ?? '',
                      name: item.keyOrganisation ? `${item.keyName ?? ''} (${item.keyOrganisation})` : (item.keyName ?? ''),
                    })}
                  </Badge>
                  {item.checkedAt ? (
                    <div className="known-key-by">
                      {t('exports.importedArchives.checkedAt', { time: formatDateTime(item.checkedAt, language) })}
                    </div>
                  ) : null}
                </td>
                <td>
                  {item.abilities.verify ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      icon={<CheckCircleIcon size={14} />}
                      loading={checking === item.importNo}
                      disabled={checking !== null}
                      onClick={() => void verify(item)}
                      aria-label={t('exports.importedArchives.verifyLabel', { title: item.projectTitle })}
                      data-testid="eln-import-verify"
                    >
                      {t('exports.importedArchives.verify')}
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    );
  };

  return (
    <section className="card export-card" aria-labelledby="eln-imports-title" data-testid="eln-imports">
      <header className="card-header">
        <h2 className="card-title" id="eln-imports-title">
          <ArchiveIcon size={16} />
          {t('exports.importedArchives.title')}
        </h2>
      </header>
      <p className="download-hint">{t('exports.importedArchives.hint')}</p>
      {renderBody()}
      {failure ? (
        <InlineAlert tone="error" testId="eln-imports-refused">
          {failure}
        </InlineAlert>
      ) : null}
    </section>
  );
}
