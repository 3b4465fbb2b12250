import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { isLanguage, LANGUAGES, provideErrorMessages, type ErrorMessages, type Language } from '@eln/shared';
import { readStorage, STORAGE_KEYS, writeStorage } from '../lib/storage';
import { detectLanguage } from './detect';
import en from './en';

/**
 * `translation` holds the app's strings (with the first route); `editor` those of the live note editor, its tabs and note lists;
 * `audit` those of the audit trail, the download page and project closing; `signature` those of electronic
 * signatures (the note's signatures area, the request, signing and removal dialogs, the note list); `template`
 * those of templates (list, editor, approval, versions, the template choice of a new note); `history` those
 * of a note's history and of comparing two versions (the template versions' comparison too). Labels a
 * printout shows too (a note's facts and statuses, signatures, chart types, ...) are taken at their keys
 * from `@eln/shared/i18n`, the catalogue the server's PDF and HTML rendering read.
 */
const english = { translation: en } as const;

/**
 * English ships with the first route (it is the fallback of every missing key); the other languages are a
 * chunk each (with their error messages), and since switching language reloads the page only the one the interface starts in is fetched.
 */
const otherLanguages: Record<Exclude<Language, 'en'>, () => Promise<{ default: Record<string, object>; errors: ErrorMessages }>> = {
  ko: () => import('./catalogs/ko'),
  ja: () => import('./catalogs/ja'),
};

const browserLanguages = typeof navigator !== 'undefined' ? navigator.languages : undefined;
const initial: Language = detectLanguage(readStorage(STORAGE_KEYS.language), browserLanguages);

void i18next.use(initReactI18next).init({
  resources: { en: english },
  partialBundledLanguages: true,
  lng: initial,
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

if (typeof document !== 'undefined') document.documentElement.lang = initial;

/** Fetches the start language's strings if they are not English; the app renders after this settles. */
export async function loadStartLanguage(): Promise<void> {
  if (initial === 'en') return;
  const { default: catalog, errors } = await otherLanguages[initial]();
  provideErrorMessages(initial, errors);
  for (const [namespace, strings] of Object.entries(catalog)) i18next.addResourceBundle(initial, namespace, strings, true, true);
  await i18next.changeLanguage(initial);
}

let screenStrings: Promise<void> | null = null;

/**
 * The English strings of the `editor`, `audit`, `signature`, `template` and `history` namespaces (the fallback of
 * every language), fetched once, before the first screen that uses them renders (app/router.tsx).
 */
export function loadScreenStrings(): Promise<void> {
  screenStrings ??= import('./screenStrings').then(({ addScreenStrings }) => addScreenStrings());
  return screenStrings;
}

/** The language the interface shows (and the API's Accept-Language). */
export function currentLanguage(): Language {
  const language = i18next.language;
  return isLanguage(language) ? language : initial;
}

/** Stores the choice and reloads, so that every screen and call starts in the new language. */
export function switchLanguage(language: Language): void {
  writeStorage(STORAGE_KEYS.language, language);
  window.location.reload();
}

export default i18next;
