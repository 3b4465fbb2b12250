import {
  NOTIFICATION_EVENTS,
  type AccountSettings,
  type AccountSettingsUpdate,
  type DigestChoice,
  type Language,
  type NotificationChoices,
  type Theme,
} from '@eln/shared';
import { zoneLabel } from '../audit/time';

/*
 * What the account page's forms hold and what each sends: only what the person changed, so that a
 * language or theme this browser merely shows is never stored as a choice, and the events left alone keep
 * following the defaults.
 */

export interface DisplayValues {
  language: Language;
  theme: Theme;
  /** null: the browser's own zone. */
  timeZone: string | null;
}

/** The display form's start: the server's choices, else what this browser shows now. */
export function displayValuesOf(settings: AccountSettings, here: { language: Language; theme: Theme }): DisplayValues {
  return { language: settings.language ?? here.language, theme: settings.theme ?? here.theme, timeZone: settings.timeZone };
}

export function displayChange(initial: DisplayValues, values: DisplayValues): AccountSettingsUpdate {
  const change: AccountSettingsUpdate = {};
  if (values.language !== initial.language) change.language = values.language;
  if (values.theme !== initial.theme) change.theme = values.theme;
  if (values.timeZone !== initial.timeZone) change.timeZone = values.timeZone;
  return change;
}

export type ChoicesInForce = AccountSettings['notifications'];

export function notificationChange(initial: ChoicesInForce, values: ChoicesInForce): AccountSettingsUpdate {
  const changed: NotificationChoices = {};
  for (const event of NOTIFICATION_EVENTS) {
    const [was, is] = [initial[event], values[event]];
    if (was.app !== is.app || was.email !== is.email) changed[event] = is;
  }
  return Object.keys(changed).length > 0 ? { notifications: changed } : {};
}

export function digestChange(initial: DigestChoice, values: DigestChoice): AccountSettingsUpdate {
  const digest: Partial<DigestChoice> = {};
  if (values.enabled !== initial.enabled) digest.enabled = values.enabled;
  if (values.time !== initial.time) digest.time = values.time;
  return Object.keys(digest).length > 0 ? { digest } : {};
}

export const changesNothing = (change: AccountSettingsUpdate): boolean => Object.keys(change).length === 0;

export interface ZoneOption {
  /** The IANA name. */
  id: string;
  /** `America/New York (UTC−05:00)`: underscores as spaces, with the zone's offset now. */
  text: string;
}

/** A zone as the picker lists it: its name readable, with its offset at `at`; null for a zone this browser does not know. */
export function zoneOption(zone: string, at: Date): ZoneOption | null {
  try {
    const offset = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value;
    return { id: zone, text: `${zone.replaceAll('_', ' ')} (${zoneLabel(offset ?? '')})` };
  } catch {
    return null;
  }
}

/** Every zone this browser knows, in name order, plus `extra` (a stored zone it does not list). */
export function zoneOptions(known: readonly string[], at: Date, extra: string | null = null): ZoneOption[] {
  const names = new Set(known);
  if (extra) names.add(extra);
  return [...names]
    .sort()
    .map((zone) => zoneOption(zone, at))
    .filter((option): option is ZoneOption => option !== null);
}

/** The zones of this browser (`Intl.supportedValuesOf`), or none where it cannot list them. */
export function browserZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  try {
    return intl.supportedValuesOf?.('timeZone') ?? [];
  } catch {
    return [];
  }
}

/** Whether a typed search finds a zone: any case, spaces and underscores alike (`new york` finds America/New_York). */
export function zoneMatches(text: string, search: string): boolean {
  const plain = (value: string) => value.toLowerCase().replaceAll('_', ' ').trim();
  return plain(text).includes(plain(search));
}
