import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@eln/shared';
import { Badge, type BadgeTone } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Checkbox, SelectField, Switch, TextAreaField, TextField } from '../../ui/Field';
import { InlineAlert } from '../../ui/InlineAlert';
import { EmptyState, PageFrame } from '../../ui/PageFrame';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { SegmentedFilter } from '../../ui/SegmentedFilter';
import { DownloadIcon, FolderIcon, PlusIcon, SparkleIcon } from '../../ui/icons';
import { StatusBadge } from '../projects/StatusBadge';
import { NoteStatusBadge } from '../notes/NoteStatusBadge';

/** The design tokens shown as swatches: every colour a screen may use, by its CSS variable. */
const COLOUR_TOKENS = [
  '--accent',
  '--accent-soft',
  '--text',
  '--text-muted',
  '--text-subtle',
  '--bg',
  '--surface',
  '--border',
  '--border-strong',
  '--control-border',
  '--success',
  '--success-soft',
  '--warning',
  '--warning-soft',
  '--danger',
  '--danger-soft',
  '--info-text',
  '--info-soft',
  '--focus-color',
] as const;
const BADGE_TONES: readonly BadgeTone[] = ['neutral', 'accent', 'success', 'warning', 'danger', 'info'];

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card style-section" aria-labelledby={`style-${id}`} data-testid={`style-${id}`}>
      <h2 className="style-section-title" id={`style-${id}`}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** `/publishing/stylePage`: the parts every screen is built from, in the current theme. */
export function StylePage() {
  const { t } = useTranslation();
  const [title, setTitle] = useState('Buffer stability at 37 °C');
  const [status, setStatus] = useState<'' | 'ING' | 'C'>('');
  const [notify, setNotify] = useState(true);
  return (
    <PageFrame
      testId="style-page"
      title={t('publishing.pages.stylePage')}
      description={t('publishing.style.description')}
      icon={<SparkleIcon size={20} />}
    >
      <div className="style-grid">
        <Section id="colours" title={t('publishing.style.colours')}>
          <ul className="style-swatches">
            {COLOUR_TOKENS.map((token) => (
              <li key={token} className="style-swatch">
                <span className="style-swatch-colour" style={{ background: `var(${token})` }} aria-hidden="true" />
                <code>{token}</code>
              </li>
            ))}
          </ul>
        </Section>

        <Section id="typography" title={t('publishing.style.typography')}>
          <p className="page-title">{t('publishing.style.headline')}</p>
          <p className="style-section-title">{t('publishing.style.sectionHeading')}</p>
          <p>{t('publishing.style.body')}</p>
          <p className="page-description">{t('publishing.style.muted')}</p>
          <p>
            <code>LN-2026-000412 · sha256 9f2c…e41a</code>
          </p>
        </Section>

        <Section id="buttons" title={t('publishing.style.buttons')}>
          <div className="style-row">
            <Button variant="primary" icon={<PlusIcon size={16} />}>
              {t('publishing.style.primary')}
            </Button>
            <Button variant="secondary">{t('publishing.style.secondary')}</Button>
            <Button variant="ghost" icon={<DownloadIcon size={16} />}>
              {t('publishing.style.ghost')}
            </Button>
            <Button variant="danger">{t('publishing.style.danger')}</Button>
          </div>
          <div className="style-row">
            <Button variant="primary" size="sm">
              {t('publishing.style.small')}
            </Button>
            <Button variant="primary" size="lg">
              {t('publishing.style.large')}
            </Button>
            <Button variant="primary" loading>
              {t('common.saving')}
            </Button>
            <Button variant="secondary" disabled>
              {t('publishing.style.disabled')}
            </Button>
          </div>
        </Section>

        <Section id="fields" title={t('publishing.style.fields')}>
          <TextField
            label={t('publishing.style.fieldTitle')}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            counter={{ length: title.length, max: LIMITS.projectTitle }}
            required
          />
          <TextField label={t('publishing.style.fieldInvalid')} defaultValue="not-an-email" error={t('publishing.style.fieldError')} />
          <TextAreaField
            label={t('publishing.style.fieldDescription')}
            defaultValue={t('publishing.style.body')}
            hint={t('publishing.style.fieldHint')}
          />
          <SelectField label={t('publishing.style.fieldSelect')} defaultValue="CHEM">
            <option value="CHEM">Chemistry</option>
            <option value="BIO">Cell Biology</option>
          </SelectField>
          <div className="style-row">
            <Checkbox label={t('publishing.style.checkbox')} defaultChecked />
            <Checkbox label={t('publishing.style.indeterminate')} indeterminate />
          </div>
          <Switch
            label={t('publishing.style.switch')}
            description={t('publishing.style.switchHint')}
            checked={notify}
            onChange={(event) => setNotify(event.target.checked)}
          />
          <SegmentedFilter<'' | 'ING' | 'C'>
            label={t('publishing.style.filter')}
            testId="style-filter"
            value={status}
            onChange={setStatus}
            options={[
              { value: '', label: t('project.statusFilter.all') },
              { value: 'ING', label: t('project.statusFilter.ING') },
              { value: 'C', label: t('project.statusFilter.C') },
            ]}
          />
        </Section>

        <Section id="badges" title={t('publishing.style.badges')}>
          <div className="style-row">
            {BADGE_TONES.map((tone) => (
              <Badge key={tone} tone={tone} dot>
                {tone}
              </Badge>
            ))}
          </div>
          <div className="style-row">
            <StatusBadge status="ING" />
            <StatusBadge status="C" />
            <NoteStatusBadge status="W" />
            <NoteStatusBadge status="R" />
            <NoteStatusBadge status="T" />
            <NoteStatusBadge status="F" />
          </div>
        </Section>

        <Section id="messages" title={t('publishing.style.messages')}>
          <InlineAlert tone="info">{t('publishing.style.info')}</InlineAlert>
          <InlineAlert tone="success">{t('publishing.style.success')}</InlineAlert>
          <InlineAlert tone="warning">{t('publishing.style.warning')}</InlineAlert>
          <InlineAlert tone="error">{t('publishing.style.error')}</InlineAlert>
        </Section>

        <Section id="states" title={t('publishing.style.states')}>
          <EmptyState icon={<FolderIcon size={22} />} title={t('publishing.style.emptyTitle')}>
            {t('publishing.style.emptyBody')}
          </EmptyState>
          <SkeletonBlock lines={3} />
          <ErrorState message={t('publishing.style.loadFailed')} />
        </Section>
      </div>
    </PageFrame>
  );
}
