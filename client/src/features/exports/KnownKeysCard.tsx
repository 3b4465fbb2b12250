import { useTranslation } from 'react-i18next';
import { api } from '@eln/shared';
import { apiErrorText } from '../../api';
import { useApiQuery } from '../../api/queries';
import { TableScroll } from '../../ui/TableScroll';
import { currentLanguage } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { Badge, type BadgeTone } from '../../ui/Badge';
import { KeyIcon } from '../../ui/icons';
import { ErrorState, SkeletonBlock } from '../../ui/States';

const TONES = { thisServer: 'accent', otherKey: 'success', unknownKey: 'warning' } as const satisfies Record<string, BadgeTone>;

/**
 * The minisign keys the notebook knows (`/v1/admin/eln/key/list`): its own export key, then those that
 * signed imported archives, each with its id, fingerprint (when the key itself is known), when it was
 * made or first seen, and how many imports it signed.
 */
export function KnownKeysCard() {
  const { t } = useTranslation('audit');
  const language = currentLanguage();
  const keys = useApiQuery(api.exports.knownKeys, {});
  const renderBody = () => {
    if (keys.phase === 'error' && !keys.data)
      return <ErrorState message={apiErrorText(keys.error, language)} onRetry={keys.reload} testId="known-keys-error" />;
    if (!keys.data) return <SkeletonBlock lines={2} />;
    return (
      <TableScroll label={t('exports.knownKeys.title')}>
        <table className="data-table data-table-compact known-keys-table" data-testid="known-keys-table">
          <thead>
            <tr>
              <th scope="col">{t('exports.knownKeys.keyId')}</th>
              <th scope="col">{t('exports.knownKeys.source')}</th>
              <th scope="col">{t('exports.knownKeys.fingerprint')}</th>
              <th scope="col">{t('exports.knownKeys.addedAt')}</th>
              <th scope="col" className="col-center">
                {t('exports.knownKeys.imports')}
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.list.map((key) => (
              <tr key={key.keyId} data-testid="known-key" data-source={key.source}>
                <td>
                  <code>{key.keyId}</code>
                </td>
                <td>
                  <Badge tone={TONES[key.source]}>{t(`exports.knownKeys.sources.${key.source}`)}</Badge>
                </td>
                <td>
                  {key.fingerprint ? (
                    <code className="known-key-fingerprint" title={key.fingerprint}>
                      {key.fingerprint
                        .match(/.{1,4}/g)
                        ?.slice(0, 8)
                        .join(' ')}
                      …
                    </code>
                  ) : (
                    <span className="known-key-none">{t('exports.knownKeys.noFingerprint')}</span>
                  )}
                </td>
                <td>{formatDateTime(key.addedAt, language)}</td>
                <td className="col-center">{key.imports}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    );
  };
  return (
    <section className="card export-card" aria-labelledby="known-keys-title" data-testid="known-keys">
      <header className="card-header">
        <h2 className="card-title" id="known-keys-title">
          <KeyIcon size={16} />
          {t('exports.knownKeys.title')}
        </h2>
      </header>
      <p className="download-hint">{t('exports.knownKeys.hint')}</p>
      {renderBody()}
    </section>
  );
}
