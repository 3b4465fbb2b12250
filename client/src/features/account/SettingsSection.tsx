import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldMessage, type AccountSettings, type AccountSettingsUpdate } from '@eln/shared';
import { apiErrorText, fieldErrorsOf } from '../../api';
import { currentLanguage } from '../../i18n';
import { Button } from '../../ui/Button';
import { InlineAlert } from '../../ui/InlineAlert';
import { saveSettings } from './display';
import { changesNothing } from './settingsForms';

export type SectionOutcome = { kind: 'saved' } | { kind: 'failed'; text: string; fields: Record<string, string> } | null;

interface SettingsSectionProps {
  /** `account-<name>`: the card's test id; its form, button and notices are named after it. */
  testId: string;
  title: string;
  icon: ReactNode;
  description?: string;
  /** What saving would send: only what changed (nothing: the button waits). */
  change: AccountSettingsUpdate;
  saveLabel: string;
  savedText: string;
  /** Told of the saved settings; answers false when the page is about to load again (no notice then). */
  onSaved?(saved: AccountSettings): boolean | void;
  /** A notice shown as if just saved (after a reload that a save asked for). */
  savedBefore?: boolean;
  children: (fieldError: (field: string) => string | undefined) => ReactNode;
}

/**
 * One card of My account: its fields, and its own Save, which sends what changed and says plainly whether
 * it was kept (a failure with the server's reason, and each refused field beside it).
 */
export function SettingsSection({
  testId,
  title,
  icon,
  description,
  change,
  saveLabel,
  savedText,
  onSaved,
  savedBefore,
  children,
}: SettingsSectionProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<SectionOutcome>(savedBefore ? { kind: 'saved' } : null);
  const nothing = changesNothing(change);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || nothing) return;
    setBusy(true);
    setOutcome(null);
    try {
      const saved = await saveSettings(change);
      if (onSaved?.(saved) === false) return;
      setOutcome({ kind: 'saved' });
      setBusy(false);
    } catch (error) {
      const fields = Object.fromEntries(fieldErrorsOf(error).map((field) => [field.field, fieldMessage(field, language)]));
      setOutcome({ kind: 'failed', text: apiErrorText(error, language), fields });
      setBusy(false);
    }
  };

  const fieldError = (field: string) => (outcome?.kind === 'failed' ? outcome.fields[field] : undefined);

  return (
    <AccountCard testId={testId} title={title} icon={icon} description={description}>
      <form className="account-form" onSubmit={(event) => void submit(event)} noValidate data-testid={`${testId}-form`}>
        {children(fieldError)}
        <div className="account-form-footer">
          <div className="account-form-notice" aria-live="polite">
            {outcome?.kind === 'saved' && nothing ? (
              <InlineAlert tone="success" testId={`${testId}-saved`}>
                {savedText}
              </InlineAlert>
            ) : null}
            {outcome?.kind === 'failed' ? (
              <InlineAlert tone="error" testId={`${testId}-failed`}>
                {t('account.saveFailed', { reason: [outcome.text, ...Object.values(outcome.fields)].join(' ') })}
              </InlineAlert>
            ) : null}
          </div>
          <Button type="submit" variant="primary" loading={busy} disabled={nothing && !busy} data-testid={`${testId}-save`}>
            {busy ? t('common.saving') : saveLabel}
          </Button>
        </div>
      </form>
    </AccountCard>
  );
}

/** A card of My account: its heading (named after `testId`), a line saying what it is for, its content. */
export function AccountCard({
  testId,
  title,
  icon,
  description,
  children,
}: {
  testId: string;
  title: string;
  icon: ReactNode;
  description?: string | undefined;
  children: ReactNode;
}) {
  return (
    <section className="card account-section" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <header className="account-section-header">
        <h2 className="card-title" id={`${testId}-title`}>
          {icon}
          {title}
        </h2>
        {description ? <p className="account-section-description">{description}</p> : null}
      </header>
      {children}
    </section>
  );
}
