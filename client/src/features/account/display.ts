import { accountCalls, type AccountSettings, type AccountSettingsUpdate } from '@eln/shared';
import { call } from '../../api';
import { currentLanguage } from '../../i18n';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../lib/storage';
import { styleGuideSamples } from '../../lib/styleGuide';
import { setChosenTimeZone, viewerTimeZone } from '../../lib/timeZone';
import { getSession } from '../../session/store';
import { getTheme, setTheme } from '../../theme/theme';

/*
 * A signed-in person's language, theme and time zone follow them from device to device: they are kept on
 * the server (My account), and this browser keeps a copy (localStorage) that it starts with, and that
 * stays the choice of whoever is not signed in.
 */

/** How long the header's switches wait for the server before they switch anyway. */
const SAVE_WAIT_MS = 4000;

type SavedListener = (settings: AccountSettings) => void;
const savedListeners = new Set<SavedListener>();

/** Tells `listener` of each change saved from here (the account page's loaded settings follow it). */
export function onSettingsSaved(listener: SavedListener): () => void {
  savedListeners.add(listener);
  return () => savedListeners.delete(listener);
}

/** Saves settings for the signed-in person and tells the listeners; rejects with the call's error. */
export async function saveSettings(change: AccountSettingsUpdate): Promise<AccountSettings> {
  const saved = await call(accountCalls.updateSettings, change);
  for (const listener of savedListeners) listener(saved);
  return saved;
}

/**
 * Saves a choice made with the header's switches for the signed-in person (none while signed out, nor in the
 * style guide), waiting at most a few seconds. A failure is not shown: the switch still applies here, and
 * the server's copy is what the next sign-in elsewhere finds.
 */
export async function saveDisplayChoice(change: Pick<AccountSettingsUpdate, 'language' | 'theme'>): Promise<void> {
  if (!getSession() || styleGuideSamples()) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, SAVE_WAIT_MS);
  });
  await Promise.race([
    saveSettings(change).then(
      () => undefined,
      () => undefined,
    ),
    waited,
  ]);
  clearTimeout(timer);
}

/**
 * Makes this browser show what the server keeps for the person: its theme at once; its language and zone
 * on the next page load. Answers whether the page must load again to show them (never when this browser
 * cannot keep them, so that a page never reloads in a loop). A choice never made leaves this browser's own.
 */
export function applyServerSettings(settings: Pick<AccountSettings, 'language' | 'theme' | 'timeZone'>): boolean {
  if (settings.theme && settings.theme !== getTheme()) setTheme(settings.theme);
  const zoneBefore = viewerTimeZone();
  const zoneKept = setChosenTimeZone(settings.timeZone);
  let reload = zoneKept && viewerTimeZone() !== zoneBefore;
  if (settings.language && settings.language !== currentLanguage()) {
    writeStorage(STORAGE_KEYS.language, settings.language);
    reload ||= readStorage(STORAGE_KEYS.language) === settings.language;
  }
  return reload;
}
