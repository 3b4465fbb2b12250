import { useTranslation } from 'react-i18next';
import { SCHEMA_STATUS } from '@eln/shared';
import { Badge } from '../../ui/Badge';

export function SchemaStatusBadge({ status, testId = 'schema-status' }: { status: 'Y' | 'N'; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge tone={status === SCHEMA_STATUS.used ? 'success' : 'neutral'} dot testId={testId}>
      {status === SCHEMA_STATUS.used ? t('schema.status.used') : t('schema.status.unused')}
    </Badge>
  );
}
