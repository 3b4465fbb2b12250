import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { auditListRequest } from '@eln/shared';
import { currentLanguage } from '../../i18n';
import { fieldText, validateForm } from '../../lib/forms';
import { useSearchDraft } from '../../lib/useSearchDraft';
import { Button } from '../../ui/Button';
import { DateRangeField } from '../../ui/DateRangeField';
import { SearchIcon } from '../../ui/icons';
import { AUDIT_LIMITS, isAuditAction, toAuditExportBody, type AuditFilter } from './auditQuery';
import { useActionLabel, useTargetTypeLabel } from './AuditBits';
import { groupedActions, TARGET_TYPES } from './labels';

interface AuditFiltersProps {
  /** The filters in the URL; the form shows them and follows back/forward. */
  filter: AuditFilter;
  onSearch(filter: AuditFilter): void;
  onReset(): void;
  filtered: boolean;
}

const GROUPS = groupedActions();

/** Actor, action, target type and ID, and a date range; checked with the shared schema before searching. */
export function AuditFilters({ filter, onSearch, onReset, filtered }: AuditFiltersProps) {
  const { t } = useTranslation('audit');
  const language = currentLanguage();
  const id = useId();
  const actionLabel = useActionLabel();
  const targetLabel = useTargetTypeLabel();
  const { draft, setDraft, errors, submit } = useSearchDraft({
    searched: filter,
    searchKey: JSON.stringify([filter.actor, filter.action, filter.targetType, filter.targetId, filter.startDate, filter.endDate]),
    check: (next) => validateForm(auditListRequest, { ...toAuditExportBody(next), page: 1 }),
    onSearch,
  });

  const error = (field: string) => fieldText(errors, field, language);
  const dateError = error('endDate') ?? error('startDate');
  const invalid = (field: string, base: string) => (errors[field] ? `${base} field-invalid` : base);
  // A type from the URL that this build does not know still shows as chosen.
  const extraType = draft.targetType && !(TARGET_TYPES as readonly string[]).includes(draft.targetType) ? draft.targetType : null;

  return (
    <form className="search-bar card audit-filters" role="search" onSubmit={submit} noValidate data-testid="audit-filters">
      <div className={invalid('actor', 'search-field audit-filter-actor')}>
        <label className="search-label" htmlFor={`${id}-actor`}>
          {t('filters.actor')}
        </label>
        <input
          id={`${id}-actor`}
          type="search"
          className="input"
          value={draft.actor}
          maxLength={AUDIT_LIMITS.actor}
          placeholder={t('filters.actorPlaceholder')}
          onChange={(event) => setDraft({ ...draft, actor: event.target.value })}
          aria-invalid={errors.actor ? true : undefined}
          data-testid="audit-filter-actor"
        />
        {errors.actor ? <p className="field-error">{error('actor')}</p> : null}
      </div>
      <div className="search-field audit-filter-action">
        <label className="search-label" htmlFor={`${id}-action`}>
          {t('filters.action')}
        </label>
        <div className="select-wrap">
          <select
            id={`${id}-action`}
            className="input select"
            value={draft.action}
            onChange={(event) => setDraft({ ...draft, action: isAuditAction(event.target.value) ? event.target.value : '' })}
            data-testid="audit-filter-action"
          >
            <option value="">{t('filters.anyAction')}</option>
            {GROUPS.map(({ group, actions }) => (
              <optgroup key={group} label={t(`actionGroups.${group}`)}>
                {actions.map((action) => (
                  <option key={action} value={action}>
                    {actionLabel(action)}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
      </div>
      <div className="search-field audit-filter-type">
        <label className="search-label" htmlFor={`${id}-type`}>
          {t('filters.targetType')}
        </label>
        <div className="select-wrap">
          <select
            id={`${id}-type`}
            className="input select"
            value={draft.targetType}
            onChange={(event) => setDraft({ ...draft, targetType: event.target.value })}
            data-testid="audit-filter-target-type"
          >
            <option value="">{t('filters.anyTargetType')}</option>
            {TARGET_TYPES.map((type) => (
              <option key={type} value={type}>
                {targetLabel(type)}
              </option>
            ))}
            {extraType ? <option value={extraType}>{extraType}</option> : null}
          </select>
        </div>
      </div>
      <div className={invalid('targetId', 'search-field audit-filter-id')}>
        <label className="search-label" htmlFor={`${id}-target`}>
          {t('filters.targetId')}
        </label>
        <input
          id={`${id}-target`}
          type="search"
          className="input"
          value={draft.targetId}
          maxLength={AUDIT_LIMITS.targetId}
          placeholder={t('filters.targetIdPlaceholder')}
          onChange={(event) => setDraft({ ...draft, targetId: event.target.value })}
          aria-invalid={errors.targetId ? true : undefined}
          data-testid="audit-filter-target-id"
        />
        {errors.targetId ? <p className="field-error">{error('targetId')}</p> : null}
      </div>
      <DateRangeField
        startDate={draft.startDate}
        endDate={draft.endDate}
        onChange={(patch) => setDraft({ ...draft, ...patch })}
        error={dateError}
        labels={{ legend: t('filters.dateRange'), start: t('filters.startDate'), end: t('filters.endDate') }}
        className="audit-filter-dates"
        testId="audit-filter"
      />
      <div className="search-actions audit-filter-actions">
        <Button type="submit" variant="primary" icon={<SearchIcon size={16} />} data-testid="audit-search">
          {t('filters.search')}
        </Button>
        {filtered ? (
          <Button variant="ghost" onClick={onReset} data-testid="audit-search-reset">
            {t('filters.reset')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
