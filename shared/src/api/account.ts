import { z } from 'zod';
import { ERR } from '../errors.js';
import { LANGUAGES } from '../language.js';
import { THEMES } from '../limits.js';
import { digestChoice, NOTIFICATION_EVENTS, notificationChoice, notificationChoices } from '../notifications.js';
import { timeZoneField } from '../validation.js';
import { defineCall } from './call.js';
import { emptyRequest } from './identity.js';

/**
 * My account (server/src/account): a person's own preferences, kept on the server so that they follow them
 * from device to device. Each call reads or changes the caller's own settings only: the request names no
 * one.
 */

/** Who the caller is, as the account page shows it (read-only: administrators change it). */
export const accountProfile = z.strictObject({
  userId: z.string(),
  name: z.string(),
  departmentName: z.string().nullable(),
});

/** Every event's choice in force: the person's own where they chose, else the default. */
export const notificationChoicesInForce = z.record(z.enum(NOTIFICATION_EVENTS), notificationChoice);

export const accountSettings = z.strictObject({
  profile: accountProfile,
  /** Null: never chosen (each browser picks by its own languages). */
  language: z.enum(LANGUAGES).nullable(),
  /** Null: never chosen (the standard theme, or what the browser kept). */
  theme: z.enum(THEMES).nullable(),
  /** An IANA zone; null: never chosen (each browser shows times in its own zone). */
  timeZone: z.string().nullable(),
  notifications: notificationChoicesInForce,
  /**
   * The events this person can be told of, in the settings page's order: directory synchronisation tells
   * administrators only, a webhook turned off its owner (administrators and project leaders).
   */
  events: z.array(z.enum(NOTIFICATION_EVENTS)),
  digest: digestChoice,
  /** The zone the digest's time is read in: the person's, else the server's (TIME_ZONE). */
  digestTimeZone: z.string(),
});
export type AccountSettings = z.infer<typeof accountSettings>;

/**
 * A partial change: only the fields sent change; null clears a display choice (back to the browser's own).
 * Notification choices are given per event (unknown events are refused); the digest's on/off and time apart.
 */
export const accountSettingsUpdate = z.strictObject({
  language: z.enum(LANGUAGES).nullable().optional(),
  theme: z.enum(THEMES).nullable().optional(),
  timeZone: timeZoneField.nullable().optional(),
  notifications: notificationChoices.optional(),
  digest: digestChoice.partial().optional(),
});
export type AccountSettingsUpdate = z.input<typeof accountSettingsUpdate>;

export const accountCalls = {
  settings: defineCall({
    path: '/v1/account/settings',
    auth: 'user',
    kind: 'query',
    summary:
      "The caller's own settings: language, theme and time zone (null where never chosen), every notification event's choice and the daily digest.",
    request: emptyRequest,
    answer: accountSettings,
    errors: [ERR.accountSettingsLookup],
    failure: ERR.accountSettingsLookup,
  }),
  updateSettings: defineCall({
    path: '/v1/account/settings/update',
    auth: 'user',
    kind: 'command',
    summary:
      "Changes some of the caller's own settings (only the fields sent), audited with the settings before and after; answers them all.",
    request: accountSettingsUpdate,
    answer: accountSettings,
    errors: [ERR.accountSettingsSave],
    failure: ERR.accountSettingsSave,
  }),
} as const;
