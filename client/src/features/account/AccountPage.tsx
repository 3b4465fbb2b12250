import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { api, LANGUAGES, THEMES, type AccountSettings, type DigestChoice, type NotificationEvent } from '@eln/shared';
import { apiErrorText } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { readStorage, STORAGE_KEYS } from '../../lib/storage';
import { getTheme } from '../../theme/theme';
import { Checkbox, SelectField, Switch } from '../../ui/Field';
import { CalendarIcon, EyeIcon, MailIcon, UserIcon } from '../../ui/icons';
import { PageFrame } from '../../ui/PageFrame';
import { DetailRow, ErrorState, SkeletonBlock } from '../../ui/States';
import { DigestTimeField } from './DigestTimeField';
import { applyServerSettings } from './display';
import { AccountCard, SettingsSection } from './SettingsSection';
import { digestChange, displayChange, displayValuesOf, notificationChange, type ChoicesInForce, type DisplayValues } from './settingsForms';
import { TokensCard } from './TokensCard';
import { ZonePicker } from './ZonePicker';
import './account.css';
import { TableScroll } from '../../ui/TableScroll';

/** `?saved=display`: the display was saved and the page loaded again in the language chosen. */
const SAVED_PARAM = 'saved';

/**
 * `/account`: the signed-in person's profile (read-only) and their preferences, kept on the server so that
 * they follow them to every device: display (language, theme, time zone), how they hear of each event,
 * and the daily digest. Each card saves on its own.
 */
export function AccountPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  // Loaded afresh on each visit: another device may have changed them since this tab started.
  const settings = useApiQuery(api.account.settings, {}, { refetchOnMount: 'always' });
  const [params, setParams] = useSearchParams();
  const [savedBefore] = useState(() => params.get(SAVED_PARAM) === 'display');
  useEffect(() => {
    if (params.has(SAVED_PARAM)) setParams({}, { replace: true });
  }, [params, setParams]);

  const data = settings.data;
  return (
    <PageFrame testId="page-account" title={t('account.title')} description={t('account.description')} icon={<UserIcon size={20} />}>
      {!data && settings.phase === 'error' ? (
        <div className="card">
          <ErrorState message={apiErrorText(settings.error, language)} onRetry={settings.reload} testId="account-load-error" />
        </div>
      ) : !data ? (
        <div className="account-grid" aria-busy="true">
          <div className="card account-section">
            <SkeletonBlock lines={4} />
          </div>
          <div className="card account-section">
            <SkeletonBlock lines={6} />
          </div>
        </div>
      ) : (
        <div className="account-grid">
          <ProfileCard profile={data.profile} />
          <DisplayCard settings={data} savedBefore={savedBefore} />
          <NotificationsCard settings={data} />
          <DigestCard settings={data} />
          <TokensCard />
        </div>
      )}
      <p className="account-api-docs">
        <Link to="/api-docs" data-testid="account-api-docs">
          {t('apiDocs.open')}
        </Link>
      </p>
    </PageFrame>
  );
}

function ProfileCard({ profile }: { profile: AccountSettings['profile'] }) {
  const { t } = useTranslation();
  return (
    <AccountCard
      testId="account-profile"
      title={t('account.profile.title')}
      icon={<UserIcon size={17} />}
      description={t('account.profile.hint')}
    >
      <dl className="detail-list">
        <DetailRow label={t('account.profile.name')} testId="account-profile-name">
          {profile.name}
        </DetailRow>
        <DetailRow label={t('account.profile.email')} testId="account-profile-email">
          <span className="cell-mono">{profile.userId}</span>
        </DetailRow>
        <DetailRow label={t('account.profile.department')} testId="account-profile-department">
          {profile.departmentName ?? <span className="detail-muted">{t('account.profile.noDepartment')}</span>}
        </DetailRow>
      </dl>
    </AccountCard>
  );
}

/** The form's values, back to what the server holds whenever a fresh answer comes in (a save, a visit). */
function useResetOn<T>(initial: T, source: unknown): [T, (next: T) => void] {
  const [state, setState] = useState({ source, values: initial });
  if (state.source !== source) {
    setState({ source, values: initial });
    return [initial, (values) => setState({ source, values })];
  }
  return [state.values, (values) => setState({ source, values })];
}

function DisplayCard({ settings, savedBefore }: { settings: AccountSettings; savedBefore: boolean }) {
  const { t } = useTranslation();
  const initial = displayValuesOf(settings, { language: currentLanguage(), theme: getTheme() });
  const [values, setValues] = useResetOn<DisplayValues>(initial, settings);
  const change = displayChange(initial, values);
  const [reloading, setReloading] = useState(false);

  const onSaved = (saved: AccountSettings) => {
    const languageChanged = saved.language !== null && saved.language !== currentLanguage();
    applyServerSettings(saved);
    // A new language shows after a page load (like the header's switch), with the notice that it was saved.
    if (languageChanged && readStorage(STORAGE_KEYS.language) === saved.language) {
      setReloading(true);
      window.location.assign(`/account?${SAVED_PARAM}=display`);
      return false;
    }
    return true;
  };

  return (
    <SettingsSection
      testId="account-display"
      title={t('account.display.title')}
      icon={<EyeIcon size={17} />}
      change={change}
      saveLabel={reloading ? t('account.display.reloading') : t('account.display.save')}
      savedText={t('account.display.saved')}
      onSaved={onSaved}
      savedBefore={savedBefore}
    >
      {(fieldError) => (
        <div className="form-grid form-grid-2">
          <SelectField
            label={t('account.display.language')}
            value={values.language}
            onChange={(event) => setValues({ ...values, language: event.target.value as DisplayValues['language'] })}
            error={fieldError('language')}
            testId="account-language"
          >
            {LANGUAGES.map((option) => (
              <option key={option} value={option} lang={option}>
                {t(`language.${option}`)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t('account.display.theme')}
            value={values.theme}
            onChange={(event) => setValues({ ...values, theme: event.target.value as DisplayValues['theme'] })}
            error={fieldError('theme')}
            testId="account-theme"
          >
            {THEMES.map((option) => (
              <option key={option} value={option}>
                {t(`theme.${option}`)}
              </option>
            ))}
          </SelectField>
          <div className="field-span-2">
            <ZonePicker
              value={values.timeZone}
              onChange={(timeZone) => setValues({ ...values, timeZone })}
              label={t('account.display.timeZone')}
              hint={t('account.display.timeZoneHint')}
              error={fieldError('timeZone')}
            />
          </div>
        </div>
      )}
    </SettingsSection>
  );
}

function NotificationsCard({ settings }: { settings: AccountSettings }) {
  const { t } = useTranslation();
  const [values, setValues] = useResetOn<ChoicesInForce>(settings.notifications, settings);
  // Only the events this person can be sent (the server's verdict: some are for administrators or leaders).
  const { events } = settings;
  const set = (event: NotificationEvent, channel: 'app' | 'email', on: boolean) =>
    setValues({ ...values, [event]: { ...values[event], [channel]: on } });

  return (
    <SettingsSection
      testId="account-notifications"
      title={t('account.notifications.title')}
      icon={<MailIcon size={17} />}
      description={t('account.notifications.description')}
      change={notificationChange(settings.notifications, values)}
      saveLabel={t('account.notifications.save')}
      savedText={t('account.notifications.saved')}
    >
      {() => (
        <TableScroll>
          <table className="data-table account-events">
            <thead>
              <tr>
                <th scope="col">{t('account.notifications.event')}</th>
                <th scope="col" className="account-channel">
                  {t('account.notifications.app')}
                </th>
                <th scope="col" className="account-channel">
                  {t('account.notifications.email')}
                </th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => {
                const name = t(`account.events.${event}`);
                return (
                  <tr key={event} data-testid={`account-event-${event}`}>
                    <th scope="row" className="account-event-name">
                      {name}
                    </th>
                    {(['app', 'email'] as const).map((channel) => (
                      <td key={channel} className="account-channel">
                        <Checkbox
                          label={<span className="visually-hidden">{t(`account.notifications.${channel}Of`, { event: name })}</span>}
                          checked={values[event][channel]}
                          onChange={(changed) => set(event, channel, changed.target.checked)}
                          testId={`account-event-${event}-${channel}`}
                        />
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
    </SettingsSection>
  );
}

function DigestCard({ settings }: { settings: AccountSettings }) {
  const { t } = useTranslation();
  const [values, setValues] = useResetOn<DigestChoice>(settings.digest, settings);
  return (
    <SettingsSection
      testId="account-digest"
      title={t('account.digest.title')}
      icon={<CalendarIcon size={17} />}
      description={t('account.digest.description')}
      change={digestChange(settings.digest, values)}
      saveLabel={t('account.digest.save')}
      savedText={t('account.digest.saved')}
    >
      {() => (
        <div className="account-digest">
          <Switch
            label={t('account.digest.enabled')}
            checked={values.enabled}
            onChange={(event) => setValues({ ...values, enabled: event.target.checked })}
            testId="account-digest-enabled"
          />
          <DigestTimeField
            value={values.time}
            onChange={(time) => setValues({ ...values, time })}
            label={t('account.digest.time')}
            hint={t('account.digest.timeHint', { zone: settings.digestTimeZone })}
          />
        </div>
      )}
    </SettingsSection>
  );
}
