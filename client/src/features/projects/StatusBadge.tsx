import { useTranslation } from 'react-i18next';
import { PROJECT_STATUS, type ProjectStatus } from '@eln/shared';
import { Badge } from '../../ui/Badge';

/** In progress (ING) or completed (C). */
export function StatusBadge({ status, testId }: { status: ProjectStatus; testId?: string }) {
  const { t } = useTranslation();
  const done = status === PROJECT_STATUS.completed;
  return (
    <Badge tone={done ? 'neutral' : 'success'} dot testId={testId}>
      {done ? t('project.status.completed') : t('project.status.inProgress')}
    </Badge>
  );
}
