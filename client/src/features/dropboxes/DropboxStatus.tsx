import { useTranslation } from 'react-i18next';
import { DROPBOX_STATUS } from '@eln/shared';
import { Badge } from '../../ui/Badge';

export function DropboxStatusBadge({ status }: { status: 'Y' | 'N' }) {
  const { t } = useTranslation();
  return (
    <Badge tone={status === DROPBOX_STATUS.used ? 'success' : 'neutral'} dot testId="dropbox-status">
      {status === DROPBOX_STATUS.used ? t('dropbox.status.used') : t('dropbox.status.unused')}
    </Badge>
  );
}
