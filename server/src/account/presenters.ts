import {
  choiceFor,
  DEFAULT_DIGEST,
  isLanguage,
  NOTIFICATION_EVENTS,
  THEMES,
  type AccountSettings,
  type NotificationChoices,
  type NotificationEvent,
  type Theme,
} from '@eln/shared';
import type { userSettings } from '../db/schema.js';

type SettingsRow = typeof userSettings.$inferSelect;

const isTheme = (value: string | null): value is Theme => (THEMES as readonly string[]).includes(value ?? '');

/** Every event's choice in force: the person's own where they chose, the default elsewhere. */
export function choicesInForce(
  stored: NotificationChoices | null | undefined,
): Record<NotificationEvent, AccountSettings['notifications'][NotificationEvent]> {
  return Object.fromEntries(NOTIFICATION_EVENTS.map((event) => [event, choiceFor(stored, event)])) as AccountSettings['notifications'];
}

/** The settings as the account page and the audit record show them (without who the person is). */
export function settingsView(row: SettingsRow | null): Omit<AccountSettings, 'profile' | 'digestTimeZone' | 'events'> {
  return {
    language: row && isLanguage(row.language) ? row.language : null,
    theme: row && isTheme(row.theme) ? row.theme : null,
    timeZone: row?.timeZone ?? null,
    notifications: choicesInForce(row?.notificationChoices as NotificationChoices | null | undefined),
    digest: row ? { enabled: row.digestEnabled, time: row.digestTime } : { ...DEFAULT_DIGEST },
  };
}
