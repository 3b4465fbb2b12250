import { useTranslation } from 'react-i18next';
import { timestampCalls } from '@eln/shared';
import { useApiQuery } from '../../api/queries';
import { InlineAlert } from '../../ui/InlineAlert';

/** On every admin screen: a chain that expires within 30 days (or has), before tokens start failing. */
export function ChainExpiryWarning() {
  const { t } = useTranslation();
  const authorities = useApiQuery(timestampCalls.authorities, {});
  const soon = (authorities.data?.list ?? []).filter((entry) => entry.enabled && entry.expiresSoon);
  if (soon.length === 0) return null;
  return (
    <div className="page-banner" data-testid="tsa-expiry-banner">
      <InlineAlert tone="warning">
        {t('admin.timestamps.bannerExpiry', {
          names: soon.map((e) => e.name).join(', '),
          date: soon.map((e) => e.chainExpiresAt.slice(0, 10)).sort()[0],
        })}
      </InlineAlert>
    </div>
  );
}
