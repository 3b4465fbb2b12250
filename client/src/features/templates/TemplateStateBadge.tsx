import { useTranslation } from 'react-i18next';
import { TEMPLATE_STATE, type TemplateRevision, type TemplateState } from '@eln/shared';
import { Badge, type BadgeTone } from '../../ui/Badge';

const TONES: Record<TemplateState, BadgeTone> = {
  [TEMPLATE_STATE.draft]: 'neutral',
  [TEMPLATE_STATE.checking]: 'warning',
  [TEMPLATE_STATE.approved]: 'success',
};

export function TemplateStateBadge({ state }: { state: TemplateState }) {
  const { t } = useTranslation('template');
  return (
    <Badge tone={TONES[state]} dot testId="template-state">
      {t(`state.${state}`)}
    </Badge>
  );
}

/** A revision's standing: approved (current or superseded), waiting, or sent back. */
export function RevisionBadge({ revision }: { revision: TemplateRevision }) {
  const { t } = useTranslation('template');
  if (revision.returnedAt) return <Badge tone="danger">{t('state.returned')}</Badge>;
  if (revision.supersededAt) return <Badge tone="neutral">{t('state.superseded')}</Badge>;
  if (revision.approvedAt) return <Badge tone="success">{t('state.A')}</Badge>;
  return <Badge tone="warning">{t('state.C')}</Badge>;
}
